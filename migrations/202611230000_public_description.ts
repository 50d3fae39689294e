/**
 * Issue 10 §7: a bot's public description, the text its public IALanding shows about the business.
 * The business description often carries instructions for the bot ("Atiende con cercanía…"), so
 * the landing shows this column, or when it is empty the first sentences of the business
 * description with the instructions left out (engine/ranking `publicSummary`).
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, "ALTER TABLE chatbots ADD COLUMN public_description text NOT NULL DEFAULT '';");
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER TABLE chatbots DROP COLUMN public_description;');
}
