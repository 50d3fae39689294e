/**
 * The business discovery of the Facebook login flow (spec 000 §4/§7; issue 13), one step per call so
 * the dashboard shows each state: `POST /api/meta/businesses` (the first business of the login) and
 * `POST /api/meta/whatsapp-accounts` (that business's first WhatsApp Business Account and number).
 * Owner routes; 400 when the server has no META_APP_ID or Meta refuses the token (a Graph 4xx), 502
 * when Meta cannot be reached or fails, each with Meta's reason.
 *
 * And what the Cloud API form needs (issue 28 §3): `GET /api/whatsapp-cloud-setup`, the exact
 * webhook URL and verify token to paste in the Meta app, and whether Meta can reach that address.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestLanguage } from '../../../engine/auth/mail.ts';
import { AppError } from '../../../engine/errors.ts';
import { PRINTABLE_ASCII } from '../../../engine/schemas.ts';
import { errorBodies } from '../../shared/channel-api.ts';
import { CloudSetupResponse } from '../api.ts';
import type { WhatsAppAdapter } from '../contract.ts';
import { fillText, PUBLIC_URL_WARNINGS, WHATSAPP_ERRORS } from '../texts.ts';
import { describeGraphError, isPermanentGraph } from './graph.ts';
import { publicUrlProblem } from './public-url.ts';

/** Graph ids are digits. */
const GRAPH_ID = /^\d{1,40}$/;

/**
 * A Meta access token as the forms take it (issue 24 §7): at most 1,024 characters of printable
 * ASCII (Meta's tokens are letters and digits; spaces around it are trimmed later). It goes to the
 * Graph API in an `Authorization: Bearer` header, where a character outside Latin-1 (or a NUL, a
 * line break) makes `fetch` throw before anything is sent: refused here with a 400, not a 502.
 */
export const MetaAccessToken = z
  .string()
  .max(1024)
  .regex(
    PRINTABLE_ASCII,
    'el token de acceso solo puede tener letras, números y signos ASCII (cópialo de nuevo desde Meta)',
  );

