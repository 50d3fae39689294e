/**
 * Each passage's length in characters as a stored column (issue 30 §3: retrieval < 20 ms p95 at
 * 10,000 passages per bot). BM25 normalises a passage's score by its length; computed as
 * `length(text)` it read every candidate's text (out of line for the longer ones), a third of the
 * search's time at 10,000 passages (bench/knowledge.ts). Generated, so no writer can forget it.
 *
 * Adding a stored column rewrites the table (and rebuilds its indexes) under an exclusive lock: the
 * full-text GIN, which the next migration replaces anyway, is dropped first so the rewrite does not
 * build it (about a second per 10,000 passages; the files' search waits meanwhile).
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `DROP INDEX chatbot_file_passages_tsv;
    ALTER TABLE chatbot_file_passages ADD COLUMN chars integer GENERATED ALWAYS AS (length(text)) STORED;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `ALTER TABLE chatbot_file_passages DROP COLUMN chars;
    CREATE INDEX chatbot_file_passages_tsv ON chatbot_file_passages USING gin (tsv) WITH (fastupdate = off);`,
  );
}
