/**
 * The IALanding visitors' Web Push routes (issue 28 §2; visitor-push.ts), public and addressed by
 * the bot's web key like the other `/api/web/:key` routes, rate-limited with them (pushed.ts
 * `refuseTooMany`: 429 beyond the `pushedAddress` limit per key and address); 404 for an unknown key.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../engine/errors.ts';
import { privateHost } from '../../engine/net.ts';
import type { ChannelContext } from '../../engine/registry/index.ts';
import { type LangCode, languageCode } from '../../engine/schemas.ts';
import { refuseTooMany } from './pushed.ts';
import { botByKey } from './shared.ts';
import {
  deleteVisitorSubscription,
  saveVisitorSubscription,
  VisitorSubscriptionBody,
  visitorVapid,
} from './visitor-push.ts';

/** Refusal of an endpoint on a private, loopback or link-local address, in the bot's language. */
const PRIVATE_ENDPOINT: Record<LangCode, string> = {
  es: 'Esa dirección de avisos no es de un servicio de notificaciones del navegador.',
  en: 'That address is not a browser notification service.',
  fr: 'Cette adresse n’est pas celle d’un service de notifications du navigateur.',
  de: 'Diese Adresse gehört zu keinem Benachrichtigungsdienst eines Browsers.',
  it: 'Questo indirizzo non è di un servizio di notifiche del browser.',
  ru: 'Этот адрес не принадлежит службе уведомлений браузера.',
  hi: 'यह पता किसी ब्राउज़र सूचना सेवा का नहीं है।',
};
/** Refusal when the operator set no VAPID keys, in the bot's language. */
const PUSH_OFF: Record<LangCode, string> = {
  es: 'Los avisos del navegador no están activados en este servidor.',
  en: 'Browser notifications are not available on this server.',
  fr: 'Les notifications du navigateur ne sont pas disponibles sur ce serveur.',
  de: 'Browser-Benachrichtigungen sind auf diesem Server nicht verfügbar.',
  it: 'Le notifiche del browser non sono disponibili su questo server.',
  ru: 'Уведомления браузера на этом сервере недоступны.',
  hi: 'इस सर्वर पर ब्राउज़र सूचनाएँ उपलब्ध नहीं हैं।',
};

const Params = z.object({ key: z.string().min(1).max(100) });

/**
 * `GET /api/web/:key/push/key`, `POST /api/web/:key/push/subscriptions`,
 * `DELETE /api/web/:key/push/subscriptions`.
 */
export function visitorPushRoutes(ctx: () => ChannelContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/web/:key/push/key',
      {
        ...refuseTooMany(ctx),
        schema: {
          summary: 'The VAPID public key for an IALanding visitor’s Web Push',
          description:
            'Issue 28 §2: the key a browser subscribes with (`applicationServerKey`), or null when the operator set no ' +
            'VAPID keys (the IALanding then offers no push). 404 for an unknown key; 429 beyond the limit.',
          tags: ['web'],
          params: Params,
          response: { 200: z.object({ publicKey: z.string().nullable() }) },
        },
      },
      async (req) => {
        await botByKey(ctx(), req.params.key);
        return { publicKey: visitorVapid(ctx().env)?.publicKey ?? null };
      },
    );

    app.post(
      '/api/web/:key/push/subscriptions',
      {
        ...refuseTooMany(ctx),
        schema: {
          summary: 'Subscribes an IALanding visitor’s browser to Web Push',
          description:
            'Issue 28 §2: `{ visitorId, endpoint, keys: { p256dh, auth } }` (the PushSubscription’s JSON and the chat’s ' +
            'visitor id). The owner’s replies and the reminders sent to this visitor are then pushed too. 204; 400 for ' +
            'a malformed body, an endpoint on a private address (unless `CHARLA_PUSH_ALLOW_PRIVATE=on`) or when push is ' +
            'off; 404 for an unknown key; 429 beyond the limit.',
          tags: ['web'],
          params: Params,
          body: VisitorSubscriptionBody,
        },
      },
      async (req, reply) => {
        const bot = await botByKey(ctx(), req.params.key);
        const vapid = visitorVapid(ctx().env);
        const lang = languageCode(bot.idioma);
        if (!vapid) throw new AppError('BAD_REQUEST', PUSH_OFF[lang]);
        if (!vapid.allowPrivate && (await privateHost(req.body.endpoint)))
          throw new AppError('BAD_REQUEST', PRIVATE_ENDPOINT[lang]);
        await saveVisitorSubscription(ctx(), bot.id, req.body);
        return reply.code(204).send();
      },
    );

    app.delete(
      '/api/web/:key/push/subscriptions',
      {
        ...refuseTooMany(ctx),
        schema: {
          summary: 'Unsubscribes an IALanding visitor’s browser from Web Push',
          description:
            'Issue 28 §2: `{ endpoint }`; the subscription of this bot with that endpoint is deleted (knowing the ' +
            'endpoint is the proof). 204 whether or not it existed; 404 for an unknown key; 429 beyond the limit.',
          tags: ['web'],
          params: Params,
          body: z.object({ endpoint: z.string().min(1).max(2000) }),
        },
      },
      async (req, reply) => {
        const bot = await botByKey(ctx(), req.params.key);
        await deleteVisitorSubscription(ctx(), req.body.endpoint, bot.id);
        return reply.code(204).send();
      },
    );
  };
}
