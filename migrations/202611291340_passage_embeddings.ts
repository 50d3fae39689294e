/**
 * Optional embeddings of the files' passages (issue 30 §2), one per passage, written by the
 * `knowledge.embed-file` job when an embeddings server is configured (engine/knowledge/embeddings.ts).
 *
 * - `embedding real[]`: unit-length vector as the server returned it (normalised); works on every
 *   PostgreSQL. Where pgvector is available, a generated `vec vector` column is added at start
 *   (engine/knowledge/pgvector.ts), not by a migration: an operator may install the extension later.
 * - `model`: the model that made it; a passage is embedded again when the configured model changes.
 * - Goes with its passage (ON DELETE CASCADE), so with its file and its bot; a re-indexed file's
 *   passages are new rows, embedded again.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `CREATE TABLE chatbot_file_passage_embeddings (
      passage_id bigint PRIMARY KEY REFERENCES chatbot_file_passages(id) ON DELETE CASCADE,
      chatbot_id text NOT NULL,
      model text NOT NULL,
      embedding real[] NOT NULL
    );
    CREATE INDEX chatbot_file_passage_embeddings_bot ON chatbot_file_passage_embeddings (chatbot_id);`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'DROP TABLE chatbot_file_passage_embeddings;');
}
