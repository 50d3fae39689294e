/**
 * The backup archive's layout (issue 26 §5): a gzip-compressed tar whose entries come in this
 * order, so it can be written and read as a stream:
 *
 * 1. `manifest.json`: {@link Manifest} (Charla version, migrations applied, creation time, database
 *    kind, the tables with their columns, sequences, pg-boss's schema version).
 * 2. `db/charla/<table>/<n>.ndjson`: the rows of each table of Charla's schema, parents before the
 *    tables that reference them, one JSON object per line (`row_to_json`), in chunks of about
 *    {@link CHUNK_BYTES} so that no table is ever held whole in memory.
 * 3. `db/jobs/<table>/<n>.ndjson`: pg-boss's `queue`, `schedule`, `subscription` and `job` rows,
 *    so scheduled work survives a restore: reservation reminders and hold expiries, broadcasts,
 *    retries, and the finished jobs that keep a job key from being sent twice. A job running at the
 *    snapshot comes back running and is retried when its lease ends (handlers are idempotent).
 *    pg-boss's `archive` (old finished jobs, history only) and `version` are left out.
 * 4. `storage/<key>`: every stored object, byte for byte, under its storage key.
 * 5. `end.json`: {@link Trailer}, the counts, which a restore checks before it commits (a cut
 *    archive is refused).
 */
import { z } from 'zod';

/** `format` of every manifest. */
export const FORMAT = 'charla-backup';
/** This layout's version; a restore refuses another. */
export const FORMAT_VERSION = 1;
/** Size at which a table's NDJSON chunk is closed, bytes (a chunk may exceed it by one row). */
export const CHUNK_BYTES = 1 << 20;
/** Rows read per FETCH of the export cursor. */
export const FETCH_ROWS = 500;
/** Largest NDJSON chunk a restore reads into memory, bytes (an honest archive's are ~1 MiB). */
export const MAX_CHUNK_BYTES = 256 << 20;

/**
 * Tables of Charla's schema that are not backed up: the migration tables (the manifest lists
 * their names, and a restore rebuilds them by migrating) and state that only means something to
 * the processes running now: leases, the node list and rate-limit windows.
 */
export function skippedTable(name: string): boolean {
  return (
    name.startsWith('kysely_migration') ||
    /^charla_plugin_.+_migrations(_lock)?$/.test(name) ||
    name === 'leases' ||
    name === 'nodes' ||
    name === 'rate_limits'
  );
}

/** pg-boss tables that are backed up, in insert order (`queue` first: the others reference it). */
export const JOB_TABLES = ['queue', 'schedule', 'subscription', 'job'] as const;

const table = z.object({
  name: z.string().min(1),
  columns: z.array(z.string().min(1)),
  /** Primary key columns: the rows' order in the archive. */
  primaryKey: z.array(z.string()).default([]),
});

const sequence = z.object({
  name: z.string().min(1),
  table: z.string().nullable(),
  column: z.string().nullable(),
  lastValue: z.number().nullable(),
});

/** What `manifest.json` holds (read back with this schema: an archive is outside input). */
export const manifestSchema = z.object({
  format: z.literal(FORMAT),
  formatVersion: z.number().int(),
  /** The Charla version that wrote it. */
  charlaVersion: z.string(),
  /** ISO time of the snapshot. */
  createdAt: z.string(),
  /** Where it was taken: `pglite` or `postgres` (an archive restores onto either). */
  database: z.enum(['pglite', 'postgres']),
  /** Applied migration names by migration table (`kysely_migration`, `charla_plugin_<id>_migrations`). */
  migrations: z.record(z.string(), z.array(z.string())),
  /**
   * Fingerprint of the instance secret (engine/nodes.ts `secretFingerprint`) the stored bot tokens
   * are encrypted with; the secret itself is never in the archive.
   */
  secretFingerprint: z.string().nullable().default(null),
  /** Charla's tables in insert order, with the columns their rows carry. */
  tables: z.array(table),
  sequences: z.array(sequence),
  /** pg-boss's schema version and tables, null when it had no schema yet. */
  jobs: z.object({ version: z.number().int(), tables: z.array(table) }).nullable(),
});

/** The manifest of an archive. */
export type Manifest = z.infer<typeof manifestSchema>;

/** What `end.json` holds: what was written, checked by the restore. */
export const trailerSchema = z.object({
  /** Rows per table, `charla/<table>` or `jobs/<table>`. */
  rows: z.record(z.string(), z.number().int()),
  /** Stored objects and their bytes. */
  objects: z.number().int(),
  bytes: z.number(),
});

/** The trailer of an archive. */
export type Trailer = z.infer<typeof trailerSchema>;

/** Entry name of a table's `n`th chunk (1-based). */
export function chunkName(group: 'charla' | 'jobs', tableName: string, n: number): string {
  return `db/${group}/${tableName}/${String(n).padStart(6, '0')}.ndjson`;
}

/** Parses a chunk entry's name; null for any other entry. */
export function parseChunkName(name: string): { group: 'charla' | 'jobs'; table: string } | null {
  const m = /^db\/(charla|jobs)\/([^/]+)\/\d+\.ndjson$/.exec(name);
  return m ? { group: m[1] as 'charla' | 'jobs', table: m[2]! } : null;
}

/** Extended (pax) header record of a stored object's entry that carries its content type. */
export const CONTENT_TYPE_PAX = 'CHARLA.content_type';

/** Prefix of the stored objects' entries. */
export const STORAGE_PREFIX = 'storage/';

/** The name `charla backup` gives an archive made at `now`: `charla-backup-20261126T0830Z.tar.gz`. */
export function defaultArchiveName(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `charla-backup-${stamp}.tar.gz`;
}

/** An archive that cannot be restored (not a Charla backup, cut, from a newer Charla, …). */
export class BackupFormatError extends Error {
  override name = 'BackupFormatError';
}

/** The target of a restore is not empty, or is at a newer migration level than the archive. */
export class RestoreRefused extends Error {
  override name = 'RestoreRefused';
}
