/**
 * The message templates of the local Graph API server (test/servers/graph.ts; issue 28), as Meta
 * documents them: `POST /{waba-id}/message_templates` (name, language, category
 * UTILITY/MARKETING/AUTHENTICATION, a BODY whose `{{n}}` need an example and may not open or close
 * it) → `{ id, status: "PENDING", category }`; `GET /{waba-id}/message_templates` (`data[]` with
 * `status` and `rejected_reason`, `paging`); template sends checked (132001 for a template that is
 * not approved in that language, 132000 for a wrong parameter count); Meta's review, which posts
 * the `message_template_status_update` webhook.
 */
import { createHmac } from 'node:crypto';

/** A message template at the server (Graph `WhatsApp Message Template` node). */
export interface GraphTemplate {
  id: string;
  wabaId: string;
  name: string;
  language: string;
  category: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED' | 'PAUSED' | 'DISABLED';
  rejected_reason: string;
  components: Array<Record<string, unknown>>;
}

type GraphError = (status: number, code: number, message: string) => { status: number; body: unknown };

/** The templates and their wire format, for one server. */
export function templateStore(error: GraphError) {
  const templates = new Map<string, GraphTemplate>();
  let counter = 0;

  /** `GET`/`POST /{waba-id}/message_templates`, validated as Meta documents it. */
  const edge = (
    wabaId: string,
    method: string,
    body: Record<string, unknown> | null,
  ): { status: number; body: unknown } => {
    if (method === 'GET') {
      const data = [...templates.values()]
        .filter((t) => t.wabaId === wabaId)
        .map(({ wabaId: _w, ...t }) => t);
      return { status: 200, body: { data, paging: { cursors: { before: 'MAZDZD', after: 'MjQZD' } } } };
    }
    if (method !== 'POST') return error(400, 100, `Unsupported ${method} request`);
    const name = String(body?.name ?? '');
    const language = String(body?.language ?? '');
    const category = String(body?.category ?? '');
    if (!/^[a-z0-9_]{1,512}$/.test(name)) return error(400, 100, 'Invalid parameter (name)');
    if (!language) return error(400, 100, 'Invalid parameter (language)');
    if (!['UTILITY', 'MARKETING', 'AUTHENTICATION'].includes(category))
      return error(400, 100, 'Invalid parameter (category)');
    const components = (body?.components ?? []) as Array<Record<string, unknown>>;
    const bodyPart = components.find((c) => c.type === 'BODY');
    const text = String(bodyPart?.text ?? '');
    if (!text) return error(400, 100, 'Invalid parameter (components: BODY is required)');
    const params = text.match(/\{\{\d+\}\}/g) ?? [];
    if (params.length) {
      if (/^\s*\{\{\d+\}\}/.test(text) || /\{\{\d+\}\}\s*$/.test(text))
        return error(400, 100, 'Variables can’t be at the start or end of the template.');
      const example = (bodyPart?.example as { body_text?: string[][] } | undefined)?.body_text?.[0];
      if (!example || example.length !== params.length)
        return error(400, 100, 'Invalid parameter (example.body_text must give every variable)');
    }
    if (
      [...templates.values()].some((t) => t.wabaId === wabaId && t.name === name && t.language === language)
    )
      return error(400, 100, `Message template "${name}" already exists in ${language}`);
    const id = String(1_000_000 + ++counter);
    templates.set(id, {
      id,
      wabaId,
      name,
      language,
      category,
      status: 'PENDING',
      rejected_reason: 'NONE',
      components,
    });
    return { status: 200, body: { id, status: 'PENDING', category } };
  };

  /** Meta's refusals of a template send (132001: no such approved template; 132000: parameters). */
  const checkSend = (t: Record<string, unknown> | undefined, wabaId?: string) => {
    const code = (t?.language as { code?: string } | undefined)?.code;
    const found = [...templates.values()].find(
      (x) => x.name === t?.name && x.language === code && (wabaId === undefined || x.wabaId === wabaId),
    );
    if (found?.status !== 'APPROVED')
      return error(404, 132001, 'Template name does not exist in the translation');
    const text = String(found.components.find((c) => c.type === 'BODY')?.text ?? '');
    const expected = (text.match(/\{\{\d+\}\}/g) ?? []).length;
    const given = (
      ((t?.components ?? []) as Array<{ type: string; parameters?: unknown[] }>).find(
        (c) => c.type === 'body',
      )?.parameters ?? []
    ).length;
    if (given !== expected)
      return error(400, 132000, 'Number of parameters does not match the expected number of params');
    return undefined;
  };

  const review = async (
    t: { wabaId: string; name: string; language: string },
    event: 'APPROVED' | 'REJECTED' | 'PAUSED' | 'DISABLED',
    options: { reason?: string; webhook?: { url: string; appSecret: string } } = {},
  ): Promise<number | null> => {
    const found = [...templates.values()].find(
      (x) => x.wabaId === t.wabaId && x.name === t.name && x.language === t.language,
    );
    if (!found) throw new Error(`no template ${t.name} (${t.language}) at ${t.wabaId}`);
    found.status = event;
    found.rejected_reason = event === 'REJECTED' ? (options.reason ?? 'INVALID_FORMAT') : 'NONE';
    if (!options.webhook) return null;
    const raw = JSON.stringify(
      templateStatusWebhook(t.wabaId, {
        event,
        id: found.id,
        name: found.name,
        language: found.language,
        reason: event === 'REJECTED' ? found.rejected_reason : 'NONE',
      }),
    );
    const res = await fetch(options.webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': hubSignature(raw, options.webhook.appSecret),
      },
      body: raw,
    });
    return res.status;
  };

  /** Template messages sent from a number (their `template` objects), optionally to one recipient. */
  const sends = (
    calls: ReadonlyArray<{ method: string; path: string; body: Record<string, unknown> | null }>,
    phoneNumberId: string,
    to?: string,
  ) =>
    calls
      .filter(
        (c) =>
          c.method === 'POST' &&
          c.path === `${phoneNumberId}/messages` &&
          c.body?.type === 'template' &&
          (to === undefined || c.body?.to === to),
      )
      .map((c) => c.body!.template as Record<string, unknown>);

  return { templates, edge, checkSend, review, sends };
}

/** A `message_template_status_update` webhook body (WhatsApp Business Account webhooks). */
export function templateStatusWebhook(
  wabaId: string,
  t: { event: string; id: string; name: string; language: string; reason: string },
) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: wabaId,
        time: Math.floor(Date.now() / 1000),
        changes: [
          {
            field: 'message_template_status_update',
            value: {
              event: t.event,
              message_template_id: Number(t.id),
              message_template_name: t.name,
              message_template_language: t.language,
              reason: t.reason,
              message_template_category: 'UTILITY',
            },
          },
        ],
      },
    ],
  };
}

const hubSignature = (raw: string, appSecret: string) =>
  `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
