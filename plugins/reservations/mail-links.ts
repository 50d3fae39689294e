/**
 * The signed links of a web visitor's mails (issue 28 §2) and the booking's calendar file.
 *
 * - The link back (`/visit?t=<token>`) carries the bot, the channel (`web` or `ialanding`) and the
 *   visitor id the widget keeps in localStorage (`charla:<key>:visitor`), so the page it opens
 *   restores the same thread. The token is the payload (base64url JSON) and an HMAC-SHA256 of it
 *   under the instance secret (`ctx.secrets.derive`), so nobody can make one for another visitor.
 *   It lasts {@link VISIT_LINK_MS}.
 * - The unsubscribe link (`/reservations/unsubscribe?t=<token>`) carries the reservation id, signed
 *   for that purpose only (a link back is not an unsubscribe token and the reverse).
 * - The .ics (RFC 5545, the `ics` package, loaded at the first mail): one entry per reservation,
 *   UID `<reservationId>@charla` (the same as the owner's notification mails use), in UTC.
 */
import type { EventAttributes, ReturnObject } from 'ics';
import { z } from 'zod';
import type { PluginContext } from '../../engine/registry/index.ts';

/** How long a link back to the conversation works, ms (90 days). */
export const VISIT_LINK_MS = 90 * 24 * 3_600_000;

/** What a link back opens: the bot's conversation with one visitor on one channel. */
export const VisitLink = z.object({
  b: z.string().min(1).max(64),
  c: z.enum(['web', 'ialanding']),
  v: z.string().regex(/^[\w-]{1,128}$/),
  /** Expiry, ms since the epoch. */
  x: z.number().int(),
});
export type VisitLink = z.infer<typeof VisitLink>;

/** What an unsubscribe link stops: the mails of one reservation. */
export const UnsubscribeLink = z.object({ r: z.string().min(1).max(64) });
export type UnsubscribeLink = z.infer<typeof UnsubscribeLink>;

type Secrets = Pick<PluginContext, 'secrets'>;
const PURPOSE = { visit: 'reservations.visit-link', unsubscribe: 'reservations.unsubscribe' } as const;

/** Signs a payload for one purpose: `<base64url JSON>.<HMAC, 43 base64url characters>`. */
export function signToken(ctx: Secrets, purpose: keyof typeof PURPOSE, payload: object): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${ctx.secrets.derive(PURPOSE[purpose], body)}`;
}

/**
 * The payload of a token signed for `purpose` that `schema` accepts; null for anything else (a
 * wrong or truncated signature, another purpose's token, malformed JSON).
 */
export function verifyToken<T>(
  ctx: Secrets,
  purpose: keyof typeof PURPOSE,
  token: string,
  schema: z.ZodType<T>,
): T | null {
  const m = /^([A-Za-z0-9_-]{1,2000})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const expected = ctx.secrets.derive(PURPOSE[purpose], m[1]!);
  if (!timingSafeEqualText(expected, m[2]!)) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Compares two strings in time independent of where they differ. */
function timingSafeEqualText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The absolute link back to a visitor's conversation (null without a public URL). */
export function visitUrl(
  ctx: Secrets & Pick<PluginContext, 'publicUrl' | 'now'>,
  to: { chatbotId: string; channel: 'web' | 'ialanding'; chatId: string },
): string | null {
  if (!ctx.publicUrl) return null;
  const token = signToken(ctx, 'visit', {
    b: to.chatbotId,
    c: to.channel,
    v: to.chatId,
    x: ctx.now().getTime() + VISIT_LINK_MS,
  } satisfies VisitLink);
  return `${ctx.publicUrl.replace(/\/+$/, '')}/visit?t=${token}`;
}

/** The absolute unsubscribe link of a reservation's mails (null without a public URL). */
export function unsubscribeUrl(
  ctx: Secrets & Pick<PluginContext, 'publicUrl'>,
  reservationId: string,
): string | null {
  if (!ctx.publicUrl) return null;
  const token = signToken(ctx, 'unsubscribe', { r: reservationId } satisfies UnsubscribeLink);
  return `${ctx.publicUrl.replace(/\/+$/, '')}/reservations/unsubscribe?t=${token}`;
}

type CreateEvent = (attributes: EventAttributes) => ReturnObject;
let loaded: Promise<CreateEvent> | undefined;

/**
 * The .ics of a confirmed booking (nodemailer's attachment shape), or null when the library
 * refuses it. `title` names the business; `url` is the link back.
 */
export async function bookingIcs(
  r: { reservation_id: string; reservation_code: string; starts_at: Date | string; ends_at: Date | string },
  title: string,
  url: string | null,
): Promise<{ filename: string; content: string; contentType: string } | null> {
  loaded ??= import('ics').then((m) => m.createEvent as CreateEvent);
  const createEvent = await loaded;
  const start = new Date(r.starts_at).getTime();
  const minutes = Math.max(1, Math.round((new Date(r.ends_at).getTime() - start) / 60_000));
  const { error, value } = createEvent({
    productId: 'charla/reservations',
    method: 'PUBLISH',
    uid: `${r.reservation_id}@charla`,
    status: 'CONFIRMED',
    title: `${title} (${r.reservation_code})`,
    start,
    startInputType: 'utc',
    startOutputType: 'utc',
    duration: { minutes },
    ...(url && /^https?:\/\//.test(url) ? { url } : {}),
  });
  if (error || !value) return null;
  return {
    filename: `${r.reservation_code}.ics`,
    content: value,
    contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
  };
}
