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
