/** Reading Bot API updates (https://core.telegram.org/bots/api#update). */
import type { Update } from 'grammy/types';

/** The chat an update belongs to (its inbox queue); updates without one share queue `0`. */
export function chatIdOf(update: Update): string {
  const id =
    update.message?.chat.id ?? update.callback_query?.message?.chat.id ?? update.callback_query?.from.id;
  return id === undefined ? '0' : String(id);
}
