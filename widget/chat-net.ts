/**
 * The chat window's network client (widget/chat.ts), on the routes of adapters/web:
 *
 * - `POST /api/web/:key/message` with `Accept: text/event-stream`, read with fetch and a
 *   ReadableStream (`token` events, then `done` with the JSON answer, or `error`); a server that
 *   does not stream answers with the JSON directly;
 * - `POST /api/web/:key/voice`, a recording as multipart form data;
 * - `GET /api/web/:key/pushed/stream`, the messages the business sends the visitor, live
 *   (EventSource), and `GET /api/web/:key/pushed`, the same polled when the stream cannot open;
 * - `GET /api/web/:key/history`, a returning visitor's thread (issue 27 §3).
 *
 * A 403 means the bot is not available (the body may say why); any other non-OK answer is a
 * failure. Network errors are thrown to the caller. `api` is the key's base address
 * (`webApi` of widget/shared.ts).
 */
import { randomId, readEvents } from './chat-util.ts';
import type { Attachment, FileRef, WidgetReply } from './shared.ts';

/** What the server made of a visitor's message: its reply, a refusal (403) or a failure. */
export type Outcome =
  | { kind: 'reply'; reply: WidgetReply }
  /** The bot is not available; `text` is the server's explanation, if it gave one. */
  | { kind: 'unavailable'; text: string | null }
  | { kind: 'failed' };

/** A visitor's text message and what goes with it. */
export interface Outgoing {
  text: string;
  visitor: string;
  /** The files the last LIST offered. */
  offered: FileRef[];
  /** The files already sent in this conversation. */
  sent: string[];
}

/**
 * A message the business sent the visitor; `id` (decimal) orders them. Issue 27 §3: `from` says
 * whether the owner wrote it (`name` is then the person shown), and it may carry a file.
 */
export interface PushedMessage {
  id: string;
  text: string;
  from?: 'bot' | 'owner' | 'user';
  name?: string | null;
  attachment?: Attachment | null;
  /** A broadcast (issue 27 §5): the business's announcement; no person took the chat over. */
  broadcast?: boolean;
}

/** `GET /api/web/:key/pushed`: the messages the business sent since `after`, and the newest's mark. */
export interface Pushed {
  messages: PushedMessage[];
  last: string | null;
}

/** The error text a non-OK answer carries, if any. */
async function errorText(res: Response): Promise<string | null> {
  try {
    const body = (await res.json()) as { error?: unknown };
    return typeof body.error === 'string' && body.error ? body.error : null;
  } catch {
    return null;
  }
}

/** The outcome of a refused answer (403, or any other non-OK status), or null for an OK one. */
async function refusal(res: Response): Promise<Outcome | null> {
  if (res.status === 403) return { kind: 'unavailable', text: await errorText(res) };
  if (!res.ok) return { kind: 'failed' };
  return null;
}

/**
 * Sends a text message and reads the reply, calling `onToken` with each piece of a streamed reply
 * as it arrives.
 */
export async function postMessage(
  api: string,
  message: Outgoing,
  onToken: (text: string) => void,
): Promise<Outcome> {
  const { offered, sent } = message;
  const res = await fetch(`${api}/message`, {
    method: 'POST',
    credentials: 'omit',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    // No messageHistory: the server keeps this visitor's conversation (by visitorId), which
    // outlives the page and cannot be made up by the page.
    body: JSON.stringify({
      userMessage: message.text,
      visitorId: message.visitor,
      messageId: randomId(),
      ...(offered.length ? { archivosMostrados: offered } : {}),
      ...(sent.length ? { archivosEnviados: sent } : {}),
    }),
  });
  const refused = await refusal(res);
  if (refused) return refused;
  let reply: WidgetReply | null = null;
  let failed = false;
  if (res.body && (res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    await readEvents(res.body, (event, data) => {
      if (event === 'token') onToken((data as { text: string }).text);
      else if (event === 'done') reply = data as WidgetReply;
      else if (event === 'error') failed = true;
    });
  } else {
    reply = (await res.json()) as WidgetReply;
  }
  const answer = reply as WidgetReply | null;
  return failed || !answer ? { kind: 'failed' } : { kind: 'reply', reply: answer };
}

/** Sends a voice message (the reply says what the bot heard, and may be spoken). */
export async function postVoice(api: string, visitor: string, recording: Blob): Promise<Outcome> {
  const form = new FormData();
  form.append('visitorId', visitor);
  form.append('messageId', randomId());
  form.append('audio', recording, 'voz.webm');
  const res = await fetch(`${api}/voice`, { method: 'POST', credentials: 'omit', body: form });
  return (await refusal(res)) ?? { kind: 'reply', reply: (await res.json()) as WidgetReply };
}

/** The messages the business sent this visitor after the mark `after` (all, without one); null when not OK. */
export async function pushedSince(
  api: string,
  visitor: string,
  after: string | null,
): Promise<Pushed | null> {
  const res = await fetch(`${api}/pushed?${pushedQuery(visitor, after)}`);
  return res.ok ? ((await res.json()) as Pushed) : null;
}

/**
 * `GET /api/web/:key/history` (issue 27 §3): the visitor's recent thread, the visitor's messages
 * included (`from` user), oldest first, and the newest id; null when not OK.
 */
export async function historyOf(api: string, visitor: string): Promise<Pushed | null> {
  const res = await fetch(`${api}/history?${pushedQuery(visitor, null)}`);
  return res.ok ? ((await res.json()) as Pushed) : null;
}

/** The query of the pushed routes. */
function pushedQuery(visitor: string, after: string | null): string {
  return `visitorId=${encodeURIComponent(visitor)}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
}

/**
 * Opens the visitor's live stream (`GET /api/web/:key/pushed/stream`) after the mark `after`:
 * `onMessage` gets each message as it arrives (what was stored meanwhile first). A dropped stream
 * reconnects by itself (the server's `retry`, resuming with `Last-Event-ID`); `onClosed` is called
 * once when it cannot (go on): no EventSource in this browser, or the server refused it.
 * @returns the function that closes the stream.
 */
export function pushedStream(
  api: string,
  visitor: string,
  after: string | null,
  onMessage: (message: PushedMessage) => void,
  onClosed: () => void,
): () => void {
  if (typeof EventSource === 'undefined') {
    onClosed();
    return () => {};
  }
  const source = new EventSource(`${api}/pushed/stream?${pushedQuery(visitor, after)}`);
  source.addEventListener('pushed', (e) => {
    try {
      onMessage(JSON.parse((e as MessageEvent<string>).data) as PushedMessage);
    } catch {
      // not a message
    }
  });
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) onClosed();
  };
  return () => source.close();
}
