/**
 * A local server that speaks the Graph API's documented wire format for the WhatsApp Cloud API
 * (WhatsApp Business Platform), so the Cloud API backend is tested against real HTTP:
 *
 * - `POST /{version}/{phone-number-id}/messages`: text, media by id, interactive lists and the
 *   typing indicator (`status: read` + `typing_indicator`); answers `messages[0].id` (`wamid…`), or
 *   Graph errors: 190 for a bad token, 131047 for a recipient outside the 24-hour window;
 * - `POST /{version}/{phone-number-id}/media` (multipart `file`, `type`, `messaging_product`);
 * - `GET /{version}/{media-id}` → `url`, then that URL with the token → the bytes;
 * - `GET /{version}/{phone-number-id}` (the number's node), `POST /{waba-id}/subscribed_apps`;
 * - business discovery: `GET /me/businesses`, `GET /{business-id}/owned_whatsapp_business_accounts`,
 *   `GET /{waba-id}/phone_numbers`, and `GET /oauth/access_token` (fb_exchange_token).
 *
 * - message templates (issue 28): `POST /{waba-id}/message_templates` (name, language, category
 *   UTILITY/MARKETING/AUTHENTICATION, components with a BODY whose `{{n}}` need an example, not at
 *   its start or end) → `{ id, status: "PENDING", category }`; `GET /{waba-id}/message_templates`
 *   (`data[]` with status and `rejected_reason`, `paging`); `POST /{template-id}` (edit: reviewed
 *   again); template sends (`type: "template"`): only an APPROVED template, with as many body
 *   parameters as `{{n}}`, and delivered outside the 24-hour window too, where a free-form message
 *   answers 131047. {@link FakeGraph.reviewTemplate} approves or rejects one and posts the
 *   `message_template_status_update` webhook, signed, to Charla.
 *
 * It also builds webhook bodies (`entry[].changes[].value.messages|statuses`) and posts them signed
 * with `X-Hub-Signature-256` like Meta does.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type GraphTemplate, templateStore } from './graph-templates.ts';

export { type GraphTemplate, templateStatusWebhook } from './graph-templates.ts';

/** One call the server received. */
export interface GraphCall {
  method: string;
  /** The path after the version, e.g. `123/messages`. */
  path: string;
  token: string | null;
  body: Record<string, unknown> | null;
  at: number;
}

/** A business phone number the server knows. */
export interface GraphNumber {
  id: string;
  display_phone_number: string;
  verified_name: string;
  /** Tokens allowed to use it. */
  tokens: string[];
  /** The WhatsApp Business Account it belongs to (its templates are that account's). */
  wabaId?: string;
}

