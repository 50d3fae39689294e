/**
 * The owner's WhatsApp routes (spec 000 §7; issue 13). All are owner routes: a bot must be the
 * signed-in owner's (another owner's id answers 404); errors carry the spec's Spanish texts.
 *
 * - `GET /api/get-whatsapp-config`: the number (`whatsapp_number`), the backend, the live QR or
 *   pairing code while linking, the Cloud API details, and the connection's health.
 * - `POST /api/request-whatsapp-number`: starts linking a device (QR), or asks for a pairing code.
 * - `POST /api/remove-whatsapp`: logs the linked device out / forgets the Cloud API credentials.
 * - `POST /api/connect-whatsapp-cloud`: connects a Cloud API number (the manual form, and the last
 *   step of the Facebook login flow).
 * - `POST /api/meta/businesses`, `POST /api/meta/whatsapp-accounts`: the business discovery of the
 *   Facebook login flow (spec 000 §4/§7), one step per call so the dashboard shows each state.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, botNotFound } from '../../engine/errors.ts';
import { errorBodies } from '../shared/channel-api.ts';
import { ownerHealth } from '../shared/channel-errors.ts';
import {
  channelConfigRoute,
  channelRemoveRoute,
  probePost,
  requireOwnedBot,
} from '../shared/owner-routes.ts';
import { ConnectCloudBody, META_SCOPE, RequestNumberBody, WhatsAppConfigResponse } from './api.ts';
import { linkFailureOf } from './baileys/session-types.ts';
import { describeGraphError, GraphError } from './cloud/graph.ts';
import { MetaAccessToken, metaRoutes } from './cloud/meta-routes.ts';
import { templateRoutes } from './cloud/template-routes.ts';
import type { WhatsAppAdapter } from './contract.ts';
import { connectionOf, removeConnection, setCloudConnection, startLinking } from './queries.ts';
import { fillText, WHATSAPP_ERRORS } from './texts.ts';

/** Graph ids are digits. */
const GRAPH_ID = /^\d{1,40}$/;

/**
 * `POST /api/connect-whatsapp-cloud`'s body as the route validates it: the contract's, with the
 * access token limited to printable ASCII (it becomes an HTTP header to Meta; issue 24 §7).
 */
const ConnectCloudRequest = ConnectCloudBody.extend({ accessToken: MetaAccessToken.default('') });

