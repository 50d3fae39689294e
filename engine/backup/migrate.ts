/**
 * Brings an empty database to the migration level an archive was made at (issue 26 §5): its rows
 * have that level's shape, so they go in there, and the migrations after it (data migrations
 * included) run on them afterwards, as on any upgrade.
 */
import type { Kysely } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import { migrations as coreMigrations } from '../../migrations/index.ts';
import type { Database } from '../store/database.ts';
import { type PluginMigrations, pluginMigrationTable } from '../store/migrate.ts';
import { appliedMigrations } from '../store/queries/backup.ts';
import { BackupFormatError, RestoreRefused } from './format.ts';

/** Charla's own migration table. */
const CORE_TABLE = 'kysely_migration';

/**
 * Applies, for Charla and each plugin, exactly the migrations the archive lists (`migrations` of
 * its manifest, by migration table).
 * @returns the migrations applied now, as `<table>/<name>`.
 * @throws BackupFormatError when the archive names a migration or a plugin this Charla does not
 *   have (it was made by a newer version: upgrade first);
 *   RestoreRefused when the database already has a migration the archive does not.
 */
export async function migrateToArchive(
  db: Kysely<Database>,
  schema: string,
  plugins: ReadonlyArray<PluginMigrations>,
  archive: Readonly<Record<string, readonly string[]>>,
): Promise<string[]> {
  const sets: Array<{ table: string; lock: string; migrations: Record<string, Migration> }> = [
    { table: CORE_TABLE, lock: `${CORE_TABLE}_lock`, migrations: coreMigrations },
    ...plugins.map((p) => {
      const table = pluginMigrationTable(p.id);
      return { table, lock: `${table}_lock`, migrations: p.migrations };
    }),
  ];
  for (const table of Object.keys(archive))
    if (!sets.some((s) => s.table === table))
      throw new BackupFormatError(
        `the archive has migrations of ${table}, which this Charla does not have: restore it with the Charla version that made it (or newer)`,
      );
  const applied: string[] = [];
  for (const set of sets) {
    const wanted = [...(archive[set.table] ?? [])].sort();
    const unknown = wanted.find((name) => !(name in set.migrations));
    if (unknown)
      throw new BackupFormatError(
        `the archive was made by a newer Charla (migration ${unknown} is unknown here): upgrade Charla, then restore`,
      );
    const current = await appliedMigrations(db, schema, set.table);
    const ahead = current.find((name) => !wanted.includes(name));
    if (ahead)
      throw new RestoreRefused(
        `the database already has migration ${ahead}, which the archive does not: restore into a new, empty database`,
      );
    const target = wanted.at(-1);
    if (!target || current.length === wanted.length) continue;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => set.migrations },
      migrationTableName: set.table,
      migrationLockTableName: set.lock,
      migrationTableSchema: schema,
    });
    const { error, results } = await migrator.migrateTo(target);
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName;
      const cause = error instanceof Error ? error.message : String(error);
      throw new Error(`migration ${failed ?? set.table} failed: ${cause}`, { cause: error });
    }
    for (const r of results ?? [])
      if (r.status === 'Success') applied.push(`${set.table}/${r.migrationName}`);
  }
  return applied;
}
