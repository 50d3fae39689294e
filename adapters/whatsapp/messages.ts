/**
 * The WhatsApp channel's message records and contacts in SQL (issue 13): outgoing and incoming
 * message records (delivery statuses, `getMessage` retries) and followers' WhatsApp ids and numbers.
 */
import { sql } from 'kysely';
import type { WaDb } from './tables.ts';

/** How far a delivery status has got; a late webhook never moves a message back (read before delivered). */
export const STATUS_RANK: Record<string, number> = { sent: 1, delivered: 2, read: 3, played: 4, failed: 9 };

/** A `whatsapp_messages` row's identity and content. */
function messageRow(
  m: { chatbotId: string; messageId: string; chatId: string; content: string | null },
  direction: 'in' | 'out',
) {
  return {
    chatbot_id: m.chatbotId,
    message_id: m.messageId,
    direction,
    chat_id: m.chatId,
    content: m.content,
  };
}

/** Stores a message the bot sent (Baileys keeps its content for `getMessage` retries). */
export async function storeOutgoing(
  db: WaDb,
  m: { chatbotId: string; messageId: string; chatId: string; content: string | null },
): Promise<void> {
  await db
    .insertInto('whatsapp_messages')
    .values({
      ...messageRow(m, 'out'),
      status: 'sent',
      status_rank: STATUS_RANK.sent,
    })
    .onConflict((oc) =>
      oc.columns(['chatbot_id', 'message_id']).doUpdateSet({ content: (eb) => eb.ref('excluded.content') }),
    )
    .execute();
}

/**
 * Records a delivery status (Cloud API `statuses[]`): kept only when it is further than what is
 * stored, so out-of-order webhooks never move a message back; a status for a message not stored
 * yet (the webhook beat the send's answer) creates its row.
 */
export async function recordStatus(
  db: WaDb,
  s: {
    chatbotId: string;
    messageId: string;
    chatId: string;
    status: string;
    at: Date;
    errorCode: number | null;
    errorTitle: string | null;
  },
): Promise<void> {
  const rank = STATUS_RANK[s.status] ?? 0;
  await db
    .insertInto('whatsapp_messages')
    .values({
      chatbot_id: s.chatbotId,
      message_id: s.messageId,
      direction: 'out',
      chat_id: s.chatId,
      status: s.status,
      status_rank: rank,
      status_at: s.at,
      error_code: s.errorCode,
      error_title: s.errorTitle,
    })
    .onConflict((oc) =>
      oc
        .columns(['chatbot_id', 'message_id'])
        .doUpdateSet({
          status: (eb) => eb.ref('excluded.status'),
          status_rank: (eb) => eb.ref('excluded.status_rank'),
          status_at: (eb) => eb.ref('excluded.status_at'),
          error_code: (eb) => eb.ref('excluded.error_code'),
          error_title: (eb) => eb.ref('excluded.error_title'),
        })
        .where('whatsapp_messages.status_rank', '<', rank),
    )
    .execute();
}

/** A stored message's status (tests, the owner's view). */
export async function messageStatus(db: WaDb, chatbotId: string, messageId: string) {
  return db
    .selectFrom('whatsapp_messages')
    .select(['status', 'status_at', 'error_code', 'error_title', 'direction', 'chat_id'])
    .where('chatbot_id', '=', chatbotId)
    .where('message_id', '=', messageId)
    .executeTakeFirst();
}

/** Stores a follower's media message (linked device) so its bytes can be downloaded later. */
export async function storeIncoming(
  db: WaDb,
  m: { chatbotId: string; messageId: string; chatId: string; content: string },
): Promise<void> {
  await db
    .insertInto('whatsapp_messages')
    .values(messageRow(m, 'in'))
    .onConflict((oc) => oc.columns(['chatbot_id', 'message_id']).doNothing())
    .execute();
}

/** The stored content of a message in one direction, or undefined. */
export async function messageContent(
  db: WaDb,
  chatbotId: string,
  messageId: string,
  direction: 'in' | 'out',
): Promise<string | undefined> {
  const row = await db
    .selectFrom('whatsapp_messages')
    .select('content')
    .where('chatbot_id', '=', chatbotId)
    .where('message_id', '=', messageId)
    .where('direction', '=', direction)
    .executeTakeFirst();
  return row?.content ?? undefined;
}

/** Deletes message records older than `before` (their statuses and retry content are no longer needed). */
export async function pruneMessages(db: WaDb, before: Date): Promise<number> {
  const res = await db.deleteFrom('whatsapp_messages').where('created_at', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}

// ---------------------------------------------------------------- contacts

/** Records a follower's message: their phone when known, their name, and the latest message time. */
export async function touchContact(
  db: WaDb,
  c: { chatbotId: string; waId: string; phoneNumber: string | null; pushName: string | null; at: Date },
): Promise<void> {
  await db
    .insertInto('whatsapp_contacts')
    .values({
      chatbot_id: c.chatbotId,
      wa_id: c.waId,
      phone_number: c.phoneNumber,
      push_name: c.pushName,
      last_inbound_at: c.at,
    })
    .onConflict((oc) =>
      oc.columns(['chatbot_id', 'wa_id']).doUpdateSet({
        phone_number: sql`coalesce(excluded.phone_number, whatsapp_contacts.phone_number)`,
        push_name: sql`coalesce(excluded.push_name, whatsapp_contacts.push_name)`,
        last_inbound_at: sql`greatest(excluded.last_inbound_at, whatsapp_contacts.last_inbound_at)`,
        updated_at: new Date(),
      }),
    )
    .execute();
}

/** A follower's record (phone number, last message time), or undefined. */
export async function contactOf(db: WaDb, chatbotId: string, waId: string) {
  return db
    .selectFrom('whatsapp_contacts')
    .select(['phone_number', 'push_name', 'last_inbound_at'])
    .where('chatbot_id', '=', chatbotId)
    .where('wa_id', '=', waId)
    .executeTakeFirst();
}