/** The owner's WhatsApp routes (mounted at the root: the spec's `/api/...` paths). */
export function whatsappApiRoutes(adapter: () => WhatsAppAdapter): FastifyPluginAsyncZod {
  return async (app) => {
    const ownedBot = (req: FastifyRequest, id: string | undefined) =>
      requireOwnedBot(adapter().context(), req, id, WHATSAPP_ERRORS.missingData);

    /** The configuration answer of a bot. */
    const configOf = async (chatbotId: string): Promise<WhatsAppConfigResponse> => {
      const wa = adapter();
      const ctx = wa.context();
      const settings = wa.settings();
      const row = await connectionOf(wa.db(), chatbotId);
      if (!row) throw botNotFound();
      const connected =
        (row.backend === 'baileys' && row.status === 'linked') ||
        (row.backend === 'cloud' && row.status === 'active');
      return {
        whatsapp_number: connected ? row.whatsapp_number : null,
        backend: row.backend ?? null,
        status: row.status ?? null,
        linkFailure: linkFailureOf(row.status, row.last_error),
        connected,
        linking:
          row.status === 'linking'
            ? {
                qr: row.qr,
                qrExpiresAt: row.qr_expires_at ? new Date(row.qr_expires_at).toISOString() : null,
                pairingCode: row.pairing_code,
              }
            : null,
        cloud:
          row.backend === 'cloud'
            ? {
                phoneNumberId: row.phone_number_id,
                businessAccountId: row.meta_business_account_id,
                phoneNumber: row.phone_number,
                metaVerified: row.meta_verified,
              }
            : null,
        meta: {
          appId: settings.META_APP_ID ?? null,
          graphVersion: settings.WHATSAPP_GRAPH_VERSION,
          scope: META_SCOPE,
        },
        webhook: {
          url: ctx.publicUrl ? `${ctx.publicUrl}/channels/whatsapp` : null,
          verifyToken: wa.verifyToken(),
        },
        appSecretConfigured: Boolean(settings.META_APP_SECRET),
        health: ownerHealth(await wa.connections.health(chatbotId)),
      };
    };

    await app.register(
      channelConfigRoute({
        url: '/api/get-whatsapp-config',
        tag: 'whatsapp',
        summary: 'The WhatsApp configuration and connection health',
        description:
          'Spec 000 §7 (`whatsapp_number`), plus the backend (linked device or Cloud API), the live QR code ' +
          '(its content and expiry) or pairing code while a device is linking, the Cloud API number, what the ' +
          'Facebook login and the webhook need, and the connection health: state (connected only while ' +
          'WhatsApp is really receiving), the last error and the last message received. Without ' +
          '`chatbotId` the owner’s newest bot; 404 without a bot.',
        context: () => adapter().context(),
        response: WhatsAppConfigResponse,
        answer: (bot) => configOf(bot.id),
      }),
    );

    app.post(
      '/api/request-whatsapp-number',
      {
        config: probePost('/api/request-whatsapp-number'),
        schema: {
          summary: 'Link a WhatsApp number (QR code or pairing code)',
          description:
            'Spec 000 §7, the "assigned number" flow as a linked device (issue 13). Without `phoneNumber`: ' +
            'starts (or restarts) linking: the old session is forgotten and a new QR code appears in ' +
            '`GET /api/get-whatsapp-config` within seconds, renewed until it is scanned or runs out (then ' +
            '`status` is `expired` and the owner retries). A bot already linked answers its `whatsapp_number`. ' +
            'With `phoneNumber` (digits with country code): a pairing code for that number, to enter in ' +
            'WhatsApp › Linked devices › Link with phone number. 400 "Faltan datos para solicitar número de ' +
            'WhatsApp" without a bot id, 400 without days left, 404 for another owner’s bot.',
          tags: ['whatsapp'],
          body: RequestNumberBody,
          response: {
            200: WhatsAppConfigResponse,
            ...errorBodies(400, 401, 404, 502),
          },
        },
      },
      async (req) => {
        const wa = adapter();
        const ctx = wa.context();
        const bot = await ownedBot(req, req.body.chatbotId);
        if (!(await ctx.mayRun(bot.id))) throw new AppError('BAD_REQUEST', WHATSAPP_ERRORS.noDays);
        const row = await connectionOf(wa.db(), bot.id);
        const phone = req.body.phoneNumber?.replace(/[\s+()-]/g, '');
        if (phone !== undefined) {
          if (!/^\d{8,15}$/.test(phone)) throw new AppError('BAD_REQUEST', WHATSAPP_ERRORS.badPhone);
          if (row?.backend !== 'baileys' || row.status !== 'linking') {
            await wa.connections.disconnect(bot.id, 'removed');
            await startLinking(wa.db(), bot.id);
            wa.invalidateCloud();
            await ctx.reconcile(bot.id);
          }
          const session = wa.session(bot.id);
          if (!session) throw new AppError('UPSTREAM', WHATSAPP_ERRORS.pairingUnavailable);
          try {
            await session.pairingCode(phone);
          } catch (err) {
            ctx.log.warn({ chatbotId: bot.id, err }, 'pairing code request failed');
            throw new AppError('UPSTREAM', `${WHATSAPP_ERRORS.requestFailed}: ${(err as Error).message}`);
          }
          return configOf(bot.id);
        }
        if (row?.backend === 'baileys' && row.status === 'linked') return configOf(bot.id);
        // Reconfigure: the old connection stops (a linked device is logged out) before linking anew.
        await wa.connections.disconnect(bot.id, 'removed');
        await startLinking(wa.db(), bot.id);
        wa.invalidateCloud();
        ctx.log.info({ chatbotId: bot.id }, 'whatsapp linking started');
        await ctx.reconcile(bot.id);
        return configOf(bot.id);
      },
    );

    await app.register(
      channelRemoveRoute({
        url: '/api/remove-whatsapp',
        tag: 'whatsapp',
        summary: 'Disconnect WhatsApp',
        description:
          'Spec 000 §7. A linked device is logged out (it leaves the phone’s list of linked devices) and its ' +
          'session deleted; a Cloud API number’s credentials are forgotten. The spec’s fields ' +
          '(whatsapp_number, phone_number, meta_business_account_id, meta_token, meta_verified) are cleared. ' +
          'Disconnecting a bot without WhatsApp is not an error.',
        context: () => adapter().context(),
        missing: WHATSAPP_ERRORS.missingData,
        disconnect: (chatbotId) => adapter().connections.disconnect(chatbotId, 'removed'),
        forget: async (chatbotId) => {
          const wa = adapter();
          await removeConnection(wa.db(), chatbotId);
          wa.invalidateCloud();
          await wa.context().reconcile(chatbotId);
        },
        logMessage: 'whatsapp disconnected by its owner',
        message: 'WhatsApp desconectado.',
      }),
    );

    app.post(
      '/api/connect-whatsapp-cloud',
      {
        config: probePost('/api/connect-whatsapp-cloud', {
          phoneNumberId: '123',
          businessAccountId: '456',
          accessToken: 'EAAtest',
          appSecret: 'secret',
        }),
        schema: {
          summary: 'Connect a WhatsApp Cloud API number',
          description:
            'Issue 13 (the manual form, and the last step of the Facebook login flow, spec 000 §4). Checks the ' +
            'token against the number (`GET /{phone-number-id}`), subscribes the app to the WhatsApp Business ' +
            'Account’s webhooks (`POST /{waba-id}/subscribed_apps`), then stores the number, the business ' +
            'account id and the token (encrypted, AES-256-GCM) with `meta_verified` false. A Facebook login ' +
            'token is first exchanged for a long-lived one. `appSecret` (stored encrypted) signs this number’s ' +
            'webhooks when the instance has no META_APP_SECRET. 400 for missing or refused data, 409 when the ' +
            'number is another bot’s, 502 when Meta cannot be reached.',
          tags: ['whatsapp'],
          body: ConnectCloudRequest,
          response: {
            200: WhatsAppConfigResponse,
            ...errorBodies(400, 401, 404, 409, 502),
          },
        },
      },
      async (req) => {
        const wa = adapter();
        const ctx = wa.context();
        const settings = wa.settings();
        const bot = await ownedBot(req, req.body.chatbotId);
        const phoneNumberId = req.body.phoneNumberId.trim();
        const businessAccountId = req.body.businessAccountId.trim();
        let token = req.body.accessToken.trim();
        const appSecret = req.body.appSecret?.trim() || null;
        if (!GRAPH_ID.test(phoneNumberId) || !GRAPH_ID.test(businessAccountId) || !token)
          throw new AppError('BAD_REQUEST', WHATSAPP_ERRORS.cloudRequired);
        if (!appSecret && !settings.META_APP_SECRET)
          throw new AppError('BAD_REQUEST', WHATSAPP_ERRORS.cloudNoSecret);
        const other = await wa.cloudNumber(phoneNumberId);
        if (other && other.chatbotId !== bot.id) throw new AppError('CONFLICT', WHATSAPP_ERRORS.cloudInUse);
        const upstream = (err: unknown): never => {
          if (err instanceof GraphError && err.status >= 400 && err.status < 500)
            throw new AppError(
              'BAD_REQUEST',
              fillText(WHATSAPP_ERRORS.cloudTokenRejected, { reason: describeGraphError(err) }),
            );
          ctx.log.warn({ chatbotId: bot.id, error: describeGraphError(err) }, 'graph api call failed');
          throw new AppError('UPSTREAM', WHATSAPP_ERRORS.cloudUnreachable);
        };
        if (req.body.fromFacebookLogin && settings.META_APP_ID && settings.META_APP_SECRET) {
          const q = new URLSearchParams({
            grant_type: 'fb_exchange_token',
            client_id: settings.META_APP_ID,
            client_secret: settings.META_APP_SECRET,
            fb_exchange_token: token,
          });
          const exchanged = await wa
            .graph(token)
            .call<{ access_token: string }>('GET', `oauth/access_token?${q}`)
            .catch(upstream);
          token = exchanged.access_token;
        }
        const graph = wa.graph(token);
        const number = await graph
          .call<{ display_phone_number?: string }>(
            'GET',
            `${phoneNumberId}?fields=display_phone_number,verified_name`,
          )
          .catch(upstream);
        await graph.call('POST', `${businessAccountId}/subscribed_apps`).catch(upstream);
        await wa.connections.disconnect(bot.id, 'removed');
        await setCloudConnection(wa.db(), bot.id, {
          phoneNumberId,
          businessAccountId,
          displayPhoneNumber: (number.display_phone_number ?? '').replace(/[^\d]/g, ''),
          token: ctx.secrets.encrypt(token),
          appSecret: appSecret ? ctx.secrets.encrypt(appSecret) : null,
        });
        wa.invalidateCloud();
        ctx.log.info({ chatbotId: bot.id, phoneNumberId }, 'whatsapp cloud api number connected');
        await ctx.reconcile(bot.id);
        return configOf(bot.id);
      },
    );

    await app.register(metaRoutes(adapter));
    await app.register(templateRoutes(adapter));
  };
}
