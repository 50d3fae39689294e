/**
 * Documents as bot files (issue 30 §1: "plain text and Markdown, DOCX if cheap"): `chatbot_files.file_type`
 * also takes `document` (.txt, .md, .docx), whose text the extraction job indexes like a PDF's and
 * which every channel sends as a document, as it sends a PDF.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `ALTER TABLE chatbot_files DROP CONSTRAINT IF EXISTS chatbot_files_file_type_check;
    ALTER TABLE chatbot_files ADD CONSTRAINT chatbot_files_file_type_check
      CHECK (file_type IN ('image', 'pdf', 'audio', 'video', 'document'));`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `DELETE FROM chatbot_files WHERE file_type = 'document';
    ALTER TABLE chatbot_files DROP CONSTRAINT IF EXISTS chatbot_files_file_type_check;
    ALTER TABLE chatbot_files ADD CONSTRAINT chatbot_files_file_type_check
      CHECK (file_type IN ('image', 'pdf', 'audio', 'video'));`,
  );
}
