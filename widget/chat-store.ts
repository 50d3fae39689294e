/**
 * What the chat window (widget/chat.ts) keeps in the browser: the messages of the window, this tab's
 * conversation in sessionStorage (so it survives moving between the site's pages) and the last
 * message the business sent this browser that was shown, in localStorage (adapters/web/pushed.ts).
 */
import { stored } from './chat-util.ts';
import type { Attachment, FileRef } from './shared.ts';

/** Messages kept in sessionStorage for the next page of the site. */
const KEPT_MESSAGES = 60;

/** One message of the window. */
export interface Message {
  text: string;
  bot: boolean;
  error?: boolean;
  attachment?: Attachment | null;
  /** A spoken reply (`data:audio/ogg;base64,…`); not kept across pages. */
  voice?: string | null;
  /** Issue 27 §3: the owner's message, shown as this person (not the bot). */
  person?: string | null;
  /** A small centred note (the one-time "a person will reply"), not a bubble. */
  note?: boolean;
}

/** What a tab keeps of its conversation. */
export interface Kept {
  messages: Message[];
  offered: FileRef[];
  sent: string[];
}

/** This tab's conversation with a key's bot, kept in sessionStorage for the site's next page. */
export function keptConversation(key: string) {
  const slot = stored(() => sessionStorage, `charla:${key}:chat`);
  return {
    /** The conversation this tab kept, or null when there is none or it cannot be read. */
    load(): Kept | null {
      try {
        return JSON.parse(slot.get() ?? 'null') as Kept | null;
      } catch {
        return null;
      }
    },
    /** Keeps the last messages (without their voice), the offered files and the files sent. */
    save(messages: Message[], offered: FileRef[], sent: string[]): void {
      const kept = messages.slice(-KEPT_MESSAGES).map(({ voice: _voice, ...m }) => m);
      slot.set(JSON.stringify({ messages: kept, offered, sent } satisfies Kept));
    },
  };
}

/** The last message the business sent this browser that was shown (adapters/web/pushed.ts). */
export function pushedMark(key: string) {
  return stored(() => localStorage, `charla:${key}:pushed`);
}
