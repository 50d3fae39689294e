/**
 * The owner's routes of WhatsApp message templates (issue 28 §1, §4). Owner routes: the bot must be
 * the signed-in owner's (another owner's id answers 404); the feature's own 4xx errors are in the
 * dashboard's language (`x-app-language`).
 *
 * - `GET /api/whatsapp/:chatbotId/templates`: Charla's templates in the seven languages with
 *   their status at Meta (`NOT_SUBMITTED`, `PENDING`, `APPROVED`, `REJECTED` with Meta's reason, …).
 * - `POST /api/whatsapp/:chatbotId/templates`: the one click: submits every template not yet at
 *   Meta (`POST /{waba_id}/message_templates`, category UTILITY) and edits rejected ones.
 * - `POST /api/whatsapp/:chatbotId/templates/check`: asks Meta for their status now
 *   (`GET /{waba_id}/message_templates`), what the periodic check does every 15 minutes.
 * - `GET /api/whatsapp/:chatbotId/waiting`: messages the closed 24-hour window keeps (an owner's
 *   held reply, or a message with no approved template) and why.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestLanguage } from '../../../engine/auth/mail.ts';
import { AppError } from '../../../engine/errors.ts';
import { errorBodies } from '../../shared/channel-api.ts';
import { requireOwnedBot } from '../../shared/owner-routes.ts';
import type { WhatsAppAdapter } from '../contract.ts';
import { contactOf } from '../messages.ts';
import { fillText, WHATSAPP_ERRORS } from '../texts.ts';
import { describeGraphError, isPermanentGraph } from './graph.ts';
import { TemplatesResponse, WAITING_REASONS, WaitingResponse } from './template-api.ts';
import { openWaitingOf } from './template-queries.ts';
import { TEMPLATE_ROUTE_ERRORS } from './template-texts.ts';

/** `:chatbotId`. */
const Params = z.object({ chatbotId: z.string().min(1).max(100) });

const iso = (d: Date | string | undefined) => (d ? new Date(d).toISOString() : new Date(0).toISOString());

