/**
 * The notifications owner routes (issue 27 §1), all for the session's owner:
 *
 * - `GET /api/notifications/settings`: the language and, per event kind, each route on or off,
 *   with `telegramLinked` and `pushAvailable` ({@link SettingsAnswer});
 * - `PUT /api/notifications/settings`: changes them, partially ({@link SettingsBody}; 400 for an
 *   unknown kind, route or language);
 * - `GET /api/notifications/push/key`: `{ publicKey }`, the VAPID public key for
 *   `pushManager.subscribe` (null: push is not set up on this server);
 * - `POST /api/notifications/push/subscriptions`: stores the browser's PushSubscription (204;
 *   409 `pushOff` when push is not set up);
 * - `DELETE /api/notifications/push/subscriptions` `{ endpoint }`: forgets it (204 either way);
 * - `GET /api/notifications/stream`: the in-page notifications (stream.ts).
 *
 * The "needs a person" state is the conversations plugin's (`/api/conversations/:chatbotId/status`).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestLanguage } from '../../engine/auth/mail.ts';
import type { PluginContext } from '../../engine/registry/index.ts';
import type { LangCode } from '../../engine/schemas.ts';
import { OWNER_TELEGRAM_QUERY } from '../conversations/api.ts';
import {
  deleteSubscription,
  PushSubscriptionBody,
  privateHost,
  saveSubscription,
  type Vapid,
} from './push.ts';
import type { NotificationsDb } from './queries.ts';
import {
  applySettings,
  type Choices,
  eventFlags,
  ownerChoices,
  SettingsAnswer,
  SettingsBody,
} from './settings.ts';
import { notificationStream } from './stream.ts';

export { SettingsAnswer, SettingsBody } from './settings.ts';

const PushError = z.object({ error: z.string(), code: z.enum(['pushOff', 'pushEndpoint']) });

/** 409 `pushOff`: the operator has not set VAPID keys. */
const PUSH_OFF: Record<LangCode, string> = {
  es: 'Las notificaciones push no están disponibles en este servidor.',
  en: 'Push notifications are not available on this server.',
  fr: 'Les notifications push ne sont pas disponibles sur ce serveur.',
  de: 'Push-Benachrichtigungen sind auf diesem Server nicht verfügbar.',
  it: 'Le notifiche push non sono disponibili su questo server.',
  ru: 'Push-уведомления на этом сервере недоступны.',
  hi: 'इस सर्वर पर पुश सूचनाएँ उपलब्ध नहीं हैं।',
};
/** 400 `pushEndpoint`: the subscription's address is not a public push service. */
const PUSH_ENDPOINT: Record<LangCode, string> = {
  es: 'Este navegador dio una dirección de push que no es pública; prueba con otro navegador.',
  en: 'This browser gave a push address that is not public; try another browser.',
  fr: 'Ce navigateur a fourni une adresse push qui n’est pas publique ; essayez un autre navigateur.',
  de: 'Dieser Browser hat eine nicht öffentliche Push-Adresse angegeben; versuche einen anderen Browser.',
  it: 'Questo browser ha fornito un indirizzo push non pubblico; prova con un altro browser.',
  ru: 'Этот браузер указал непубличный адрес для push; попробуйте другой браузер.',
  hi: 'इस ब्राउज़र ने ऐसा पुश पता दिया जो सार्वजनिक नहीं है; कोई दूसरा ब्राउज़र आज़माएँ।',
};

