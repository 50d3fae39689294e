/**
 * Writes a backup archive (issue 26 §5; layout in ./format.ts): the database read inside one
 * read-only REPEATABLE READ transaction (a consistent snapshot, on PostgreSQL while Charla keeps
 * serving), then every stored object, streamed one at a time into a gzip-compressed tar. Nothing
 * is held whole in memory: rows go out in ~1 MiB chunks, objects as streams.
 */
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Kysely } from 'kysely';
import { type Pack, pack as tarPack } from 'tar-stream';
import { jobsSchemaOf } from '../jobs/boss-sql.ts';
import { secretFingerprint } from '../nodes.ts';
import type { Storage } from '../storage/index.ts';
import type { Store } from '../store/connect.ts';
import type { Database } from '../store/database.ts';
import {
  appliedMigrations,
  closeRowCursor,
  fetchRows,
  jobsSchemaVersion,
  listSequences,
  listTables,
  openRowCursor,
  snapshotTransaction,
  type TableInfo,
} from '../store/queries/backup.ts';
import {
  CHUNK_BYTES,
  CONTENT_TYPE_PAX,
  chunkName,
  FETCH_ROWS,
  FORMAT,
  FORMAT_VERSION,
  JOB_TABLES,
  type Manifest,
  STORAGE_PREFIX,
  skippedTable,
  type Trailer,
} from './format.ts';

/** What a backup needs: the open store and storage, and the running Charla's version. */
export interface BackupDeps {
  store: Pick<Store, 'db' | 'kind' | 'schema'>;
  storage: Storage;
  /** Charla's version, recorded in the manifest. */
  version: string;
  /** The instance secret (CHARLA_SECRET or `<data dir>/secret`): only its fingerprint is written. */
  secret?: string | undefined;
  /** Called for each object stored in the archive (progress output). */
  onObject?: (key: string, size: number) => void;
}

/** What a backup wrote. */
export interface BackupSummary {
  manifest: Manifest;
  trailer: Trailer;
}

/**
 * Writes one archive of the database and the storage to `out` (a file, an HTTP response). The
 * database part is one snapshot; objects are copied after it, so an object uploaded meanwhile may
 * be in the archive without its row (harmless), and one removed meanwhile is left out.
 * @throws the database's or storage's error; `out` is then destroyed with it (a partial archive
 *   is never mistaken for a complete one: it has no `end.json` and a cut gzip stream).
 */
export async function writeBackup(deps: BackupDeps, out: Writable): Promise<BackupSummary> {
  const pack = tarPack();
  const written = pipeline(pack as unknown as Readable, createGzip(), out);
  written.catch(() => {}); // awaited below
  try {
    const trailer: Trailer = { rows: {}, objects: 0, bytes: 0 };
    const manifest = await deps.store.db.transaction().execute(async (tx) => {
      await snapshotTransaction(tx);
      const m = await readManifest(tx, deps);
      await addEntry(pack, 'manifest.json', Buffer.from(JSON.stringify(m, null, 2)));
      const schema = deps.store.schema;
      for (const t of m.tables)
        trailer.rows[`charla/${t.name}`] = await dumpTable(tx, pack, schema, t, 'charla');
      if (m.jobs) {
        const jobsSchema = jobsSchemaOf(schema);
        for (const t of m.jobs.tables)
          trailer.rows[`jobs/${t.name}`] = await dumpTable(tx, pack, jobsSchema, t, 'jobs');
      }
      return m;
    });
    for await (const { key } of deps.storage.list()) {
      const object = await deps.storage.get(key);
      if (!object) continue; // removed since it was listed
      await addEntry(pack, `${STORAGE_PREFIX}${key}`, object.stream, object.size, {
        [CONTENT_TYPE_PAX]: object.contentType,
      });
      trailer.objects++;
      trailer.bytes += object.size;
      deps.onObject?.(key, object.size);
    }
    await addEntry(pack, 'end.json', Buffer.from(JSON.stringify(trailer, null, 2)));
    pack.finalize();
    await written;
    return { manifest, trailer };
  } catch (err) {
    pack.destroy(err as Error);
    out.destroy(err as Error);
    await written.catch(() => {});
    throw err;
  }
}

