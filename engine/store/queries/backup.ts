/**
 * The SQL of `charla backup` and `charla restore` (issue 26 §5, engine/backup/): the catalog reads
 * that list a schema's tables in foreign-key order, a cursor that reads a table as JSON rows inside
 * the export's snapshot, the inserts that put them back, sequences, and pg-boss's queues and jobs.
 * Rows travel as `row_to_json` text and come back through `json_populate_recordset`, so every
 * column type (timestamps, bytea, jsonb, arrays, ranges) round-trips through PostgreSQL's own text
 * forms, identically on PGlite and PostgreSQL.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../database.ts';

/** A table as the catalog describes it. */
export interface TableInfo {
  name: string;
  /** Columns that take a value on insert (generated columns left out), in table order. */
  columns: string[];
  /** Primary key columns (the export's order), empty when there is none. */
  primaryKey: string[];
}

/** A sequence and where it stood in the snapshot. */
export interface SequenceState {
  /** The sequence's own name. */
  name: string;
  /** The table and column that own it (identity or serial), when one does. */
  table: string | null;
  column: string | null;
  /** Its last value; null when never used. */
  lastValue: number | null;
}

/** True when `schema.table` exists. */
export async function tableExists(db: Kysely<Database>, schema: string, table: string): Promise<boolean> {
  const { rows } = await sql<{ found: string | null }>`
    SELECT to_regclass(${`${quoteIdent(schema)}.${quoteIdent(table)}`})::text AS found`.execute(db);
  return rows[0]?.found != null;
}

