/**
 * The full-text index of the files' passages without GIN's pending list (issue 30 §3: retrieval
 * < 20 ms p95 at 10,000 passages per bot). With `fastupdate` on, new passages wait in an unsorted
 * list that every search scans until a VACUUM merges it; PGlite runs no autovacuum, so after
 * indexing a few files a search took ~80 ms instead of < 1 ms (bench/knowledge.ts). Indexing is
 * a background job, so paying the merge at insert time costs no one a wait.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER INDEX chatbot_file_passages_tsv SET (fastupdate = off);');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER INDEX chatbot_file_passages_tsv RESET (fastupdate);');
}
