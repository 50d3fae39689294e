/**
 * The conversations plugin's own table (docs/plugins.md): per follower conversation, whether the
 * owner has taken it over (the bot stays silent until `paused_until`) and what the owner has read.
 */
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export const migrations: Record<string, Migration> = {
  '202611260000_conversation_state': {
    async up(db) {
      await run(db, [
        `CREATE TABLE conversation_state (
          chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
          channel text NOT NULL,
          chat_id text NOT NULL,
          paused_until timestamptz,
          quiet_minutes integer NOT NULL DEFAULT 30 CHECK (quiet_minutes BETWEEN 1 AND 10080),
          last_read_id bigint NOT NULL DEFAULT 0,
          updated_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (chatbot_id, channel, chat_id)
        )`,
      ]);
    },
    async down(db) {
      await run(db, ['DROP TABLE conversation_state']);
    },
  },
};
