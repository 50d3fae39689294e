/**
 * The WhatsApp templates routes' contract (issue 28 §1, §4): the zod schemas of their answers,
 * shared by the routes (template-routes.ts) and the dashboard (browser-safe: zod only).
 */
import { z } from 'zod';

/** One template as the owner sees it. */
const Template = z.object({
  id: z.string(),
  name: z.string(),
  language: z.string(),
  status: z.string(),
  reason: z.string().nullable(),
  body: z.string(),
});

/** `GET/POST /api/whatsapp/:chatbotId/templates`'s answer: `cloud` false when the bot's WhatsApp is not a Cloud API number. */
export const TemplatesResponse = z.object({
  cloud: z.boolean(),
  templates: z.array(Template),
});

/** The reasons a message waits (cloud/template-texts.ts `WaitingReason`). */
export const WAITING_REASONS = ['template_sent', 'no_approved_template', 'template_refused'] as const;

/** One waiting message. */
const Waiting = z.object({
  id: z.string(),
  chatId: z.string(),
  /** The follower's WhatsApp profile name and number when known. */
  name: z.string().nullable(),
  phone: z.string().nullable(),
  sender: z.enum(['bot', 'owner']),
  /** `held`: the template went out, the message follows the follower's answer; `waiting`: none could. */
  state: z.enum(['held', 'waiting', 'delivered', 'expired']),
  template: z.string().nullable(),
  reason: z.enum(WAITING_REASONS).nullable(),
  text: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
/** `GET /api/whatsapp/:chatbotId/waiting`'s answer. */
export const WaitingResponse = z.object({ waiting: z.array(Waiting) });
/** See {@link TemplatesResponse}. */
export type TemplatesResponse = z.infer<typeof TemplatesResponse>;
/** See {@link WaitingResponse}. */
export type WaitingResponse = z.infer<typeof WaitingResponse>;
