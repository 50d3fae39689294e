/**
 * The Cloud API webhook, one address for every bot (issue 13; WhatsApp Business Platform,
 * webhooks):
 *
 * - `GET /channels/whatsapp`: Meta's verification request; `hub.mode=subscribe` with the right
 *   `hub.verify_token` answers `hub.challenge` as plain text, anything else 403.
 * - `POST /channels/whatsapp`: the body is read raw and its `X-Hub-Signature-256`
 *   (`sha256=` + HMAC-SHA256 of the raw body with the app secret) checked in constant time for
 *   every phone number the body is for, with that number's app secret; a missing or wrong
 *   signature is refused with 401 and nothing is stored. Messages are routed to their bot by
 *   `metadata.phone_number_id` and stored in the inbox, keyed by their `wamid`, before the 200
 *   (Meta redelivers what was not acknowledged; a redelivery is stored once); delivery statuses
 *   are recorded, never moving a message back (they come out of order). Template status changes
 *   (`message_template_status_update`, issue 28) are routed by the account id (`entry[].id`) and
 *   checked with the app secret of that account's number.
 */
import { createHmac } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { sameSecret } from '../../shared/secrets.ts';
import type { WhatsAppAdapter } from '../contract.ts';
import { recordStatus } from '../messages.ts';
import { fillText, WHATSAPP_ERRORS } from '../texts.ts';
import { phoneNumberIds, readWebhook, templateAccountIds, WebhookBody } from './inbound.ts';
import { phoneOfBusinessAccount } from './template-queries.ts';

/** The header carrying the body's signature. */
export const SIGNATURE_HEADER = 'x-hub-signature-256';

/** `sha256=<hex>` of a raw body under an app secret (what Meta sends). */
export function signBody(body: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

export function webhookRoutes(adapter: () => WhatsAppAdapter): FastifyPluginAsync {
  return async (app) => {
    // This plugin's JSON bodies stay raw: the signature is over the exact bytes Meta sent.
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    );

    app.get<{ Querystring: Record<string, string | undefined> }>(
      '/',
      { config: { public: true }, schema: { hide: true } },
      async (req, reply) => {
        const mode = req.query['hub.mode'];
        const token = req.query['hub.verify_token'] ?? '';
        const challenge = req.query['hub.challenge'] ?? '';
        if (mode !== 'subscribe' || !sameSecret(token, adapter().verifyToken()))
          return reply.code(403).send({ error: 'verification failed' });
        return reply.code(200).type('text/plain; charset=utf-8').send(challenge);
      },
    );

    app.post(
      '/',
      { config: { public: true }, schema: { hide: true }, bodyLimit: 1_048_576 },
      async (req, reply) => {
        const wa = adapter();
        const raw = req.body as Buffer;
        if (!Buffer.isBuffer(raw)) return reply.code(415).send({ error: 'expected application/json' });
        let parsed: WebhookBody;
        try {
          const body = WebhookBody.safeParse(JSON.parse(raw.toString('utf8')));
          if (!body.success) return reply.code(400).send({ error: 'not a WhatsApp webhook' });
          parsed = body.data;
        } catch {
          return reply.code(400).send({ error: 'not JSON' });
        }
        const signature = req.headers[SIGNATURE_HEADER];
        const numbers = new Map<string, string>();
        for (const id of phoneNumberIds(parsed)) {
          const number = await wa.cloudNumber(id);
          if (!number) continue; // not connected to any bot here: acknowledged, nothing stored
          if (
            !number.appSecret ||
            typeof signature !== 'string' ||
            !sameSecret(signature, signBody(raw, number.appSecret))
          )
            return reply.code(401).send({ error: 'bad signature' });
          numbers.set(id, number.chatbotId);
        }
        // Issue 28: template status changes come by WhatsApp Business Account (the entry's id),
        // signed by the app of that account's number.
        const accounts = new Map<string, string>();
        for (const wabaId of templateAccountIds(parsed)) {
          const phoneId = await phoneOfBusinessAccount(wa.db(), wabaId);
          const number = phoneId ? await wa.cloudNumber(phoneId) : undefined;
          if (!number) continue;
          if (
            !number.appSecret ||
            typeof signature !== 'string' ||
            !sameSecret(signature, signBody(raw, number.appSecret))
          )
            return reply.code(401).send({ error: 'bad signature' });
          accounts.set(wabaId, number.chatbotId);
        }
        const items = readWebhook(parsed);
        const db = wa.db();
        for (const { phoneNumberId, message } of items.messages) {
          const chatbotId = numbers.get(phoneNumberId);
          if (chatbotId) await wa.acceptMessage(chatbotId, message);
        }
        for (const { phoneNumberId, status } of items.statuses) {
          const chatbotId = numbers.get(phoneNumberId);
          if (!chatbotId) continue;
          const error = status.errors?.[0];
          await recordStatus(db, {
            chatbotId,
            messageId: status.id,
            chatId: status.recipient_id,
            status: status.status,
            at: new Date(Number(status.timestamp) * 1000),
            errorCode: error?.code ?? null,
            errorTitle: error?.title ?? null,
          });
          if (status.status === 'failed' && error)
            await wa.recordError(
              chatbotId,
              error.code === 131047
                ? fillText(WHATSAPP_ERRORS.window24h, { chat: status.recipient_id })
                : fillText(WHATSAPP_ERRORS.sendFailed, {
                    chat: status.recipient_id,
                    reason: `${error.code}: ${error.title ?? ''}`.trim(),
                  }),
            );
        }
        for (const { wabaId, value } of items.templates) {
          const chatbotId = accounts.get(wabaId);
          if (chatbotId) await wa.templates.statusUpdate(chatbotId, value);
        }
        return reply.code(200).send({});
      },
    );
  };
}
