/**
 * Restores a backup archive (issue 26 §5; layout in ./format.ts) into an empty database and an
 * empty storage, on PGlite or PostgreSQL whichever wrote it:
 *
 * 1. refuses a target that has owners or stored objects ({@link RestoreRefused});
 * 2. migrates the database to the archive's level (./migrate.ts) and, when the archive has jobs,
 *    lets pg-boss create its schema;
 * 3. in ONE transaction: inserts the rows in the archive's order (parents first), pg-boss's
 *    queues and jobs, uploads the objects, checks the counts of `end.json` and puts the sequences
 *    back. Anything failing rolls the rows back and removes the objects already uploaded, so a
 *    failed restore leaves the target as empty as it found it;
 * 4. migrates to this Charla's latest level (an archive from an older version is upgraded).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import { extract as tarExtract } from 'tar-stream';
import { jobsSchemaOf } from '../jobs/boss-sql.ts';
import { secretFingerprint } from '../nodes.ts';
import type { Storage } from '../storage/index.ts';
import type { Store } from '../store/connect.ts';
import type { Database } from '../store/database.ts';
import { migrateIfNeeded, type PluginMigrations } from '../store/migrate.ts';
import {
  createJobQueue,
  insertJsonRows,
  jobsSchemaVersion,
  listTables,
  ownerCount,
  restoreSequence,
  type TableInfo,
  updateJobQueues,
} from '../store/queries/backup.ts';
import {
  BackupFormatError,
  CHUNK_BYTES,
  CONTENT_TYPE_PAX,
  FETCH_ROWS,
  MAX_CHUNK_BYTES,
  type Manifest,
  manifestSchema,
  parseChunkName,
  RestoreRefused,
  STORAGE_PREFIX,
  type Trailer,
  trailerSchema,
} from './format.ts';
import { migrateToArchive } from './migrate.ts';

/** What a restore needs: the open store and storage, and the plugins' migrations. */
export interface RestoreDeps {
  store: Pick<Store, 'db' | 'kind' | 'schema' | 'raw'>;
  storage: Storage;
  /** Every plugin's migrations in dependency order (`Registry.migrations()`). */
  plugins: ReadonlyArray<PluginMigrations>;
  /** Called for each object stored (progress output). */
  onObject?: (key: string, size: number) => void;
  /**
   * The target's instance secret (CHARLA_SECRET or an existing `<data dir>/secret`); it must be
   * the one the archive was made with, or the bots' stored tokens could not be decrypted.
   */
  secret?: string | undefined;
  /** Restore even without that secret (the bots' channel tokens must then be entered again). */
  ignoreSecret?: boolean;
}

/** What a restore did. */
export interface RestoreSummary {
  manifest: Manifest;
  trailer: Trailer;
  /** Migrations applied (to the archive's level, then to the latest), `<table>/<name>`. */
  migrated: string[];
  /**
   * True when the archive's pg-boss jobs were left out because its pg-boss schema version differs
   * from this Charla's (the rest is restored; plugins schedule their recurring jobs again at start).
   */
  jobsSkipped: boolean;
}

/**
 * Refuses a target that is not empty: owners in the database or objects in the storage.
 * @throws RestoreRefused saying which.
 */
export async function assertEmptyTarget(deps: Pick<RestoreDeps, 'store' | 'storage'>): Promise<void> {
  const owners = await ownerCount(deps.store.db, deps.store.schema);
  if (owners)
    throw new RestoreRefused(
      `the database already has ${owners} owner(s): restore only into a new, empty database`,
    );
  for await (const { key } of deps.storage.list())
    throw new RestoreRefused(
      `the file storage already has objects (${key}, …): restore only into an empty storage`,
    );
}

/**
 * Restores `input` (a gzip-compressed archive made by `writeBackup`) into the empty target.
 * @throws RestoreRefused (target not empty or ahead of the archive), BackupFormatError (not a
 *   Charla backup, cut, inconsistent, from a newer Charla), or the database's or storage's error.
 */
