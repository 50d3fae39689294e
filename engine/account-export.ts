/**
 * An owner's data export (issue 26 §5): a ZIP (yazl) written as it is read, never held whole in
 * memory. It holds:
 *
 * - `charla-export.json`: `{format, version, exportedAt, account, bots, plugins}` where `account`
 *   is the owner's row, profile, sign-in methods and sessions (no password hash, no token), each
 *   bot is its row without the channels' credentials plus its `files` (metadata, with
 *   `export_path` naming the copy in the ZIP, null when there is none), `ialandings`, `followers`
 *   and `messages` (oldest first, read page by page), and `plugins` what each plugin keeps of the
 *   owner (registry `exportOwnerData`: bookings, billing history, broadcasts…);
 * - `files/<bot id>/<file name>`: every stored object of the owner's files, as stored (local disk or
 *   S3, through engine/storage `get`);
 * - `plugins/<plugin id>/<path>`: the objects plugins keep of the owner (registry
 *   `ownerStoredObjects`; issue 27 §3: the owner's voice notes to web visitors).
 */
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { ZipFile } from 'yazl';
import type { Logger } from './logger.ts';
import type { Registry } from './registry/index.ts';
import type { Storage } from './storage/index.ts';
import type { Database } from './store/database.ts';
import {
  accountSummary,
  EXPORT_PAGE_ROWS,
  exportBots,
  exportFiles,
  exportIalandings,
  followersPage,
  messagesPage,
} from './store/queries/accounts.ts';

/** The export's JSON file, at the root of the ZIP. */
export const EXPORT_JSON = 'charla-export.json';

/** What {@link accountExport} needs. */
export interface ExportDeps {
  db: Kysely<Database>;
  storage: Storage;
  registry: Pick<Registry, 'exportOwnerData'> & Partial<Pick<Registry, 'ownerStoredObjects'>>;
  log: Logger;
  now?: () => Date;
}

type FileRow = Awaited<ReturnType<typeof exportFiles>>[number];

/** A file row with where its bytes are in the ZIP (null: an http address, or no stored object). */
type ExportedFile = FileRow & { export_path: string | null };

/** The files' rows with their ZIP paths: `files/<bot>/<name>`, made unique (`name-2.ext`) per bot. */
async function placeFiles(storage: Storage, rows: FileRow[]): Promise<ExportedFile[]> {
  const taken = new Set<string>();
  const out: ExportedFile[] = [];
  for (const row of rows) {
    const stored = !/^https?:\/\//i.test(row.file_url) && (await storage.head(row.file_url)) !== null;
    if (!stored) {
      out.push({ ...row, export_path: null });
      continue;
    }
    const dot = row.file_name.lastIndexOf('.');
    const [stem, ext] =
      dot > 0 ? [row.file_name.slice(0, dot), row.file_name.slice(dot)] : [row.file_name, ''];
    let path = `files/${row.chatbot_id}/${row.file_name}`;
    for (let n = 2; taken.has(path); n++) path = `files/${row.chatbot_id}/${stem}-${n}${ext}`;
    taken.add(path);
    out.push({ ...row, export_path: path });
  }
  return out;
}

/** Reads pages of rows (keyset by `id`) and yields them as the items of a JSON array, comma-separated. */
async function* jsonItems<Row extends { id: string }>(
  page: (afterId: string | null) => Promise<Row[]>,
): AsyncGenerator<string> {
  let after: string | null = null;
  let first = true;
  for (;;) {
    const rows = await page(after);
    if (rows.length > 0) {
      yield (first ? '' : ',') + rows.map((r) => JSON.stringify(r)).join(',');
      first = false;
      after = rows[rows.length - 1]!.id;
    }
    if (rows.length < EXPORT_PAGE_ROWS) return;
  }
}

/** The text of `charla-export.json`, in pieces (see the module's comment for its shape). */
async function* exportJson(deps: ExportDeps, ownerId: string, files: ExportedFile[]): AsyncGenerator<string> {
  const [account, bots, ialandings] = await Promise.all([
    accountSummary(deps.db, ownerId),
    exportBots(deps.db, ownerId),
    exportIalandings(deps.db, ownerId),
  ]);
  const exportedAt = (deps.now?.() ?? new Date()).toISOString();
  yield `{"format":"charla-export","version":1,"exportedAt":${JSON.stringify(exportedAt)},`;
  yield `"account":${JSON.stringify(account ?? null)},"bots":[`;
  for (const [i, bot] of bots.entries()) {
    const head = JSON.stringify(bot).slice(0, -1);
    const own = {
      files: files.filter((f) => f.chatbot_id === bot.id),
      ialandings: ialandings.filter((l) => l.chatbot_id === bot.id),
    };
    yield `${i > 0 ? ',' : ''}${head},${JSON.stringify(own).slice(1, -1)},"followers":[`;
    yield* jsonItems((after) => followersPage(deps.db, bot.id, after));
    yield '],"messages":[';
    yield* jsonItems((after) => messagesPage(deps.db, bot.id, after));
    yield ']}';
  }
  yield `],"plugins":${JSON.stringify(await deps.registry.exportOwnerData(ownerId))}}`;
}

/**
 * Starts an owner's export and returns the ZIP's bytes as a stream (see the module's comment).
 * The files' list is read first; the JSON and each object are read while the ZIP is consumed.
 * A failure while reading destroys the stream with the error (the client sees a cut download).
 */
export async function accountExport(deps: ExportDeps, ownerId: string): Promise<Readable> {
  const files = await placeFiles(deps.storage, await exportFiles(deps.db, ownerId));
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const fail = (err: unknown) => {
    deps.log.error({ err, ownerId }, 'account export failed');
    output.destroy(err instanceof Error ? err : new Error(String(err)));
  };
  zip.on('error', fail);
  // Every entry's stream: its error fails the export (yazl does not listen to it), and a client that
  // goes away mid-download closes it (a file handle, an S3 request) rather than leaving it paused.
  const open = new Set<Readable>();
  const track = (stream: Readable) => {
    open.add(stream);
    stream.on('error', fail);
    stream.once('close', () => open.delete(stream));
    return stream;
  };
  output.once('close', () => {
    for (const stream of open) stream.destroy();
  });
  const mtime = deps.now?.() ?? new Date();
  zip.addReadStreamLazy(EXPORT_JSON, { mtime, compress: true }, (done) => {
    done(null, track(Readable.from(exportJson(deps, ownerId, files))));
  });
  for (const file of files) {
    if (!file.export_path) continue;
    zip.addReadStreamLazy(
      file.export_path,
      // Images, PDFs, audio and video are compressed already.
      { mtime: new Date(file.created_at), compress: false },
      (done) => {
        deps.storage.get(file.file_url).then(
          // Removed since the list was read: an empty entry rather than a failed export.
          (object) => done(null, track(object ? object.stream : Readable.from([]))),
          (err: unknown) => done(err, Readable.from([])),
        );
      },
    );
  }
  // The plugins' own objects (issue 27 §3): missing ones are left out.
  for (const o of (await deps.registry.ownerStoredObjects?.(ownerId)) ?? []) {
    if (!(await deps.storage.head(o.key))) continue;
    zip.addReadStreamLazy(
      `plugins/${o.plugin}/${o.path}`,
      { mtime: o.createdAt, compress: false },
      (done) => {
        deps.storage.get(o.key).then(
          (object) => done(null, track(object ? object.stream : Readable.from([]))),
          (err: unknown) => done(err, Readable.from([])),
        );
      },
    );
  }
  zip.end();
  return output;
}
