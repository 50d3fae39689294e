/**
 * What the public web chats share with no dependency on the dashboard's app shell (no router, no
 * query client, no i18n instance), so the IALanding's server-rendered page can hydrate with a small
 * island (dashboard/src/ialanding-island.tsx): a public IALanding as `GET /api/ialanding/:slug`
 * returns it, the visitor id the web chats send, and the web channel's config and reply shapes.
 */
import type { Attachment, FileRef, FileType } from '../../../engine/schemas.ts';

/** A file of an IALanding's library. */
export interface IalandingFile {
  id: string;
  file_name: string;
  file_type: FileType;
  keyword: string;
  context: string;
  publicUrl: string;
}

/** `GET /api/ialanding/:slug` (adapters/web/). */
export interface Ialanding {
  slug: string;
  business_name: string;
  /** Issue 10 §7: the public description, or the description's first sentences without instructions. */
  public_description: string;
  charla_key: string;
  idioma: string;
  lang: string;
  greeting: string;
  available: boolean;
  /** In the bot's language; null while available. */
  unavailableText: string | null;
  /** True while no LLM is configured (the "respuestas sin IA" banner, issue 10 §6). */
  offline: boolean;
  files: IalandingFile[];
}

/** Why an IALanding cannot show: the spec's cases (001 §4), as keys of `landing.errors`. */
export type IalandingError = 'invalidUrl' | 'notFound' | 'noBot' | 'load';

/**
 * The browser's visitor id for a bot, created on first use (random, 128 bits, hex). Kept under the
 * same name as the widget's (`charla:<key>:visitor`, widget/chat.ts): one visitor per browser and bot.
 */
