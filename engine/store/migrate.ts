/**
 * Applies Charla's migrations (migrations/index.ts) with Kysely's Migrator. A second run finds
 * nothing to do; a failing migration is rolled back and reported.
 */
import type { Kysely } from 'kysely';
import { type MigrationResult, Migrator } from 'kysely/migration';
import { migrations } from '../../migrations/index.ts';
import type { Database } from './database.ts';

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
