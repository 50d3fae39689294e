/**
 * Who a broadcast reaches (issue 27 §5): the bot's followers by audience, read from the engine's
 * `followers` table. A follower's audience comes from their channel and id: `telegram`; `whatsapp`
 * for a linked number's followers (Baileys ids are JIDs, `…@s.whatsapp.net` or `…@lid`);
 * `whatsappCloud` for Cloud API followers (their id is the bare `wa_id`, digits); `web` for the
 * widget's and the IALanding's visitors (one browser counted once). The owner's test chats
 * (engine/test-channels.ts) and anonymous web visitors are never counted.
 */
import { type RawBuilder, sql } from 'kysely';
import { TEST_CHANNELS } from '../../engine/test-channels.ts';
import { AUDIENCES, type Audience, type AudienceAnswer, SENDABLE_AUDIENCES, type SkipReason } from './api.ts';
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

/** Why a follower of `audience` is skipped (blocked first), or null when it is sent to. */
function skipOf(audience: Audience, blocked: boolean): SkipReason | null {
  if (blocked) return 'blocked';
  return SENDABLE_AUDIENCES.includes(audience) ? null : 'template';
}

/**
 * Every follower of a bot a broadcast counts, ordered by channel then id (the order they are sent
 * in: Telegram's quick pace first, WhatsApp's slow one last). A web visitor known on both the widget
 * and the IALanding (one browser, one visitor id) is in once, on the widget.
 */
export async function audienceMembers(db: BroadcastsDb, chatbotId: string): Promise<AudienceMember[]> {
  const rows = await db
    .selectFrom('followers as f')
    .select(['f.channel', 'f.external_id'])
    .select(AUDIENCE_OF.as('audience'))
    .select(BLOCKED.as('blocked'))
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
      skip: skipOf(audience, Boolean(r.blocked)),
    });
  }
  return out;
}

/** The per-audience counts the owner sees before sending (`GET /api/broadcasts/:id/audience`). */
export function countAudience(members: readonly AudienceMember[]): AudienceAnswer {
  const audiences = AUDIENCES.map((audience) => {
    const mine = members.filter((m) => m.audience === audience);
    const sendable = SENDABLE_AUDIENCES.includes(audience);
    const leftOut = mine.filter((m) => m.skip !== null);
    return {
      audience,
      count: mine.length - leftOut.length,
      leftOut: leftOut.length,
      sendable,
      reason: sendable ? (leftOut.length ? ('blocked' as const) : null) : ('template' as const),
    };
  });
  return { audiences, reachable: audiences.reduce((n, a) => n + a.count, 0) };
}
