/**
 * The shape the plugins' migrations share (docs/plugins.md: a plugin's tables are its own): SQL
 * statements to apply and SQL statements to undo them. Part of the plugin kit: any plugin may import it.
 */
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Runs statements one at a time (PGlite's extended protocol takes one per query). */
async function run(db: Kysely<unknown>, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** A migration that runs the `up` statements in order, and the `down` ones to undo them. */
export function sqlMigration(steps: { up: readonly string[]; down: readonly string[] }): Migration {
  return {
    up: (db) => run(db, steps.up),
    down: (db) => run(db, steps.down),
  };
}
