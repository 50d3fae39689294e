/**
 * Who a broadcast reaches (issue 27 §5): the bot's followers by audience, read from the engine's
 * `followers` table. A follower's audience comes from their channel and id: `telegram`; `whatsapp`
 * for a linked number's followers (Baileys ids are JIDs, `…@s.whatsapp.net` or `…@lid`);
 * `whatsappCloud` for Cloud API followers (their id is the bare `wa_id`, digits); `web` for the
 * widget's and the IALanding's visitors (one browser counted once). The owner's test chats
 * (engine/test-channels.ts) and anonymous web visitors are never counted. Followers who opted out
 * (optout.ts) are counted and skipped (`optedOut`); Cloud API followers are sent to only when the
 * broadcast template ({@link BROADCAST_TEMPLATE_NAME}) is approved in the bot's language (issue 28 §1).
 */
import { type RawBuilder, sql } from 'kysely';
import { languageCode } from '../../engine/schemas.ts';
import { TEST_CHANNELS } from '../../engine/test-channels.ts';
import {
  AUDIENCES,
  type Audience,
  type AudienceAnswer,
  BROADCAST_TEMPLATE_NAME,
  SENDABLE_AUDIENCES,
  type SkipReason,
} from './api.ts';
import { OPTED_OUT } from './optout.ts';
import type { BroadcastsDb } from './tables.ts';

/** The audience of the follower row `f` (SQL), null for channels a broadcast never counts. */
const AUDIENCE_OF: RawBuilder<Audience | null> = sql<Audience | null>`case
  when f.channel = 'telegram' then 'telegram'
  when f.channel = 'whatsapp' and strpos(f.external_id, '@') > 0 then 'whatsapp'
  when f.channel = 'whatsapp' then 'whatsappCloud'
  when f.channel in ('web', 'ialanding') and f.external_id <> 'anonymous' then 'web'
  end`;

/**
 * The order a broadcast goes out in, by channel (SQL over the column `column`): Telegram at its
 * quick pace first, then the web's stored messages, WhatsApp's linked number (one a second) last.
 */
export function sendOrder(column: string): RawBuilder<number> {
  return sql<number>`case ${sql.ref(column)} when 'telegram' then 0 when 'web' then 1 when 'ialanding' then 2 else 3 end`;
}

/** Whether the follower row `f` blocked the bot and has not written since (SQL). */
const BLOCKED: RawBuilder<boolean> = sql<boolean>`exists (
  select 1 from broadcast_blocked x
  where x.chatbot_id = f.chatbot_id and x.channel = f.channel and x.chat_id = f.external_id
    and x.blocked_at >= f.last_seen_at)`;

/** One follower a broadcast counts: where to send, and whether and why it is skipped. */
export interface AudienceMember {
  channel: string;
  chatId: string;
  audience: Audience;
  skip: SkipReason | null;
}

/** Whether a broadcast reaches `audience` now (`whatsappCloud` only with the template approved). */
function sendableNow(audience: Audience, cloudTemplate: boolean): boolean {
  return SENDABLE_AUDIENCES.includes(audience) || (audience === 'whatsappCloud' && cloudTemplate);
}

/** Why a follower of `audience` is skipped (opted out, then blocked first), or null when it is sent to. */
function skipOf(
  audience: Audience,
  f: { blocked: boolean; optedOut: boolean },
  cloudTemplate: boolean,
): SkipReason | null {
  if (!sendableNow(audience, cloudTemplate)) return 'template';
  if (f.optedOut) return 'optedOut';
  if (f.blocked) return 'blocked';
  return null;
}

/**
 * Whether the bot's broadcast template (MARKETING, issue 28 §1) is approved by Meta in the bot's
 * language, the language the WhatsApp adapter always falls back to (so every Cloud follower can get
 * it). Read from the WhatsApp adapter's `whatsapp_templates` table; false when it does not exist.
 */
export async function cloudTemplateApproved(db: BroadcastsDb, chatbotId: string): Promise<boolean> {
  const exists = await sql<{ t: string | null }>`select to_regclass('whatsapp_templates')::text as t`.execute(
    db,
  );
  if (!exists.rows[0]?.t) return false;
  const bot = await db.selectFrom('chatbots').select('idioma').where('id', '=', chatbotId).executeTakeFirst();
  if (!bot) return false;
  const res = await sql<{ n: number }>`select count(*)::int as n from whatsapp_templates
    where chatbot_id = ${chatbotId} and name = ${BROADCAST_TEMPLATE_NAME} and status = 'APPROVED'
      and language = ${languageCode(bot.idioma)}`.execute(db);
  return (res.rows[0]?.n ?? 0) > 0;
}

/**
 * Every follower of a bot a broadcast counts, ordered by channel then id (the order they are sent
 * in: Telegram's quick pace first, WhatsApp's slow one last). A web visitor known on both the widget
 * and the IALanding (one browser, one visitor id) is in once, on the widget. `withText` false: the
 * broadcast has no text (Cloud followers skipped: the template carries only text).
 */
export async function audienceMembers(
  db: BroadcastsDb,
  chatbotId: string,
  withText = true,
): Promise<AudienceMember[]> {
  // The MARKETING template carries the broadcast's text: one with no text (a file, a voice note)
  // cannot reach a Cloud follower through it, so they are skipped (`template`).
  const cloudTemplate = withText && (await cloudTemplateApproved(db, chatbotId));
  const rows = await db
    .selectFrom('followers as f')
    .select(['f.channel', 'f.external_id'])
    .select(AUDIENCE_OF.as('audience'))
    .select(BLOCKED.as('blocked'))
    .select(OPTED_OUT.as('opted_out'))
    .where('f.chatbot_id', '=', chatbotId)
    .where('f.channel', 'not in', [...TEST_CHANNELS])
    .where(sql<boolean>`${AUDIENCE_OF} is not null`)
    .orderBy(sendOrder('f.channel'))
    .orderBy('f.external_id')
    .execute();
  const seenWeb = new Set<string>();
  const out: AudienceMember[] = [];
  for (const r of rows) {
    const audience = r.audience as Audience;
    if (audience === 'web') {
      if (seenWeb.has(r.external_id)) continue;
      seenWeb.add(r.external_id);
    }
    out.push({
      channel: r.channel,
      chatId: r.external_id,
      audience,
      skip: skipOf(audience, { blocked: Boolean(r.blocked), optedOut: Boolean(r.opted_out) }, cloudTemplate),
    });
  }
  return out;
}

/**
 * The per-audience counts the owner sees before sending (`GET /api/broadcasts/:id/audience`);
 * `cloudTemplate`: {@link cloudTemplateApproved}.
 */
export function countAudience(members: readonly AudienceMember[], cloudTemplate: boolean): AudienceAnswer {
  const audiences = AUDIENCES.map((audience) => {
    const mine = members.filter((m) => m.audience === audience);
    const sendable = sendableNow(audience, cloudTemplate);
    const leftOut = mine.filter((m) => m.skip !== null);
    const reasons = [...new Set(leftOut.map((m) => m.skip))];
    return {
      audience,
      count: mine.length - leftOut.length,
      leftOut: leftOut.length,
      sendable,
      reason: sendable ? (reasons.length === 1 ? reasons[0]! : null) : ('template' as const),
    };
  });
  return { audiences, reachable: audiences.reduce((n, a) => n + a.count, 0) };
}
