/**
 * The Facebots plugin's own table: who liked which bot (one row per visitor and bot), so a like is
 * counted once per visitor on the server (issue 16 §4); `chatbots.likes_count` keeps the total.
 */
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migrations: Record<string, Migration> = {
  '202611280000_facebots_likes': {
    async up(db: Kysely<unknown>) {
      await sql`CREATE TABLE facebots_likes (
        chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
        visitor_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (chatbot_id, visitor_id)
      )`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`DROP TABLE facebots_likes`.execute(db);
    },
  },
};