export function templateRoutes(adapter: () => WhatsAppAdapter): FastifyPluginAsyncZod {
  return async (app) => {
    const ownedBot = (req: FastifyRequest, id: string) =>
      requireOwnedBot(adapter().context(), req, id, WHATSAPP_ERRORS.missingData);
    const errors = (req: FastifyRequest) => TEMPLATE_ROUTE_ERRORS[requestLanguage(req.headers)];
    /** The bot's account at Meta, or a translated 400. */
    const accountOf = async (req: FastifyRequest, chatbotId: string) => {
      const a = await adapter().templates.account(chatbotId);
      if ('error' in a) throw new AppError('BAD_REQUEST', errors(req)[a.error]);
      return a;
    };
    /** Meta refusing is the request's 400 with Meta's reason; Meta unreachable a 502. */
    const metaFailure =
      (req: FastifyRequest) =>
      (err: unknown): never => {
        throw new AppError(
          isPermanentGraph(err) ? 'BAD_REQUEST' : 'UPSTREAM',
          fillText(errors(req).meta, { reason: describeGraphError(err) }),
        );
      };
    const answer = async (chatbotId: string) => {
      const wa = adapter();
      const a = await wa.templates.account(chatbotId);
      return { cloud: !('error' in a), templates: await wa.templates.list(chatbotId) };
    };
    const probe = (method: 'GET' | 'POST', tail: string) => ({
      owner: {
        probe: (a: { botId: string }) => ({
          method,
          url: `/api/whatsapp/${encodeURIComponent(a.botId)}/${tail}`,
          ...(method === 'POST' ? { json: {} } : {}),
        }),
      },
    });

    app.get(
      '/api/whatsapp/:chatbotId/templates',
      {
        config: probe('GET', 'templates'),
        schema: {
          summary: 'WhatsApp message templates and their status at Meta',
          description:
            'Issue 28 §1: Charla’s UTILITY templates (booking confirmation, reminders 24 h and 2 h, booking ' +
            'changed, "the team has answered") in es, en, fr, de, it, ru, hi, each with its status as Meta ' +
            'gives it (`NOT_SUBMITTED` before the owner submits them; `PENDING`, `APPROVED`, `REJECTED` with ' +
            'Meta’s `reason`, `PAUSED`, `DISABLED`; `ERROR` when Meta refused the submission) and its body. ' +
            '`cloud` is false when the bot’s WhatsApp is not a Cloud API number. 404 for another owner’s bot.',
          tags: ['whatsapp'],
          params: Params,
          response: { 200: TemplatesResponse, ...errorBodies(400, 401, 404) },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        return answer(bot.id);
      },
    );

    app.post(
      '/api/whatsapp/:chatbotId/templates',
      {
        config: probe('POST', 'templates'),
        schema: {
          summary: 'Submit the WhatsApp message templates to Meta',
          description:
            'Issue 28 §1, the one click: every template not yet at Meta is created with ' +
            '`POST /{waba_id}/message_templates` (name, language, category UTILITY, a BODY component with ' +
            'numbered parameters and their example), and a rejected one is edited (`POST /{template_id}`) so ' +
            'Meta reviews it again. Answers the templates as `GET` does. 400 (translated) when the bot has no ' +
            'Cloud API number or no WhatsApp Business Account id, or Meta refuses the token; 502 when Meta ' +
            'cannot be reached.',
          tags: ['whatsapp'],
          params: Params,
          body: z.object({}).strict().optional(),
          response: { 200: TemplatesResponse, ...errorBodies(400, 401, 404, 502) },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const a = await accountOf(req, bot.id);
        await adapter().templates.submit(bot.id, a.graph, a.wabaId).catch(metaFailure(req));
        return answer(bot.id);
      },
    );

    app.post(
      '/api/whatsapp/:chatbotId/templates/check',
      {
        config: probe('POST', 'templates/check'),
        schema: {
          summary: 'Ask Meta for the templates’ status now',
          description:
            'Issue 28 §1: `GET /{waba_id}/message_templates` (status, `rejected_reason`) and the stored statuses ' +
            'updated, as the periodic check and the `message_template_status_update` webhook do. Errors as ' +
            '`POST /api/whatsapp/:chatbotId/templates`.',
          tags: ['whatsapp'],
          params: Params,
          body: z.object({}).strict().optional(),
          response: { 200: TemplatesResponse, ...errorBodies(400, 401, 404, 502) },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const a = await accountOf(req, bot.id);
        await adapter().templates.sync(bot.id, a.graph, a.wabaId).catch(metaFailure(req));
        return answer(bot.id);
      },
    );

    app.get(
      '/api/whatsapp/:chatbotId/waiting',
      {
        config: probe('GET', 'waiting'),
        schema: {
          summary: 'WhatsApp messages waiting for the follower’s 24-hour window',
          description:
            'Issue 28 §1/§4: messages that could not go out free-form because the follower wrote more than 24 ' +
            'hours ago, oldest first (at most 200): an owner’s reply `held` after the "team has answered" ' +
            'template went out (`reason` `template_sent`), or a message `waiting` because no template is ' +
            'approved in the follower’s or the bot’s language (`no_approved_template`) or Meta refused it ' +
            '(`template_refused`). All are delivered ' +
            'when the follower writes again (a reminder only until its time). 404 for another owner’s bot.',
          tags: ['whatsapp'],
          params: Params,
          response: { 200: WaitingResponse, ...errorBodies(400, 401, 404) },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const db = adapter().db();
        const rows = await openWaitingOf(db, bot.id);
        const contacts = new Map<string, Awaited<ReturnType<typeof contactOf>>>();
        for (const r of rows)
          if (!contacts.has(r.chat_id)) contacts.set(r.chat_id, await contactOf(db, bot.id, r.chat_id));
        return {
          waiting: rows.map((r) => {
            const c = contacts.get(r.chat_id);
            return {
              id: r.id,
              chatId: r.chat_id,
              name: c?.push_name ?? null,
              phone: c?.phone_number ?? null,
              sender: r.sender,
              state: r.state,
              template: r.template,
              reason: WAITING_REASONS.find((x) => x === r.reason) ?? null,
              text: r.message.text,
              createdAt: iso(r.created_at),
              expiresAt: iso(r.expires_at),
            };
          }),
        };
      },
    );
  };
}
