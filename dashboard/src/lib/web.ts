/**
 * The web channel's data (spec 001 §4, issue 6): the owner's channel as `GET /api/charla-web` returns
 * it (after the server ran the web channel load rules), a public IALanding as `GET
 * /api/ialanding/:slug` loads in the app (lib/web-chat.ts has its shape, the visitor id and the
 * chat's shapes).
 */
import { queryOptions } from '@tanstack/react-query';
import { i18n } from '../i18n/index.ts';
import type { Ialanding, IalandingError } from './web-chat.ts';

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
