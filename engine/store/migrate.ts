/**
 * Applies Charla's migrations (migrations/index.ts) with Kysely's Migrator. A second run finds
 * nothing to do; a failing migration is rolled back and reported.
 */
import { type Kysely, sql } from 'kysely';
import { type Migration, type MigrationResult, Migrator } from 'kysely/migration';
import { migrations } from '../../migrations/index.ts';
import type { Database } from './database.ts';

/** A migration table and the migrations that should be recorded in it. */
interface MigrationSet {
  table: string;
  names: string[];
}

/**
 * One-query fast path for the common start (issue 25: startup does only what answering needs):
 * every migration table, Charla's and each plugin's, holds exactly its known migrations, newest
 * included. Any doubt (a table missing, another schema, an unknown name) falls through to the
 * Migrators, which do the real work.
 */
async function allUpToDate(db: Kysely<Database>, sets: MigrationSet[], schema?: string): Promise<boolean> {
  const wanted = sets.filter((set) => set.names.length > 0);
  if (wanted.length === 0) return true;
  try {
    const parts = wanted.map(
      (set, i) =>
        sql`select ${i}::int as i, count(*)::int as n, max(name) as newest from ${sql.raw(
          schema ? `"${schema}"."${set.table}"` : `"${set.table}"`,
        )}`,
    );
    const { rows } = await sql<{ i: number; n: number; newest: string | null }>`${sql.join(
      parts,
      sql` union all `,
    )}`.execute(db);
    return wanted.every((set, i) => {
      const row = rows.find((r) => Number(r.i) === i);
      const names = [...set.names].sort();
      return row?.newest === names.at(-1) && Number(row?.n) === names.length;
    });
  } catch {
    return false;
  }
}

async function isUpToDate(db: Kysely<Database>, schema?: string): Promise<boolean> {
  return allUpToDate(db, [{ table: 'kysely_migration', names: Object.keys(migrations) }], schema);
}

/**
 * True when Charla's migrations (unless `core` is false) and every plugin's are all applied, in one
 * query: what a start on an existing database checks before doing anything else.
 */
export async function migrationsCurrent(
  db: Kysely<Database>,
  plugins: ReadonlyArray<PluginMigrations>,
  options: { core?: boolean; schema?: string | undefined } = {},
): Promise<boolean> {
  return allUpToDate(
    db,
    [
      ...(options.core === false ? [] : [{ table: 'kysely_migration', names: Object.keys(migrations) }]),
      ...plugins.map((p) => ({ table: pluginMigrationTable(p.id), names: Object.keys(p.migrations) })),
    ],
    options.schema,
  );
}

/** Result of {@link migrateToLatest}: the migrations applied now (empty when up to date). */
export interface MigrateOutcome {
  applied: string[];
}

/**
 * Brings the schema to the latest migration.
 * @param onStep called before and after each migration runs, for progress output.
 * @throws Error with the failing migration's name and cause when one fails.
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  onStep?: (result: MigrationResult) => void,
  schema?: string,
): Promise<MigrateOutcome> {
  if (await isUpToDate(db, schema)) return { applied: [] };
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) onStep?.(r);
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(failed ? `migration ${failed} failed: ${cause}` : `migrations failed: ${cause}`, {
      cause: error,
    });
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}

/** A plugin's migrations, as the registry lists them (`Registry.migrations()`). */
export interface PluginMigrations {
  id: string;
  migrations: Record<string, Migration>;
}

/** The migration table of a plugin: `charla_plugin_<id>_migrations` (id reduced to `[a-z0-9_]`). */
export function pluginMigrationTable(id: string): string {
  return `charla_plugin_${id.toLowerCase().replace(/[^a-z0-9_]/g, '_')}_migrations`;
}

/**
 * Brings each plugin's own tables to its latest migration (DESIGN.md: a plugin brings its own
 * migrations, run by its own Migrator and migration table), in the order given (dependencies
 * first). Run after Charla's own migrations.
 * @returns the migrations applied now, as `<plugin id>/<migration name>`.
 * @throws Error naming the plugin and the failing migration.
 */
export async function migratePlugins(
  db: Kysely<Database>,
  plugins: ReadonlyArray<PluginMigrations>,
  onStep?: (result: MigrationResult & { plugin: string }) => void,
  schema?: string,
): Promise<MigrateOutcome> {
  const applied: string[] = [];
  for (const plugin of plugins) {
    const table = pluginMigrationTable(plugin.id);
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => plugin.migrations },
      migrationTableName: table,
      migrationLockTableName: `${table}_lock`,
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const { error, results } = await migrator.migrateToLatest();
    for (const r of results ?? []) onStep?.({ ...r, plugin: plugin.id });
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName;
      const cause = error instanceof Error ? error.message : String(error);
      throw new Error(
        `plugin ${plugin.id}: ${failed ? `migration ${failed} failed` : 'migrations failed'}: ${cause}`,
        { cause: error },
      );
    }
    for (const r of results ?? [])
      if (r.status === 'Success') applied.push(`${plugin.id}/${r.migrationName}`);
  }
  return { applied };
}

/**
 * What a start does with the schema: one query tells an up-to-date database (the usual start);
 * otherwise Charla's migrations, then each plugin's (issue 25: not a Migrator per plugin on every
 * start).
 * @param plugins every plugin's migrations in dependency order (Registry `migrations()`).
 * @param options `core: false` skips Charla's own (the store is already migrated); `schema` is the
 *   store's schema.
 * @returns the names of the migrations applied (empty when the database was current).
 * @throws Error naming the failing migration.
 */
export async function migrateIfNeeded(
  db: Kysely<Database>,
  plugins: Array<{ id: string; migrations: Record<string, Migration> }>,
  options: { core: boolean; schema: string },
): Promise<{ applied: string[] }> {
  if (await migrationsCurrent(db, plugins, options)) return { applied: [] };
  const core = options.core ? await migrateToLatest(db, undefined, options.schema) : { applied: [] };
  const own = await migratePlugins(db, plugins, undefined, options.schema);
  return { applied: [...core.applied, ...own.applied] };
}
