/**
 * Followers named by what the channel knows (issue 27 §4.2): the conversations middleware keeps the
 * name and handle a channel gives with each message (`InboundMessage.follower.name` / `handle`:
 * Telegram's first name and `@username`, WhatsApp's profile name and number) on the
 * conversation's `conversation_state` row, and the name a follower gave in a booking (the
 * reservations plugin's `reservations.booking` registry event) beside it. The inbox shows the
 * channel's name, else the booking's, else "Visitante web 12" (queries.ts `listFollowers`).
 */
import { sql } from 'kysely';
import { z } from 'zod';
import type { FollowerRef } from '../../engine/registry/index.ts';
import { CHAT_KEY, chatColumns } from '../../engine/store/queries/keys.ts';
import type { ConversationKey, ConversationsDb } from './queries.ts';

/** Longest name or handle kept, characters. */
const MAX_NAME = 120;

/** What of a booking event names its follower (the reservations plugin's `BookingEvent`, checked here). */
export const BookingName = z.object({
  chatbotId: z.string(),
  customerName: z.string().nullable(),
  channel: z.string().nullable(),
  chatId: z.string().nullable(),
});

/** A name as kept: trimmed, control characters out, at most {@link MAX_NAME}; null when empty. */
export function cleanName(raw: string | null | undefined): string | null {
  const clean = (raw ?? '')
    .replace(/\p{Cc}/gu, ' ')
    .trim()
    .slice(0, MAX_NAME);
  return clean || null;
}

/**
 * Remembers the follower names this process saved lately, so a follower's every message does not
 * write their name again (a cache only: the row is the truth, any process may write it).
 */
export class NameMemo {
  private readonly seen = new Map<string, { value: string; at: number }>();
  /**
   * @param ttlMs how long a saved name is trusted, ms (a deleted conversation loses its row: the
   *   name is written again at the latest this long after).
   * @param max entries kept.
   */
  constructor(
    private readonly ttlMs = 10 * 60_000,
    private readonly max = 5_000,
    private readonly clock: () => number = Date.now,
  ) {}

  /** True when `value` was saved for `key` in this process lately. */
  has(key: string, value: string): boolean {
    const hit = this.seen.get(key);
    return hit !== undefined && hit.value === value && this.clock() - hit.at < this.ttlMs;
  }

  /** Marks `value` saved for `key`. */
  set(key: string, value: string): void {
    this.seen.delete(key);
    this.seen.set(key, { value, at: this.clock() });
    if (this.seen.size > this.max) this.seen.delete(this.seen.keys().next().value!);
  }

  /** Forgets a key (its conversation was deleted here). */
  forget(key: string): void {
    this.seen.delete(key);
  }
}

/** The memo key of a conversation. */
export const memoKey = (k: ConversationKey) => `${k.chatbotId}\u0000${k.channel}\u0000${k.chatId}`;

/**
 * Saves the name and handle a channel gave with a follower's message on the conversation's state
 * row, when it gave any and they changed (a name the channel no longer gives is kept).
 */
export async function saveFollowerName(
  db: ConversationsDb,
  memo: NameMemo,
  k: ConversationKey,
  follower: FollowerRef,
): Promise<void> {
  const name = cleanName(follower.name);
  const handle = cleanName(follower.handle);
  if (!name && !handle) return;
  const value = `${name ?? ''}\u0000${handle ?? ''}`;
  if (memo.has(memoKey(k), value)) return;
  await db
    .insertInto('conversation_state')
    .values({ ...chatColumns(k), display_name: name, handle })
    .onConflict((oc) =>
      oc.columns(CHAT_KEY).doUpdateSet({
        display_name: sql`coalesce(excluded.display_name, conversation_state.display_name)`,
        handle: sql`coalesce(excluded.handle, conversation_state.handle)`,
      }),
    )
    .execute();
  memo.set(memoKey(k), value);
}

/** Saves the name a follower gave in a booking (a booking added by hand, or without a name, is skipped). */
export async function saveBookingName(db: ConversationsDb, payload: unknown): Promise<void> {
  const e = BookingName.safeParse(payload);
  if (!e.success || !e.data.channel || !e.data.chatId) return;
  const name = cleanName(e.data.customerName);
  if (!name) return;
  const k = { chatbotId: e.data.chatbotId, channel: e.data.channel, chatId: e.data.chatId };
  await db
    .insertInto('conversation_state')
    .values({ ...chatColumns(k), booking_name: name })
    .onConflict((oc) => oc.columns(CHAT_KEY).doUpdateSet({ booking_name: name }))
    .execute();
}