export interface FakeGraph {
  url: string;
  calls: GraphCall[];
  /** Uploaded media by id. */
  uploads: Map<string, { bytes: Buffer; mime: string; filename: string }>;
  /** Media followers sent, downloadable by id. */
  media: Map<string, { bytes: Buffer; mime: string }>;
  /** Recipients whose 24-hour window is closed: free-form messages to them answer 131047. */
  closedWindows: Set<string>;
  /** Message templates by id (issue 28). */
  templates: Map<string, GraphTemplate>;
  /**
   * Meta's review of a template: sets its status (and reason) and, with `webhook`, posts the
   * `message_template_status_update` webhook to it signed with `appSecret`; answers the HTTP status.
   */
  reviewTemplate(
    t: { wabaId: string; name: string; language: string },
    event: 'APPROVED' | 'REJECTED' | 'PAUSED' | 'DISABLED',
    options?: { reason?: string; webhook?: { url: string; appSecret: string } },
  ): Promise<number | null>;
  /** Template messages sent from a number (their `template` objects), optionally to one recipient. */
  templateSends(phoneNumberId: string, to?: string): Array<Record<string, unknown>>;
  addNumber(n: GraphNumber): void;
  /** A user (Facebook login) token and what it sees. */
  addUser(
    token: string,
    data: {
      businesses: Array<{ id: string; name: string }>;
      wabas?: Record<string, Array<{ id: string; name: string }>>;
      numbers?: Record<string, Array<{ id: string; display_phone_number: string; verified_name: string }>>;
    },
  ): void;
  /** Messages sent (not typing indicators) from a number, optionally to one recipient. */
  messages(phoneNumberId: string, to?: string): Array<Record<string, unknown>>;
  /** Typing indicators shown (their message ids). */
  typing(phoneNumberId: string): string[];
  waitFor<T>(check: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** Starts the server on a free port. */
export async function startFakeGraph(): Promise<FakeGraph> {
  const calls: GraphCall[] = [];
  const numbers = new Map<string, GraphNumber>();
  const users = new Map<string, Parameters<FakeGraph['addUser']>[1]>();
  const longLived = new Map<string, string>();
  const uploads = new Map<string, { bytes: Buffer; mime: string; filename: string }>();
  const media = new Map<string, { bytes: Buffer; mime: string }>();
  const closedWindows = new Set<string>();
  let counter = 0;
  let base = '';

  const error = (status: number, code: number, message: string) => ({
    status,
    body: { error: { message, type: 'OAuthException', code, fbtrace_id: 'AbCdEf' } },
  });
  const tpl = templateStore(error);
  const templates = tpl.templates;

  const handle = async (
    req: IncomingMessage,
    raw: Buffer,
  ): Promise<{ status: number; body: unknown; bytes?: Buffer; type?: string }> => {
    const url = new URL(req.url ?? '/', base);
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '') || null;
    if (url.pathname.startsWith('/download/')) {
      const id = url.pathname.slice('/download/'.length);
      const m = media.get(id);
      if (!m || token === null || ![...numbers.values()].some((n) => n.tokens.includes(token)))
        return { status: 401, body: 'unauthorized' };
      return { status: 200, body: null, bytes: m.bytes, type: m.mime };
    }
    const match = /^\/v\d+\.\d+\/(.+)$/.exec(url.pathname);
    if (!match) return error(400, 2500, 'Unknown path components');
    const path = match[1]!;
    let body: Record<string, unknown> | null = null;
    const type = req.headers['content-type'] ?? '';
    if (type.startsWith('application/json') && raw.length) body = JSON.parse(raw.toString('utf8'));
    else if (type.startsWith('multipart/form-data')) {
      const form = await new Request(url, {
        method: 'POST',
        headers: { 'content-type': type },
        body: raw,
      }).formData();
      const file = form.get('file') as File;
      body = {
        messaging_product: form.get('messaging_product'),
        type: form.get('type'),
        file: { name: file.name, size: file.size, bytes: Buffer.from(await file.arrayBuffer()) },
      };
    }
    calls.push({ method: req.method ?? 'GET', path, token, body, at: Date.now() });

    if (path === 'oauth/access_token') {
      const short = url.searchParams.get('fb_exchange_token') ?? '';
      if (url.searchParams.get('grant_type') !== 'fb_exchange_token' || !users.has(short))
        return error(400, 190, 'Invalid OAuth access token.');
      const long = `EAALONG${short}`;
      longLived.set(long, short);
      return { status: 200, body: { access_token: long, token_type: 'bearer', expires_in: 5_184_000 } };
    }
    const user = token ? (users.get(token) ?? users.get(longLived.get(token) ?? '')) : undefined;
    const numberFor = (id: string) => {
      const n = numbers.get(id);
      return n && token && (n.tokens.includes(token) || user) ? n : undefined;
    };
    if (!token || (!user && ![...numbers.values()].some((n) => n.tokens.includes(token))))
      return error(401, 190, 'Invalid OAuth access token - Cannot parse access token');

    if (path === 'me/businesses' && req.method === 'GET')
      return { status: 200, body: { data: user?.businesses ?? [] } };
    const parts = path.split('/');
    const [id, edge] = [parts[0]!, parts[1]];
    if (edge === 'owned_whatsapp_business_accounts')
      return { status: 200, body: { data: user?.wabas?.[id] ?? [] } };
    if (edge === 'phone_numbers') return { status: 200, body: { data: user?.numbers?.[id] ?? [] } };
    if (edge === 'subscribed_apps' && req.method === 'POST') return { status: 200, body: { success: true } };
    if (edge === 'message_templates') return tpl.edge(id, req.method ?? 'GET', body);
    if (!edge && req.method === 'POST' && templates.has(id)) {
      // Editing a template (its components): Meta reviews it again.
      const t = templates.get(id)!;
      if (Array.isArray(body?.components)) t.components = body.components as GraphTemplate['components'];
      t.status = 'PENDING';
      t.rejected_reason = 'NONE';
      return { status: 200, body: { success: true } };
    }
    if (edge === 'media' && req.method === 'POST') {
      if (!numberFor(id)) return error(400, 100, 'Unsupported post request');
      const file = body?.file as { name: string; bytes: Buffer };
      const mediaId = String(900_000 + ++counter);
      uploads.set(mediaId, { bytes: file.bytes, mime: String(body?.type), filename: file.name });
      return { status: 200, body: { id: mediaId } };
    }
    if (edge === 'messages' && req.method === 'POST') {
      if (!numberFor(id)) return error(400, 100, 'Unsupported post request');
      if (body?.messaging_product !== 'whatsapp') return error(400, 100, 'messaging_product is required');
      if (body.status === 'read') return { status: 200, body: { success: true } };
      const to = String(body.to);
      if (body.type === 'template') {
        const refused = tpl.checkSend(
          body.template as Record<string, unknown> | undefined,
          numbers.get(id)?.wabaId,
        );
        if (refused) return refused;
      } else if (closedWindows.has(to))
        return error(
          400,
          131047,
          'Re-engagement message: More than 24 hours have passed since the recipient last replied to the sender number.',
        );
      return {
        status: 200,
        body: {
          messaging_product: 'whatsapp',
          contacts: [{ input: to, wa_id: to }],
          messages: [{ id: `wamid.OUT${String(++counter).padStart(8, '0')}` }],
        },
      };
    }
    if (!edge && req.method === 'GET') {
      const n = numbers.get(id);
      if (n)
        return n.tokens.includes(token) || user
          ? { status: 200, body: n }
          : error(400, 100, 'Object does not exist');
      const m = media.get(id);
      if (m)
        return {
          status: 200,
          body: { id, url: `${base}/download/${id}`, mime_type: m.mime, file_size: m.bytes.length },
        };
    }
    return error(400, 100, `Unsupported ${req.method} request: ${path}`);
  };

  const server: Server = createServer((req, res) => {
    readBody(req)
      .then((raw) => handle(req, raw))
      .then((out) => {
        if (out.bytes) {
          res.writeHead(out.status, { 'content-type': out.type ?? 'application/octet-stream' });
          res.end(out.bytes);
          return;
        }
        res.writeHead(out.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(out.body));
      })
      .catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(err), code: 1 } }));
      });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  return {
    url: base,
    calls,
    uploads,
    media,
    closedWindows,
    templates,
    reviewTemplate: tpl.review,
    templateSends: (phoneNumberId, to) => tpl.sends(calls, phoneNumberId, to),
    addNumber: (n) => numbers.set(n.id, n),
    addUser: (token, data) => users.set(token, data),
    messages: (phoneNumberId, to) =>
      calls
        .filter(
          (c) =>
            c.method === 'POST' &&
            c.path === `${phoneNumberId}/messages` &&
            c.body?.status !== 'read' &&
            (to === undefined || c.body?.to === to),
        )
        .map((c) => c.body!),
    typing: (phoneNumberId) =>
      calls
        .filter((c) => c.path === `${phoneNumberId}/messages` && c.body?.status === 'read')
        .map((c) => String(c.body?.message_id)),
    async waitFor(check, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const v = check();
        if (v) return v;
        if (Date.now() > deadline) throw new Error('timed out waiting for the Graph server');
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let wamids = 0;

/** A webhook body with one follower message (WhatsApp Cloud API webhooks, `messages` field). */
export function messageWebhook(
  phoneNumberId: string,
  from: { waId: string; name?: string },
  message: Record<string, unknown>,
  options: { id?: string; timestamp?: number } = {},
) {
  const id = options.id ?? `wamid.IN${String(++wamids).padStart(10, '0')}`;
  return {
    id,
    body: {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'WABA-ID',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550001234', phone_number_id: phoneNumberId },
                contacts: [{ profile: { name: from.name ?? 'Seguidor' }, wa_id: from.waId }],
                messages: [
                  {
                    from: from.waId,
                    id,
                    timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
                    ...message,
                  },
                ],
              },
            },
          ],
        },
      ],
    },
  };
}

/** A webhook body with delivery statuses of messages the business sent. */
export function statusWebhook(
  phoneNumberId: string,
  statuses: Array<{ id: string; status: string; recipient: string; timestamp: number; errorCode?: number }>,
) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'WABA-ID',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550001234', phone_number_id: phoneNumberId },
              statuses: statuses.map((s) => ({
                id: s.id,
                status: s.status,
                timestamp: String(s.timestamp),
                recipient_id: s.recipient,
                ...(s.errorCode ? { errors: [{ code: s.errorCode, title: 'Re-engagement message' }] } : {}),
              })),
            },
          },
        ],
      },
    ],
  };
}

/** `X-Hub-Signature-256` of a raw body (HMAC-SHA256 with the app secret, as Meta signs). */
export function hubSignature(raw: string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
}