export async function restoreBackup(deps: RestoreDeps, input: Readable): Promise<RestoreSummary> {
  await assertEmptyTarget(deps);
  const extract = tarExtract();
  const reading = pipeline(input, createGunzip(), extract as unknown as NodeJS.WritableStream);
  reading.catch(() => {}); // awaited below
  const entries = (extract as AsyncIterable<Entry>)[Symbol.asyncIterator]();
  try {
    const first = await entries.next();
    if (first.done || first.value.header.name !== 'manifest.json')
      throw new BackupFormatError('this is not a Charla backup: it does not start with manifest.json');
    const parsed = manifestSchema.safeParse(JSON.parse((await readEntry(first.value, 16 << 20)).toString()));
    if (!parsed.success) throw new BackupFormatError('this is not a Charla backup: its manifest is invalid');
    const manifest = parsed.data;
    if (manifest.formatVersion !== 1)
      throw new BackupFormatError(`backup format ${manifest.formatVersion} is not supported by this Charla`);
    checkSecret(manifest, deps);
    const { db, schema } = deps.store;
    const migrated = await migrateToArchive(db, schema, deps.plugins, manifest.migrations);
    const jobsSchema = jobsSchemaOf(schema);
    let jobsSkipped = false;
    if (manifest.jobs) {
      if ((await jobsSchemaVersion(db, jobsSchema)) == null)
        await deps.store.raw.executeSql(PgBoss.getConstructionPlans(jobsSchema));
      jobsSkipped = (await jobsSchemaVersion(db, jobsSchema)) !== manifest.jobs.version;
    }
    const uploaded: string[] = [];
    let trailer: Trailer;
    try {
      trailer = await db.transaction().execute(async (tx) => {
        const target = {
          charla: new Map((await listTables(tx, schema)).map((t) => [t.name, t])),
          jobs: new Map(
            manifest.jobs && !jobsSkipped ? (await listTables(tx, jobsSchema)).map((t) => [t.name, t]) : [],
          ),
        };
        const counts: Trailer = { rows: {}, objects: 0, bytes: 0 };
        for (;;) {
          const next = await entries.next();
          if (next.done) throw new BackupFormatError('the archive is cut: it has no end.json');
          const entry = next.value;
          const name = entry.header.name;
          if (name === 'end.json') {
            const end = trailerSchema.safeParse(JSON.parse((await readEntry(entry, 16 << 20)).toString()));
            if (!end.success) throw new BackupFormatError('the archive’s end.json is invalid');
            checkCounts(end.data, counts);
            for (const seq of manifest.sequences)
              if (!seq.table || target.charla.has(seq.table)) await restoreSequence(tx, schema, seq);
            // The gzip stream's checksum is at its very end: read it before committing.
            await drain(entries);
            await reading;
            return end.data;
          }
          if (name.startsWith(STORAGE_PREFIX)) {
            const key = name.slice(STORAGE_PREFIX.length);
            const contentType = (entry.header.pax as Record<string, string> | null | undefined)?.[
              CONTENT_TYPE_PAX
            ];
            uploaded.push(key);
            await deps.storage.put(key, Readable.from(entry), contentType ? { contentType } : {});
            counts.objects++;
            counts.bytes += entry.header.size;
            deps.onObject?.(key, entry.header.size);
            continue;
          }
          const chunk = parseChunkName(name);
          if (!chunk) throw new BackupFormatError(`the archive has an unknown entry: ${name}`);
          const rows = (await readEntry(entry, MAX_CHUNK_BYTES)).toString().split('\n').filter(Boolean);
          const counted = `${chunk.group}/${chunk.table}`;
          counts.rows[counted] = (counts.rows[counted] ?? 0) + rows.length;
          if (chunk.group === 'jobs' && jobsSkipped) continue;
          const from = chunk.group === 'charla' ? manifest.tables : (manifest.jobs?.tables ?? []);
          const columns = insertColumns(chunk.table, from, target[chunk.group].get(chunk.table));
          const tableSchema = chunk.group === 'charla' ? schema : jobsSchema;
          await insertChunk(tx, tableSchema, chunk, columns, rows);
        }
      });
    } catch (err) {
      for (const key of uploaded) await deps.storage.remove(key).catch(() => {});
      throw err;
    }
    const latest = await migrateIfNeeded(db, [...deps.plugins], { core: true, schema });
    return { manifest, trailer, migrated: [...migrated, ...latest.applied], jobsSkipped };
  } catch (err) {
    extract.destroy();
    input.destroy();
    await reading.catch(() => {});
    if (damaged(err))
      throw new BackupFormatError(`the archive is damaged or not a Charla backup: ${err.message}`);
    throw err;
  }
}

/**
 * The archive's encrypted values need the secret it was made with (issue 24: tokens at rest).
 * @throws RestoreRefused when the target has no secret or another one, unless `ignoreSecret`.
 */
