/**
 * Reading Cloud API webhooks (WhatsApp Business Platform, webhooks `messages` field): a POST
 * carries `entry[].changes[].value` with `metadata.phone_number_id` (the business number it is
 * for), the senders' `contacts[]` (profile name, `wa_id`), `messages[]` from followers and
 * `statuses[]` of messages the business sent (sent, delivered, read, failed; not in order). The
 * body is validated loosely: unknown fields and message types are kept or skipped, never refused.
 */
import { z } from 'zod';
import type { ReceivedKind } from '../../../engine/conversation/texts.ts';
import type { WaInbound } from '../shared/types.ts';

const Media = z.looseObject({
  id: z.string(),
  mime_type: z.string().optional(),
  caption: z.string().optional(),
});

const Message = z.looseObject({
  from: z.string(),
  id: z.string(),
  timestamp: z.string(),
  type: z.string(),
  text: z.looseObject({ body: z.string() }).optional(),
  image: Media.optional(),
  video: Media.optional(),
  audio: Media.extend({ voice: z.boolean().optional() }).optional(),
  document: Media.extend({ filename: z.string().optional() }).optional(),
  sticker: Media.optional(),
  interactive: z
    .looseObject({
      type: z.string(),
      list_reply: z.looseObject({ id: z.string(), title: z.string() }).optional(),
      button_reply: z.looseObject({ id: z.string(), title: z.string() }).optional(),
    })
    .optional(),
  button: z.looseObject({ text: z.string(), payload: z.string().optional() }).optional(),
});

const Status = z.looseObject({
  id: z.string(),
  status: z.string(),
  timestamp: z.string(),
  recipient_id: z.string(),
  errors: z.array(z.looseObject({ code: z.number(), title: z.string().optional() })).optional(),
});

const Value = z.looseObject({
  messaging_product: z.string().optional(),
  metadata: z.looseObject({ phone_number_id: z.string(), display_phone_number: z.string().optional() }),
  contacts: z
    .array(z.looseObject({ wa_id: z.string(), profile: z.looseObject({ name: z.string() }).optional() }))
    .optional(),
  messages: z.array(Message).optional(),
  statuses: z.array(Status).optional(),
});

/**
 * Issue 28: a `message_template_status_update` change (WhatsApp Business Account webhooks): the
 * template's new status in `event` (APPROVED, REJECTED, PENDING, PAUSED, DISABLED, …), its name and
 * language, and Meta's `reason` (`NONE` on approval). The entry's `id` is the account's id.
 */
export const TemplateStatusValue = z.looseObject({
  event: z.string().min(1).max(40),
  message_template_id: z.union([z.number(), z.string()]).optional(),
  message_template_name: z.string().min(1).max(512),
  message_template_language: z.string().min(1).max(20),
  reason: z.string().max(2000).nullable().optional(),
});
export type TemplateStatusValue = z.infer<typeof TemplateStatusValue>;

/** The webhook body: `object` `whatsapp_business_account` with its entries. */
export const WebhookBody = z.looseObject({
  object: z.string(),
  entry: z.array(
    z.looseObject({
      id: z.string(),
      changes: z.array(z.looseObject({ field: z.string(), value: z.unknown() })),
    }),
  ),
});
export type WebhookBody = z.infer<typeof WebhookBody>;
export type CloudStatus = z.infer<typeof Status>;

/** What one webhook carries, per business phone number id. */
export interface WebhookItems {
  messages: Array<{ phoneNumberId: string; message: WaInbound }>;
  statuses: Array<{ phoneNumberId: string; status: CloudStatus }>;
  /** Issue 28: template status changes, by WhatsApp Business Account id. */
  templates: Array<{ wabaId: string; value: TemplateStatusValue }>;
}

/** The WhatsApp Business Account ids of a webhook's template status changes (issue 28). */
export function templateAccountIds(body: WebhookBody): string[] {
  return [
    ...new Set(
      body.entry
        .filter((e) => e.changes.some((c) => c.field === 'message_template_status_update'))
        .map((e) => e.id),
    ),
  ];
}

/** The phone number ids a webhook is for (each must pass the signature check of its own app). */
export function phoneNumberIds(body: WebhookBody): string[] {
  const ids = new Set<string>();
  for (const e of body.entry)
    for (const c of e.changes) {
      const v = Value.safeParse(c.value);
      if (v.success) ids.add(v.data.metadata.phone_number_id);
    }
  return [...ids];
}

/** Splits a webhook into follower messages (normalised) and delivery statuses. */
export function readWebhook(body: WebhookBody): WebhookItems {
  const out: WebhookItems = { messages: [], statuses: [], templates: [] };
  for (const entry of body.entry) {
    for (const change of entry.changes) {
      if (change.field === 'message_template_status_update') {
        const t = TemplateStatusValue.safeParse(change.value);
        if (t.success) out.templates.push({ wabaId: entry.id, value: t.data });
        continue;
      }
      if (change.field !== 'messages') continue;
      const parsed = Value.safeParse(change.value);
      if (!parsed.success) continue;
      const value = parsed.data;
      const phoneNumberId = value.metadata.phone_number_id;
      const names = new Map((value.contacts ?? []).map((c) => [c.wa_id, c.profile?.name ?? null]));
      for (const m of value.messages ?? []) {
        const message = normalizeCloud(m, names.get(m.from) ?? null);
        if (message) out.messages.push({ phoneNumberId, message });
      }
      for (const status of value.statuses ?? []) out.statuses.push({ phoneNumberId, status });
    }
  }
  return out;
}

/** One Cloud API message as the inbox stores it, or null for a type the bot does not answer. */
function normalizeCloud(m: z.infer<typeof Message>, pushName: string | null): WaInbound | null {
  let text = '';
  let media: WaInbound['media'] = null;
  let pickedFileId: string | null = null;
  const mediaOf = (kind: ReceivedKind, x: z.infer<typeof Media> | undefined) =>
    x ? { kind, channelFileId: x.id, mime: x.mime_type ?? null } : null;
  switch (m.type) {
    case 'text':
      text = m.text?.body ?? '';
      break;
    case 'image':
      media = mediaOf('photo', m.image);
      text = m.image?.caption ?? '';
      break;
    case 'video':
      media = mediaOf('video', m.video);
      text = m.video?.caption ?? '';
      break;
    case 'audio':
      media = mediaOf(m.audio?.voice ? 'voice' : 'audio', m.audio);
      break;
    case 'document':
      media = mediaOf('document', m.document);
      text = m.document?.caption ?? '';
      break;
    case 'sticker':
      media = mediaOf('sticker', m.sticker);
      break;
    case 'interactive': {
      const reply = m.interactive?.list_reply ?? m.interactive?.button_reply;
      text = reply?.title ?? '';
      if (reply?.id.startsWith('f:')) pickedFileId = reply.id.slice(2);
      break;
    }
    case 'button':
      text = m.button?.text ?? '';
      break;
    default:
      return null; // reactions, locations, contacts, unsupported: nothing to answer
  }
  text = text.trim();
  if (!text && !media && !pickedFileId) return null;
  return {
    backend: 'cloud',
    chatId: m.from,
    waMessageId: m.id,
    text,
    pushName,
    phone: /^\d+$/.test(m.from) ? m.from : null,
    timestamp: Number(m.timestamp),
    media,
    pickedFileId,
    raw: null,
  };
}
