/** The Telegram columns of `chatbots` (spec 000 §3: telegram_token, telegram_username; issue 5). */
import type { Kysely } from 'kysely';
import type { Database } from '../../engine/store/database.ts';

/** Bots with a Telegram token stored (connected or paused), by id. */
export async function telegramBotIds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('chatbots').select('id').where('telegram_token', 'is not', null).execute();
  return rows.map((r) => r.id);
}

/** A bot's Telegram credentials (token still encrypted) and the fields its replies need. */
export async function telegramCredentials(db: Kysely<Database>, chatbotId: string) {
  return db
    .selectFrom('chatbots')
    .select([
      'id',
      'user_id',
      'telegram_token',
      'telegram_username',
      'telegram_bot_id',
      'business_name',
      'idioma',
    ])
    .where('id', '=', chatbotId)
    .executeTakeFirst();
}

/** Another bot connected to the same Telegram bot (by its numeric id), if any. */
export async function botUsingTelegramBot(
  db: Kysely<Database>,
  telegramBotId: string,
  exceptChatbotId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('chatbots')
    .select('id')
    .where('telegram_bot_id', '=', telegramBotId)
    .where('telegram_token', 'is not', null)
    .where('id', '!=', exceptChatbotId)
    .executeTakeFirst();
  return row?.id;
}

/** Stores a bot's Telegram connection (the token already encrypted), or clears it with nulls. */
export async function setTelegramConnection(
  db: Kysely<Database>,
  chatbotId: string,
  values: { token: string | null; username: string | null; botId: string | null },
): Promise<void> {
  await db
    .updateTable('chatbots')
    .set({
      telegram_token: values.token,
      telegram_username: values.username,
      telegram_bot_id: values.botId,
      updated_at: new Date(),
    })
    .where('id', '=', chatbotId)
    .execute();
}
