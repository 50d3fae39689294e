/**
 * What the business sends an open chat window (widget/chat.ts): messages pushed to the visitor (a
 * reminder, an owner's reply, a broadcast) live on `GET /api/web/:key/pushed/stream` (issue 26 §2),
 * with a poll of `GET /api/web/:key/pushed` every 60 s as a backstop, or every 15 s when the stream
 * cannot open; and a returning visitor's thread from `GET /api/web/:key/history` (issue 27 §3).
 * Each pushed message shows once: the newest shown id is kept in localStorage (chat-store.ts).
 */
import { historyOf, type PushedMessage, pushedSince, pushedStream } from './chat-net.ts';
import type { Message } from './chat-store.ts';
import { newerId } from './chat-util.ts';

/** How often an open window asks for messages the business sent when its live stream cannot open, ms. */
const PUSHED_POLL_MS = 15_000;
/** How often it asks while the stream is open: a backstop for an event lost on the way, ms. */
const PUSHED_BACKSTOP_MS = 60_000;

/**
 * A message from the server as a window message: the owner's shows as a person (`name`, else
 * `person`, the configuration's "Equipo de …"), with its file.
 */
export function serverMessage(m: PushedMessage, person: string | undefined): Message {
  return {
    text: m.text,
    bot: m.from !== 'user',
    attachment: m.attachment ?? null,
    person: m.from === 'owner' ? (m.name ?? person ?? null) : null,
  };
}

/** A window's listener of pushed messages; `show` gets the messages not shown before, in order. */
export function pushedListener(
  api: string,
  visitor: string,
  mark: { get(): string | null; set(id: string): void },
  show: (list: PushedMessage[]) => void,
) {
  let timer: ReturnType<typeof setInterval> | undefined;
  let closeStream: (() => void) | null = null;

  /** Shows the messages newer than the mark and moves it. */
  const fresh = (list: PushedMessage[]) => {
    const out: PushedMessage[] = [];
    for (const m of list) {
      if (!newerId(m.id, mark.get())) continue;
      mark.set(m.id);
      out.push(m);
    }
    if (out.length) show(out);
  };
  /** Asks for what was sent since the mark (offline for a moment: the next look gets them). */
  const poll = async () => {
    try {
      const body = await pushedSince(api, visitor, mark.get());
      if (body) fresh(body.messages);
    } catch {}
  };
  const every = (ms: number) => {
    clearInterval(timer);
    timer = setInterval(() => void poll(), ms);
  };
  const stop = () => {
    closeStream?.();
    closeStream = null;
    clearInterval(timer);
  };
  return {
    /** Listens while the window is open: the live stream and the backstop poll. */
    listen(): void {
      stop();
      every(PUSHED_BACKSTOP_MS);
      closeStream = pushedStream(
        api,
        visitor,
        mark.get(),
        (m) => fresh([m]),
        () => {
          // No stream (an old browser, a refusal): poll as before.
          every(PUSHED_POLL_MS);
          void poll();
        },
      );
    },
    /** Stops listening (the window closed). */
    unlisten: stop,
    /**
     * The visitor's thread from the server (issue 27 §3), moving the mark past it; empty when
     * there is none or the server cannot be reached.
     */
    async history(): Promise<PushedMessage[]> {
      try {
        const past = await historyOf(api, visitor);
        if (past?.last && newerId(past.last, mark.get())) mark.set(past.last);
        return past?.messages ?? [];
      } catch {
        return [];
      }
    },
  };
}
