/**
 * The reservations plugin's per-follower state in SQL: the offline dialogue's place
 * (reservation_dialogues, dialogue.ts). Split from queries.ts (booking).
 */
import type { ReservationsDb } from './queries.ts';

/** The offline dialogue's state of one follower (null when none). */
export async function findDialogue(
  db: ReservationsDb,
  chatbotId: string,
  channel: string,
  chatId: string,
): Promise<unknown> {
  const row = await db
    .selectFrom('reservation_dialogues')
    .select('state')
    .where('chatbot_id', '=', chatbotId)
    .where('channel', '=', channel)
    .where('chat_id', '=', chatId)
    .executeTakeFirst();
  return row?.state ?? null;
}

/** Saves (or, with null, forgets) the offline dialogue's state of one follower. */
export async function saveDialogue(
  db: ReservationsDb,
  key: { chatbotId: string; channel: string; chatId: string },
  state: unknown,
  now: Date,
): Promise<void> {
  if (state === null) {
    await db
      .deleteFrom('reservation_dialogues')
      .where('chatbot_id', '=', key.chatbotId)
      .where('channel', '=', key.channel)
      .where('chat_id', '=', key.chatId)
      .execute();
    return;
  }
  const json = JSON.stringify(state);
  await db
    .insertInto('reservation_dialogues')
    .values({
      chatbot_id: key.chatbotId,
      channel: key.channel,
      chat_id: key.chatId,
      state: json,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['chatbot_id', 'channel', 'chat_id']).doUpdateSet({ state: json, updated_at: now }),
    )
    .execute();
}
