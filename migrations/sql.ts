/** Shared by the migrations: runs a script of `;`-terminated statements one at a time (PGlite's extended protocol takes one per query). */
import { type Kysely, sql } from 'kysely';

export async function runScript(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of script
    .split(/;\s*\n/)
    .map((s) => s.trim())
    .filter(Boolean)) {
    await sql.raw(statement.replace(/;$/, '')).execute(db);
  }
}