export function visitorId(key: string): string {
  const name = `charla:${key}:visitor`;
  try {
    const known = localStorage.getItem(name);
    if (known && /^[\w-]{8,128}$/.test(known)) return known;
    const id = [...crypto.getRandomValues(new Uint8Array(16))]
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
    localStorage.setItem(name, id);
    return id;
  } catch {
    // Storage refused (private mode, blocked cookies): an id for this page only.
    return `v${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
  }
}

/**
 * Whether this browser wrote to the bot of `key` before (it holds a visitor id): only then can the
 * business have sent it something, so only then does the IALanding listen from the start.
 */
export function knownVisitor(key: string): boolean {
  try {
    return localStorage.getItem(`charla:${key}:visitor`) !== null;
  } catch {
    return false;
  }
}

/** `GET /api/web/:key/config` (what the widget shows), as far as the try-out window reads it. */
export interface WebConfig {
  business_name: string;
  lang: string;
  greeting: string;
  available: boolean;
  unavailableText: string | null;
  /** True while no LLM is configured (the "respuestas sin IA" banner, issue 10 §6). */
  offline?: boolean;
}

/** A turn's answer from `POST /api/web/:key/message` (as `POST /api/chatbot-message/:id`). */
export interface WebReply {
  reply: string;
  attachment: Attachment | null;
  /** Issue 15: the reply as a voice note (`data:audio/ogg;base64,…`) when the bot speaks. */
  voice?: string | null;
  archivosEnviados: string[];
  contenedorEmpatico: { archivos: { action: 'SEND' | 'LIST' | 'NONE'; lista: FileRef[] } };
  /** True when the bot stayed quiet (a person took the conversation over): `reply` is empty. */
  silent?: boolean;
  /** Issue 29: what a plugin offers to pick (free slots), picked by number like a LIST. */
  choices?: Array<{ id: string; label: string }>;
}

/**
 * What the server-rendered IALanding page carries for its island (`<script type="application/json"
 * id="ialanding-data">`): the landing as `GET /api/ialanding/:slug` returns it and the texts of its
 * bot's language (lib/landing-texts.ts).
 */
export interface IalandingPageData {
  landing: Ialanding;
  texts: import('./landing-texts.ts').Texts;
}

/**
 * A message the business sent a web visitor (`GET /api/web/:key/pushed`); `id` orders them. Issue
 * 27 §3: the owner's carries `name` (the person the visitor sees) and may carry a file; the thread
 * of `GET /api/web/:key/history` has the visitor's own too (`from` user).
 */
export interface PushedMessage {
  id: string;
  text: string;
  from: 'bot' | 'owner' | 'user';
  name?: string | null;
  attachment?: Attachment | null;
  /** A broadcast (issue 27 §5): the business's announcement, not a takeover. */
  broadcast?: boolean;
}

/** Moves the browser's pushed mark (`charla:<key>:pushed`) to `id` when it is newer. */
function markPushed(slot: string, id: string): void {
  try {
    const last = localStorage.getItem(slot);
    if (last === null || id.length > last.length || (id.length === last.length && id > last))
      localStorage.setItem(slot, id);
  } catch {
    // not kept: the stream may show them again
  }
}

/**
 * A returning visitor's thread (issue 27 §3, `GET /api/web/:key/history`), oldest first, moving the
 * pushed mark past it so {@link listenPushed} does not show those again; empty when there is none
 * or the server cannot be reached.
 */
export async function restoreThread(key: string): Promise<PushedMessage[]> {
  try {
    const api = `/api/web/${encodeURIComponent(key)}`;
    const res = await fetch(`${api}/history?visitorId=${encodeURIComponent(visitorId(key))}`);
    if (!res.ok) return [];
    const body = (await res.json()) as { messages: PushedMessage[]; last: string | null };
    if (body.last) markPushed(`charla:${key}:pushed`, body.last);
    return body.messages;
  } catch {
    return [];
  }
}

/** How often the IALanding polls for pushed messages when its live stream cannot open, ms. */
const PUSHED_POLL_MS = 15_000;
/** How often it polls while the stream is open: a backstop for an event lost on the way, ms. */
const PUSHED_BACKSTOP_MS = 60_000;

/**
 * Listens for what the business sends this browser's visitor of `key` (an owner's reply, a
 * reminder, a broadcast; issue 26 §2, issue 27 §3): an EventSource on `GET
 * /api/web/:key/pushed/stream`, which brings each within about a second and resumes with
 * `Last-Event-ID` after a drop, plus a poll of `GET /api/web/:key/pushed` every 60 s as a backstop,
 * or every 15 s when the stream cannot open. `onMessage` gets each message once: the newest shown
 * id is kept under the widget's name (`charla:<key>:pushed`, widget/chat-store.ts).
 * @returns the function that stops listening.
 */
export function listenPushed(key: string, onMessage: (message: PushedMessage) => void): () => void {
  const api = `/api/web/${encodeURIComponent(key)}`;
  const slot = `charla:${key}:pushed`;
  const visitor = visitorId(key);
  let memory: string | null = null;
  const mark = (): string | null => {
    try {
      return localStorage.getItem(slot) ?? memory;
    } catch {
      return memory;
    }
  };
  const show = (list: PushedMessage[]) => {
    for (const m of list) {
      const last = mark();
      const newer =
        last === null || m.id.length > last.length || (m.id.length === last.length && m.id > last);
      if (!newer) continue;
      memory = m.id;
      try {
        localStorage.setItem(slot, m.id);
      } catch {
        // kept in memory for this page
      }
      onMessage(m);
    }
  };
  const query = () => {
    const after = mark();
    return `visitorId=${encodeURIComponent(visitor)}${after ? `&after=${after}` : ''}`;
  };
  const poll = async () => {
    try {
      const res = await fetch(`${api}/pushed?${query()}`);
      if (res.ok) show(((await res.json()) as { messages: PushedMessage[] }).messages);
    } catch {
      // offline for a moment: the next look gets them
    }
  };
  let timer = setInterval(() => void poll(), PUSHED_BACKSTOP_MS);
  const fallBack = () => {
    clearInterval(timer);
    timer = setInterval(() => void poll(), PUSHED_POLL_MS);
    void poll();
  };
  let source: EventSource | null = null;
  if (typeof EventSource === 'undefined') fallBack();
  else {
    source = new EventSource(`${api}/pushed/stream?${query()}`);
    source.addEventListener('pushed', (e) => {
      try {
        show([JSON.parse((e as MessageEvent<string>).data) as PushedMessage]);
      } catch {
        // not a message
      }
    });
    source.onerror = () => {
      if (source?.readyState === EventSource.CLOSED) fallBack();
    };
  }
  return () => {
    source?.close();
    clearInterval(timer);
  };
}
