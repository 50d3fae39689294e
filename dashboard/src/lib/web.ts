/**
 * The web channel's data (spec 001 §4, issue 6): the owner's channel as `GET /api/charla-web` returns
 * it (after the server ran the web channel load rules), a public IALanding as `GET
 * /api/ialanding/:slug` returns it, and the visitor id the web chats send.
 */
import { queryOptions } from '@tanstack/react-query';
import type { Attachment, FileRef, FileType } from '../../../engine/schemas.ts';
import { i18n } from '../i18n/index.ts';

/** `GET /api/charla-web` (adapters/web/). */
export interface CharlaWeb {
  chatbot: { id: string; business_name: string; charla_key: string; web_enabled: boolean };
  ialanding: { slug: string; is_active: boolean };
  plan: string | null;
  daysRemaining: number;
  paid: boolean;
}

/**
 * The owner's web channel; the server creates the bot, its key or its IALanding when missing (a
 * bot created here speaks the interface language, sent as `x-app-language`).
 */
export const charlaWebQuery = queryOptions({
  queryKey: ['charla-web'],
  queryFn: async (): Promise<CharlaWeb> => {
    const res = await fetch('/api/charla-web', { headers: { 'x-app-language': i18n.language } });
    if (!res.ok) throw new Error(String(res.status));
    return (await res.json()) as CharlaWeb;
  },
});

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

/** The server's text for a key whose bot is gone (spec 001 §8). */
const NO_BOT_TEXT = 'No se encontró la configuración del bot para este IALanding.';

/** A failed IALanding load, carrying which of the spec's cases it was. */
export class IalandingLoadError extends Error {
  constructor(readonly reason: IalandingError) {
    super(reason);
  }
}

/** A public IALanding by its slug; fails with an {@link IalandingLoadError}. */
export const ialandingQuery = (slug: string) =>
  queryOptions({
    queryKey: ['ialanding', slug],
    queryFn: async (): Promise<Ialanding> => {
      if (!slug.trim()) throw new IalandingLoadError('invalidUrl');
      let res: Response;
      try {
        res = await fetch(`/api/ialanding/${encodeURIComponent(slug)}`);
      } catch {
        throw new IalandingLoadError('load');
      }
      if (res.status === 404) {
        const body = (await res.json().catch(() => ({}))) as { error?: string };
        throw new IalandingLoadError(body.error === NO_BOT_TEXT ? 'noBot' : 'notFound');
      }
      if (!res.ok) throw new IalandingLoadError('load');
      return (await res.json()) as Ialanding;
    },
    retry: false,
    staleTime: 60_000,
  });

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