/** The routes (mounted at the root: `prefix: ''`). */
export function notificationRoutes(
  ctx: PluginContext,
  db: NotificationsDb,
  vapid: Vapid | null,
): FastifyPluginAsyncZod {
  /** Whether any of the owner's bots has their Telegram linked (the conversations plugin answers). */
  const telegramLinked = async (ownerId: string) => {
    let linked = false;
    await ctx.events.emit(OWNER_TELEGRAM_QUERY, { ownerId, reply: (v: boolean) => (linked = v) });
    return linked;
  };
  const answer = async (ownerId: string, c: Choices): Promise<SettingsAnswer> => ({
    language: c.language,
    events: eventFlags(c),
    telegramLinked: await telegramLinked(ownerId),
    pushAvailable: vapid !== null,
  });
  return async (app) => {
    app.get(
      '/api/notifications/settings',
      {
        config: { owner: { self: true } },
        schema: {
          summary: 'The owner’s notification settings',
          description:
            'Issue 27 §1: per event kind (new_conversation, asks_person, booking_new, booking_changed, days_running_out, ' +
            'channel_down) whether each route (email, telegram, push, page) is on (all on until changed), the language ' +
            '(the dashboard’s, es by default), `telegramLinked` (a bot has the owner’s Telegram linked) and ' +
            '`pushAvailable` (the operator set VAPID keys).',
          tags: ['notifications'],
          response: { 200: SettingsAnswer },
        },
      },
      async (req) => {
        const owner = await ctx.requireOwner(req);
        return answer(owner.id, await ownerChoices(db, owner.id));
      },
    );

    app.put(
      '/api/notifications/settings',
      {
        config: { owner: { self: true } },
        schema: {
          summary: 'Changes the owner’s notification settings',
          description:
            'Issue 27 §1: `events.<kind>.<route>` turns a route of a kind on or off; `language` is the notifications’ ' +
            'language. Fields left out keep their value. 400 for an unknown kind, route, field or value. ' +
            'Answers the settings as GET does.',
          tags: ['notifications'],
          body: SettingsBody,
          response: { 200: SettingsAnswer },
        },
      },
      async (req) => {
        const owner = await ctx.requireOwner(req);
        return answer(owner.id, await applySettings(db, owner.id, req.body, ctx.now()));
      },
    );

    app.get(
      '/api/notifications/push/key',
      {
        config: { owner: { self: true } },
        schema: {
          summary: 'The server’s VAPID public key',
          description:
            'Issue 27 §1: the `applicationServerKey` for `pushManager.subscribe` (URL-safe base64); null when the ' +
            'operator has not set CHARLA_VAPID_PUBLIC_KEY and CHARLA_VAPID_PRIVATE_KEY.',
          tags: ['notifications'],
          response: { 200: z.object({ publicKey: z.string().nullable() }) },
        },
      },
      async (req) => {
        await ctx.requireOwner(req);
        return { publicKey: vapid?.publicKey ?? null };
      },
    );

    app.post(
      '/api/notifications/push/subscriptions',
      {
        config: { owner: { self: true } },
        schema: {
          summary: 'Subscribes this browser to the owner’s push notifications',
          description:
            'Issue 27 §1: the body is the browser’s PushSubscription as JSON (`endpoint`: https URL, `keys.p256dh`, ' +
            '`keys.auth`); stored sealed. 204; 400 for a malformed one, or `pushEndpoint` for an endpoint on a private or ' +
            'loopback address (unless the operator set CHARLA_PUSH_ALLOW_PRIVATE=on); 409 `pushOff` when push is not set ' +
            'up. Errors in the `x-app-language` / Accept-Language language.',
          tags: ['notifications'],
          body: PushSubscriptionBody,
          response: { 204: z.null(), 400: PushError, 409: PushError },
        },
      },
      async (req, reply) => {
        const owner = await ctx.requireOwner(req);
        const lang = requestLanguage(req.headers);
        if (!vapid) return reply.code(409).send({ error: PUSH_OFF[lang], code: 'pushOff' });
        // A browser's push service is on the internet: the server's own network is never a target.
        if (!vapid.allowPrivate && (await privateHost(req.body.endpoint)))
          return reply.code(400).send({ error: PUSH_ENDPOINT[lang], code: 'pushEndpoint' });
        await saveSubscription(ctx, db, owner.id, req.body);
        return reply.code(204).send(null);
      },
    );

    app.delete(
      '/api/notifications/push/subscriptions',
      {
        config: { owner: { self: true } },
        schema: {
          summary: 'Unsubscribes a browser from the owner’s push notifications',
          description:
            'Issue 27 §1: forgets the owner’s subscription with this endpoint. 204 whether it existed or not.',
          tags: ['notifications'],
          body: z.object({ endpoint: z.string().min(1).max(2000) }).strip(),
          response: { 204: z.null() },
        },
      },
      async (req, reply) => {
        const owner = await ctx.requireOwner(req);
        await deleteSubscription(db, req.body.endpoint, owner.id);
        return reply.code(204).send(null);
      },
    );

    await app.register(notificationStream(ctx));
  };
}
