/**
 * Applies Charla's migrations (migrations/index.ts) with Kysely's Migrator. A second run finds
 * nothing to do; a failing migration is rolled back and reported.
 */
import { type Kysely, sql } from 'kysely';
import { type Migration, type MigrationResult, Migrator } from 'kysely/migration';
import { migrations } from '../../migrations/index.ts';
import type { Database } from './database.ts';

/**
 * One-query fast path for the common start: the newest applied migration is the newest known one.
 * Any doubt (no table yet, another schema) falls through to the Migrator.
 */
async function isUpToDate(db: Kysely<Database>, schema?: string): Promise<boolean> {
  const names = Object.keys(migrations).sort();
  const latest = names.at(-1);
  if (!latest) return true;
  try {
    const table = schema ? `"${schema}".kysely_migration` : 'kysely_migration';
    const { rows } = await sql<{
      n: number;
      newest: string | null;
    }>`select count(*)::int as n, max(name) as newest from ${sql.raw(table)}`.execute(db);
    return rows[0]?.newest === latest && rows[0]?.n === names.length;
  } catch {
    return false;
  }
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