/** `"name"` with inner quotes doubled, for to_regclass's text argument. */
function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Number of owner accounts (null when the `owners` table does not exist yet: a new database). */
export async function ownerCount(db: Kysely<Database>, schema: string): Promise<number | null> {
  if (!(await tableExists(db, schema, 'owners'))) return null;
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM ${sql.id(schema, 'owners')}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The ordinary and partitioned tables of `schema` (partitions left out: their parent reads them),
 * with their insertable columns and primary keys, parents before the tables that reference them
 * (a cycle, if one ever appears, keeps the remaining tables in name order).
 */
export async function listTables(db: Kysely<Database>, schema: string): Promise<TableInfo[]> {
  const { rows: cols } = await sql<{ table: string; column: string; pk: boolean }>`
    SELECT c.relname AS "table", a.attname AS "column",
      coalesce(a.attnum = ANY (i.indkey), false) AS pk
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
    WHERE n.nspname = ${schema} AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      AND a.attgenerated = ''
    ORDER BY c.relname, a.attnum`.execute(db);
  const { rows: fks } = await sql<{ child: string; parent: string }>`
    SELECT DISTINCT ch.relname AS child, pa.relname AS parent
    FROM pg_constraint k
    JOIN pg_class ch ON ch.oid = k.conrelid
    JOIN pg_class pa ON pa.oid = k.confrelid
    JOIN pg_namespace n ON n.oid = ch.relnamespace
    WHERE k.contype = 'f' AND n.nspname = ${schema} AND pa.relnamespace = ch.relnamespace`.execute(db);
  const tables = new Map<string, TableInfo>();
  for (const r of cols) {
    const t = tables.get(r.table) ?? { name: r.table, columns: [], primaryKey: [] };
    t.columns.push(r.column);
    if (r.pk) t.primaryKey.push(r.column);
    tables.set(r.table, t);
  }
  const parents = new Map<string, Set<string>>();
  for (const { child, parent } of fks)
    if (child !== parent) parents.set(child, (parents.get(child) ?? new Set()).add(parent));
  const ordered: TableInfo[] = [];
  const done = new Set<string>();
  const visit = (name: string, path: Set<string>) => {
    if (done.has(name) || path.has(name) || !tables.has(name)) return;
    path.add(name);
    for (const p of [...(parents.get(name) ?? [])].sort()) visit(p, path);
    path.delete(name);
    done.add(name);
    ordered.push(tables.get(name)!);
  };
  for (const name of [...tables.keys()].sort()) visit(name, new Set());
  return ordered;
}

/** The migration names recorded in a Kysely migration table, oldest first. */
export async function appliedMigrations(
  db: Kysely<Database>,
  schema: string,
  table: string,
): Promise<string[]> {
  if (!(await tableExists(db, schema, table))) return [];
  const { rows } = await sql<{ name: string }>`
    SELECT name FROM ${sql.id(schema, table)} ORDER BY name`.execute(db);
  return rows.map((r) => r.name);
}

/** Every sequence of `schema` with the table column that owns it and its last value. */
export async function listSequences(db: Kysely<Database>, schema: string): Promise<SequenceState[]> {
  const { rows } = await sql<{
    name: string;
    table: string | null;
    column: string | null;
    last_value: number | string | null;
  }>`
    SELECT s.sequencename AS name, t.relname AS "table", a.attname AS "column", s.last_value
    FROM pg_sequences s
    JOIN pg_namespace n ON n.nspname = s.schemaname
    JOIN pg_class q ON q.relname = s.sequencename AND q.relnamespace = n.oid
    LEFT JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = q.oid
      AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
    LEFT JOIN pg_class t ON t.oid = d.refobjid
    LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
    WHERE s.schemaname = ${schema}
    ORDER BY s.sequencename`.execute(db);
  return rows.map((r) => ({
    name: r.name,
    table: r.table,
    column: r.column,
    lastValue: r.last_value == null ? null : Number(r.last_value),
  }));
}

/**
 * Makes the transaction a read-only REPEATABLE READ snapshot: every later read sees the database
 * as of its first query. Must be the first statement of the transaction.
 */
export async function snapshotTransaction(db: Kysely<Database>): Promise<void> {
  await sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`.execute(db);
}

/** Name of the export's one cursor (open one table at a time). */
const CURSOR = 'charla_backup_rows';

/**
 * Opens the export cursor over `schema.table` (inside a transaction), rows as JSON text in
 * primary-key order (parents before children within a self-referencing table such as
 * conversation_messages, whose replies point at earlier ids).
 */
export async function openRowCursor(
  db: Kysely<Database>,
  schema: string,
  table: string,
  orderBy: readonly string[],
): Promise<void> {
  const order = orderBy.length > 0 ? sql` ORDER BY ${sql.join(orderBy.map((c) => sql.id('t', c)))}` : sql``;
  await sql`DECLARE ${sql.raw(CURSOR)} NO SCROLL CURSOR FOR
    SELECT row_to_json(t)::text AS j FROM ${sql.id(schema, table)} AS t${order}`.execute(db);
}

/** The next `count` rows of the open cursor as JSON texts (empty at the end). */
export async function fetchRows(db: Kysely<Database>, count: number): Promise<string[]> {
  const { rows } = await sql<{
    j: string;
  }>`FETCH FORWARD ${sql.raw(String(Math.trunc(count)))} FROM ${sql.raw(CURSOR)}`.execute(db);
  return rows.map((r) => r.j);
}

/** Closes the export cursor. */
export async function closeRowCursor(db: Kysely<Database>): Promise<void> {
  await sql`CLOSE ${sql.raw(CURSOR)}`.execute(db);
}

/**
 * Inserts rows given as JSON object texts into `schema.table`, setting only `columns` (values of
 * identity columns are kept: OVERRIDING SYSTEM VALUE).
 * @param keepExisting a row whose key is already there is skipped (ON CONFLICT DO NOTHING).
 * @returns the number of rows inserted.
 */
export async function insertJsonRows(
  db: Kysely<Database>,
  schema: string,
  table: string,
  columns: readonly string[],
  rows: readonly string[],
  keepExisting = false,
): Promise<number> {
  if (rows.length === 0 || columns.length === 0) return 0;
  const list = sql.join(columns.map((c) => sql.id(c)));
  const result = await sql`
    INSERT INTO ${sql.id(schema, table)} (${list}) OVERRIDING SYSTEM VALUE
    SELECT ${list} FROM json_populate_recordset(null::${sql.id(schema, table)}, ${`[${rows.join(',')}]`}::json)
    ${keepExisting ? sql`ON CONFLICT DO NOTHING` : sql``}`.execute(db);
  return Number(result.numAffectedRows ?? rows.length);
}

/**
 * Puts a sequence where the archive had it: by the table column that owns it when known (its
 * name may differ between databases), else by name. A sequence that was never used is left alone.
 */
export async function restoreSequence(
  db: Kysely<Database>,
  schema: string,
  seq: SequenceState,
): Promise<void> {
  if (seq.lastValue == null) return;
  const target =
    seq.table && seq.column
      ? sql`pg_get_serial_sequence(${`${quoteIdent(schema)}.${quoteIdent(seq.table)}`}, ${seq.column})`
      : sql`${`${quoteIdent(schema)}.${quoteIdent(seq.name)}`}`;
  await sql`SELECT setval(${target}::regclass, ${seq.lastValue}::bigint, true)`.execute(db);
}

/** pg-boss's schema version (its `version` table), null when pg-boss has no schema there yet. */
export async function jobsSchemaVersion(db: Kysely<Database>, jobsSchema: string): Promise<number | null> {
  if (!(await tableExists(db, jobsSchema, 'version'))) return null;
  const { rows } = await sql<{ version: number }>`
    SELECT version FROM ${sql.id(jobsSchema, 'version')} LIMIT 1`.execute(db);
  return rows[0] ? Number(rows[0].version) : null;
}

/**
 * Creates a pg-boss queue with its partition of the job table through pg-boss's own function
 * (`create_queue`; an existing queue is left as it is). The stored row is then overwritten with
 * the archive's by {@link updateJobQueues}.
 */
export async function createJobQueue(db: Kysely<Database>, jobsSchema: string, name: string): Promise<void> {
  await sql`SELECT ${sql.id(jobsSchema, 'create_queue')}(${name}, ${JSON.stringify({ policy: 'standard' })}::json)`.execute(
    db,
  );
}

/** Sets pg-boss queue rows (options, dead letter, dates) to the archive's, by name. */
export async function updateJobQueues(
  db: Kysely<Database>,
  jobsSchema: string,
  rows: readonly string[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    UPDATE ${sql.id(jobsSchema, 'queue')} AS q SET
      policy = a.policy, retry_limit = a.retry_limit, retry_delay = a.retry_delay,
      retry_backoff = a.retry_backoff, expire_seconds = a.expire_seconds,
      retention_minutes = a.retention_minutes, dead_letter = a.dead_letter,
      created_on = a.created_on, updated_on = a.updated_on
    FROM json_populate_recordset(null::${sql.id(jobsSchema, 'queue')}, ${`[${rows.join(',')}]`}::json) AS a
    WHERE q.name = a.name`.execute(db);
}
