/**
 * The reservations plugin's per-follower state in SQL: the offline dialogue's place
 * (reservation_dialogues, dialogue.ts) and the follower's own reservations. Split from queries.ts
 * (booking).
 */
import { CHAT_KEY, type ChatKey, chatColumns, ofChat } from '../../engine/store/queries/keys.ts';
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
    .where(ofChat({ chatbotId, channel, chatId }))
    .executeTakeFirst();
  return row?.state ?? null;
}

/** Saves (or, with null, forgets) the offline dialogue's state of one follower. */
export async function saveDialogue(
  db: ReservationsDb,
  key: ChatKey,
  state: unknown,
  now: Date,
): Promise<void> {
  if (state === null) {
    await db.deleteFrom('reservation_dialogues').where(ofChat(key)).execute();
    return;
  }
  const json = JSON.stringify(state);
  await db
    .insertInto('reservation_dialogues')
    .values({ ...chatColumns(key), state: json, updated_at: now })
    .onConflict((oc) => oc.columns(CHAT_KEY).doUpdateSet({ state: json, updated_at: now }))
    .execute();
}
