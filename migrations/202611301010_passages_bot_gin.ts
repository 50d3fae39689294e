/**
 * One full-text index per bot's passages (issue 30 §3: retrieval < 20 ms p95 at 10,000 passages per
 * bot): a GIN over `(chatbot_id, tsv)` (btree_gin, a contrib extension of PostgreSQL that PGlite
 * ships, like btree_gist for reservations) replaces the GIN over `tsv` (dropped by the previous
 * migration) and the B-tree over `chatbot_id`.
 *
 * With two indexes the planner had to guess how many of a bot's passages a tsquery matches; a
 * question of common words matched a few thousand where it guessed a few hundred, and it then read
 * all the bot's passages through the B-tree and tested each (28 ms instead of 15 at 10,000
 * passages, seen with auto_explain on the bench's database). With one index holding both
 * conditions there is nothing to guess: every search reads the bot's matching passages only, and
 * the index still serves the bot alone (its passages' count, their deletion with the bot).
 */
import { type Kysely, sql } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Once per database, in `public` (the operator classes are found from any schema), unless a
  // superuser installed it already; a race between two migrating processes is ignored, as for
  // btree_gist. A role that may not create it is told what to run. One statement (a DO block).
  await sql
    .raw(
      `DO $$ BEGIN
         IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'btree_gin') THEN
           CREATE EXTENSION IF NOT EXISTS btree_gin WITH SCHEMA public;
         END IF;
       EXCEPTION
         WHEN unique_violation OR duplicate_object THEN NULL;
         WHEN insufficient_privilege THEN
           RAISE EXCEPTION 'Charla needs the btree_gin extension: run CREATE EXTENSION btree_gin; as a superuser in this database, then start again';
       END $$`,
    )
    .execute(db);
  await runScript(
    db,
    `CREATE INDEX chatbot_file_passages_bot_tsv ON chatbot_file_passages
      USING gin (chatbot_id, tsv) WITH (fastupdate = off);
    DROP INDEX chatbot_file_passages_bot;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `CREATE INDEX chatbot_file_passages_bot ON chatbot_file_passages (chatbot_id);
    DROP INDEX chatbot_file_passages_bot_tsv;`,
  );
}