function checkSecret(manifest: Manifest, deps: Pick<RestoreDeps, 'secret' | 'ignoreSecret'>): void {
  if (!manifest.secretFingerprint || deps.ignoreSecret) return;
  if (!deps.secret)
    throw new RestoreRefused(
      'the archive’s bot tokens are encrypted with the secret of the install that made it: set CHARLA_SECRET to it (or copy its <data dir>/secret into this data dir) and restore again',
    );
  if (secretFingerprint(deps.secret) !== manifest.secretFingerprint)
    throw new RestoreRefused(
      'the archive was made with another secret: set CHARLA_SECRET to the one of the install that made it (or copy its <data dir>/secret) and restore again',
    );
}

/** True for the errors of reading a file that is not a whole gzip-compressed tar with JSON in it. */
function damaged(err: unknown): err is Error {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  return (
    err instanceof SyntaxError ||
    (typeof code === 'string' && code.startsWith('Z_')) ||
    /invalid tar header|unexpected end of data/i.test(err.message)
  );
}

/** A tar entry as tar-stream's extract yields it. */
type Entry = Readable & { header: { name: string; size: number; pax?: unknown } };

/** Reads a whole (small) entry. @throws BackupFormatError when it is larger than `max` bytes. */
async function readEntry(entry: Entry, max: number): Promise<Buffer> {
  if (entry.header.size > max)
    throw new BackupFormatError(
      `the archive entry ${entry.header.name} is too large (${entry.header.size} bytes)`,
    );
  const parts: Buffer[] = [];
  for await (const part of entry) parts.push(Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}

/** Reads whatever follows end.json (nothing in an archive made by Charla). */
async function drain(entries: AsyncIterator<Entry>): Promise<void> {
  for (let next = await entries.next(); !next.done; next = await entries.next()) next.value.resume();
}

/**
 * The columns a table's archived rows go into: the archive's, each of which must exist in the
 * target table (at the archive's migration level they all do).
 * @throws BackupFormatError when the table or a column is missing.
 */
function insertColumns(table: string, archived: Manifest['tables'], target: TableInfo | undefined): string[] {
  const columns = archived.find((t) => t.name === table)?.columns;
  if (!columns || !target) throw new BackupFormatError(`the archive has rows of an unknown table: ${table}`);
  const missing = columns.find((c) => !target.columns.includes(c));
  if (missing) throw new BackupFormatError(`the table ${table} has no column ${missing} here`);
  return columns;
}

/**
 * Inserts one chunk's rows in batches of at most {@link FETCH_ROWS} rows or ~{@link CHUNK_BYTES}.
 * pg-boss queues are made through its `create_queue` (which creates each queue's job partition)
 * and then given the archived settings; a pg-boss row already there (a schedule a start of Charla
 * stored before the restore) is kept.
 */
async function insertChunk(
  tx: Kysely<Database>,
  schema: string,
  chunk: { group: 'charla' | 'jobs'; table: string },
  columns: string[],
  rows: string[],
): Promise<void> {
  if (chunk.group === 'jobs' && chunk.table === 'queue') {
    for (const row of rows) await createJobQueue(tx, schema, (JSON.parse(row) as { name: string }).name);
    await updateJobQueues(tx, schema, rows);
    return;
  }
  let batch: string[] = [];
  let bytes = 0;
  for (const row of rows) {
    batch.push(row);
    bytes += row.length;
    if (batch.length >= FETCH_ROWS || bytes >= CHUNK_BYTES) {
      await insertJsonRows(tx, schema, chunk.table, columns, batch, chunk.group === 'jobs');
      batch = [];
      bytes = 0;
    }
  }
  await insertJsonRows(tx, schema, chunk.table, columns, batch, chunk.group === 'jobs');
}

/**
 * Compares what was read with the archive's own counts.
 * @throws BackupFormatError on any difference (a damaged or tampered archive).
 */
function checkCounts(end: Trailer, read: Trailer): void {
  for (const [table, n] of Object.entries(end.rows))
    if ((read.rows[table] ?? 0) !== n)
      throw new BackupFormatError(
        `the archive is incomplete: ${table} has ${read.rows[table] ?? 0} of ${n} rows`,
      );
  if (read.objects !== end.objects || read.bytes !== end.bytes)
    throw new BackupFormatError(
      `the archive is incomplete: ${read.objects} of ${end.objects} files (${read.bytes} of ${end.bytes} bytes)`,
    );
}