export function metaRoutes(adapter: () => WhatsAppAdapter): FastifyPluginAsyncZod {
  return async (app) => {
    const metaToken = z.object({ accessToken: MetaAccessToken.min(1) });
    const needMeta = () => {
      if (!adapter().settings().META_APP_ID)
        throw new AppError('BAD_REQUEST', WHATSAPP_ERRORS.metaNotConfigured);
    };
    // Meta refusing the owner's token or a permission (a 4xx other than its rate limits) is the
    // request's fault: 400 with Meta's reason (issue 24 §7); Meta down or busy is 502.
    const metaFailure = (err: unknown): never => {
      if (err instanceof AppError) throw err;
      throw new AppError(
        isPermanentGraph(err) ? 'BAD_REQUEST' : 'UPSTREAM',
        fillText(WHATSAPP_ERRORS.metaUnexpected, { reason: describeGraphError(err) }),
      );
    };

    app.get(
      '/api/whatsapp-cloud-setup',
      {
        config: { owner: { self: true } },
        schema: {
          summary: 'What to enter in the Meta app for the Cloud API webhook',
          description:
            'Issue 28 §3: the exact callback URL (`<public address>/channels/whatsapp`; the public address is ' +
            'the server’s configured one, else the address this request came to) and the verify token to ' +
            'paste in the Meta app’s WhatsApp › Configuration, and `publicUrlReachable`: false when Meta cannot ' +
            'call that address (a local or private host such as 127.0.0.1 or localhost: `problem` `private`; ' +
            'plain http: `notHttps`), with `warning`, the owner-facing explanation in the request’s language. ' +
            'The same for every owner (one webhook per server); 401 without a session.',
          tags: ['whatsapp'],
          response: { 200: CloudSetupResponse, ...errorBodies(401) },
        },
      },
      async (req) => {
        const wa = adapter();
        const base = wa.context().publicUrl ?? `${req.protocol}://${req.host}`;
        const webhookUrl = `${base.replace(/\/+$/, '')}/channels/whatsapp`;
        const problem = publicUrlProblem(webhookUrl);
        return {
          webhookUrl,
          verifyToken: wa.verifyToken(),
          publicUrlReachable: problem === null,
          problem,
          warning: problem
            ? fillText(PUBLIC_URL_WARNINGS[requestLanguage(req.headers)][problem], { url: base })
            : null,
        };
      },
    );

    app.post(
      '/api/meta/businesses',
      {
        config: { owner: { self: true } },
        schema: {
          summary: 'The first business of a Facebook login',
          description:
            'Spec 000 §4/§7, step "fetching_businesses" of the Meta connection: `GET /me/businesses` with the ' +
            'token of the owner’s Facebook login; the first entry is used. 404 when the account manages no ' +
            'business, 400 when the server has no META_APP_ID or Meta refuses the token, 502 when Meta cannot be ' +
            'reached or fails.',
          tags: ['whatsapp'],
          body: metaToken,
          response: {
            200: z.object({ business: z.object({ id: z.string(), name: z.string() }) }),
            ...errorBodies(400, 401, 404, 502),
          },
        },
      },
      async (req) => {
        needMeta();
        const res = await adapter()
          .graph(req.body.accessToken)
          .call<{ data?: Array<{ id: string; name?: string }> }>('GET', 'me/businesses?fields=id,name')
          .catch(metaFailure);
        const first = res.data?.[0];
        if (!first) throw new AppError('NOT_FOUND', WHATSAPP_ERRORS.metaNoBusinesses);
        return { business: { id: first.id, name: first.name ?? '' } };
      },
    );

    app.post(
      '/api/meta/whatsapp-accounts',
      {
        config: { owner: { self: true } },
        schema: {
          summary: 'The first WhatsApp Business Account and number of a business',
          description:
            'Spec 000 §4/§7, step "fetching_whatsapp": the business’s WhatsApp Business Accounts ' +
            '(`GET /{business-id}/owned_whatsapp_business_accounts`, the Graph API’s edge for what the spec ' +
            'calls `whatsapp_business_accounts`) and that account’s phone numbers (`GET /{waba-id}/phone_numbers`: ' +
            'id, display_phone_number); the first of each. 404 when there is none.',
          tags: ['whatsapp'],
          body: metaToken.extend({ businessId: z.string().regex(GRAPH_ID) }),
          response: {
            200: z.object({
              account: z.object({ id: z.string(), name: z.string() }),
              phoneNumber: z.object({
                id: z.string(),
                display_phone_number: z.string(),
                verified_name: z.string(),
              }),
            }),
            ...errorBodies(400, 401, 404, 502),
          },
        },
      },
      async (req) => {
        needMeta();
        const graph = adapter().graph(req.body.accessToken);
        const accounts = await graph
          .call<{ data?: Array<{ id: string; name?: string }> }>(
            'GET',
            `${req.body.businessId}/owned_whatsapp_business_accounts?fields=id,name`,
          )
          .catch(metaFailure);
        const account = accounts.data?.[0];
        if (!account) throw new AppError('NOT_FOUND', WHATSAPP_ERRORS.metaNoWhatsApp);
        const numbers = await graph
          .call<{ data?: Array<{ id: string; display_phone_number?: string; verified_name?: string }> }>(
            'GET',
            `${account.id}/phone_numbers?fields=id,display_phone_number,verified_name`,
          )
          .catch(metaFailure);
        const number = numbers.data?.[0];
        if (!number) throw new AppError('NOT_FOUND', WHATSAPP_ERRORS.metaNoWhatsApp);
        return {
          account: { id: account.id, name: account.name ?? '' },
          phoneNumber: {
            id: number.id,
            display_phone_number: number.display_phone_number ?? '',
            verified_name: number.verified_name ?? '',
          },
        };
      },
    );
  };
}
