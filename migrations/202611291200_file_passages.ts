/**
 * What is written inside the owner's files (issue 30): the text read from each file, per page, and
 * the passages the bot searches at each turn.
 *
 * - `chatbot_file_texts`: one row per file, the reading's state (`pending`, `reading`, `ready`,
 *   `no_text` for a PDF without a text layer, `unsupported`, `failed`, `too_large`), its progress in
 *   pages, its size in characters, an error code (never a message: shown in the owner's language),
 *   and when the owner last corrected it.
 * - `chatbot_file_pages`: the text of each page (1-based; a transcript or a text file is page 1),
 *   as read or as the owner corrected it.
 * - `chatbot_file_passages`: the searchable passages (by page and heading, with overlap), with their
 *   PostgreSQL full-text vector built with the bot's language configuration (`regconfig` name, e.g.
 *   `spanish`; `simple` for Hindi) when indexed.
 *
 * Everything goes with its file and its bot (ON DELETE CASCADE).
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `CREATE TABLE chatbot_file_texts (
      file_id text PRIMARY KEY REFERENCES chatbot_files(id) ON DELETE CASCADE,
      chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
      state text NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'reading', 'ready', 'no_text', 'unsupported', 'failed', 'too_large')),
      pages_done integer NOT NULL DEFAULT 0,
      pages_total integer,
      chars integer NOT NULL DEFAULT 0,
      error_code text,
      edited_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX chatbot_file_texts_bot ON chatbot_file_texts (chatbot_id);

    CREATE TABLE chatbot_file_pages (
      file_id text NOT NULL REFERENCES chatbot_files(id) ON DELETE CASCADE,
      page integer NOT NULL CHECK (page >= 1),
      text text NOT NULL,
      PRIMARY KEY (file_id, page)
    );

    CREATE TABLE chatbot_file_passages (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
      file_id text NOT NULL REFERENCES chatbot_files(id) ON DELETE CASCADE,
      page integer,
      position integer NOT NULL,
      heading text NOT NULL DEFAULT '',
      text text NOT NULL,
      lang_config text NOT NULL,
      tsv tsvector NOT NULL
    );
    CREATE INDEX chatbot_file_passages_file ON chatbot_file_passages (file_id, position);
    CREATE INDEX chatbot_file_passages_bot ON chatbot_file_passages (chatbot_id);
    CREATE INDEX chatbot_file_passages_tsv ON chatbot_file_passages USING gin (tsv);`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    'DROP TABLE chatbot_file_passages; DROP TABLE chatbot_file_pages; DROP TABLE chatbot_file_texts;',
  );
}