/** The manifest from inside the snapshot. */
async function readManifest(
  tx: Kysely<Database>,
  deps: Pick<BackupDeps, 'store' | 'version' | 'secret'>,
): Promise<Manifest> {
  const schema = deps.store.schema;
  const all = await listTables(tx, schema);
  if (!all.some((t) => t.name === 'owners'))
    throw new Error('the database has no Charla tables yet: there is nothing to back up');
  const migrations: Record<string, string[]> = {};
  for (const t of all)
    if (t.name === 'kysely_migration' || /^charla_plugin_.+_migrations$/.test(t.name))
      migrations[t.name] = await appliedMigrations(tx, schema, t.name);
  const jobsSchema = jobsSchemaOf(schema);
  const jobsVersion = await jobsSchemaVersion(tx, jobsSchema);
  const jobTables = jobsVersion == null ? [] : await listTables(tx, jobsSchema);
  const shape = (t: TableInfo) => ({ name: t.name, columns: t.columns, primaryKey: t.primaryKey });
  return {
    format: FORMAT,
    formatVersion: FORMAT_VERSION,
    charlaVersion: deps.version,
    createdAt: new Date().toISOString(),
    database: deps.store.kind,
    migrations,
    secretFingerprint: deps.secret ? secretFingerprint(deps.secret) : null,
    tables: all.filter((t) => !skippedTable(t.name)).map(shape),
    sequences: (await listSequences(tx, schema)).filter((s) => !s.table || !skippedTable(s.table)),
    jobs:
      jobsVersion == null
        ? null
        : {
            version: jobsVersion,
            tables: JOB_TABLES.flatMap((name) => jobTables.filter((t) => t.name === name)).map(shape),
          },
  };
}

/**
 * Writes a table's rows as NDJSON chunks (in primary-key order through the export cursor).
 * @returns the number of rows.
 */
async function dumpTable(
  tx: Kysely<Database>,
  pack: Pack,
  schema: string,
  table: { name: string; primaryKey: string[] },
  group: 'charla' | 'jobs',
): Promise<number> {
  await openRowCursor(tx, schema, table.name, table.primaryKey);
  let rows = 0;
  let chunk: string[] = [];
  let bytes = 0;
  let n = 0;
  const flush = async () => {
    if (chunk.length === 0) return;
    n++;
    await addEntry(pack, chunkName(group, table.name, n), Buffer.from(`${chunk.join('\n')}\n`));
    chunk = [];
    bytes = 0;
  };
  for (;;) {
    const batch = await fetchRows(tx, FETCH_ROWS);
    if (batch.length === 0) break;
    for (const row of batch) {
      chunk.push(row);
      bytes += Buffer.byteLength(row) + 1;
      rows++;
      if (bytes >= CHUNK_BYTES) await flush();
    }
  }
  await flush();
  await closeRowCursor(tx);
  return rows;
}

/**
 * Adds one entry to the tar and resolves once its bytes went on (the pack's backpressure holds a
 * stream's reads meanwhile).
 * @param size the stream's length in bytes (a tar header carries it before the data).
 * @param pax extended header records (a stored object's content type).
 */
function addEntry(
  pack: Pack,
  name: string,
  data: Buffer | Readable,
  size?: number,
  pax?: Record<string, string>,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const length = Buffer.isBuffer(data) ? data.length : size;
    const header = { name, size: length, mtime: new Date(), mode: 0o600, ...(pax ? { pax } : {}) };
    const sink = pack.entry(header, (err) => (err ? reject(err) : resolve()));
    if (Buffer.isBuffer(data)) {
      sink.end(data);
      return;
    }
    data.once('error', (err) => {
      sink.destroy(err);
      reject(err);
    });
    data.pipe(sink as unknown as Writable);
  });
}
