/**
 * The WhatsApp channel's SQL (issue 13): its own tables (migrations/202611241000_whatsapp.ts) and
 * the spec's WhatsApp fields of `chatbots` (000 §3). Only this adapter reads and writes them; the
 * table types live here, so the engine's Database type names no channel.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../engine/store/database.ts';

type Timestamp = Date | string;

/** One bot's WhatsApp connection. */
export interface WhatsAppConnectionsTable {
  chatbot_id: string;
  backend: 'baileys' | 'cloud';
  /**
   * `linking` (a linked device waiting for its QR scan or pairing code), `linked`, `expired` (the
   * QR codes ran out; the owner retries), `logged_out` (WhatsApp ended the session: link again);
   * `active` for a Cloud API number.
   */
  status: 'linking' | 'linked' | 'expired' | 'logged_out' | 'active';
  /** Cloud API: the business phone number's id (webhooks are routed by it). */
  phone_number_id: string | null;
  /** Cloud API: the Meta app's secret for this number's webhooks (sealed), when not META_APP_SECRET. */
  app_secret: string | null;
  /** Linking: the QR code's content as WhatsApp gave it, and when it stops being valid. */
  qr: string | null;
  qr_expires_at: Timestamp | null;
  pairing_code: string | null;
  last_error: string | null;
  last_error_at: Timestamp | null;
  last_update_at: Timestamp | null;
  /** Linked device: the process that holds the socket, and until when (renewed while it runs). */
  holder: string | null;
  lease_until: Timestamp | null;
  created_at: Timestamp | undefined;
  updated_at: Timestamp | undefined;
}

/** A linked device's auth state: Baileys creds (`creds`/``) and its signal keys, each sealed. */
export interface WhatsAppAuthTable {
  chatbot_id: string;
  category: string;
  key_id: string;
  value: string;
}

/** Messages the bot sent (status, content for retries) and media followers sent on a linked device. */
export interface WhatsAppMessagesTable {
  chatbot_id: string;
  message_id: string;
  direction: 'in' | 'out';
  chat_id: string;
  status: string | null;
  status_rank: number | undefined;
  status_at: Timestamp | null;
  error_code: number | null;
  error_title: string | null;
  /** Baileys: the message proto as BufferJSON text. */
  content: string | null;
  created_at: Timestamp | undefined;
}

/** A follower as WhatsApp knows them. */
export interface WhatsAppContactsTable {
  chatbot_id: string;
  wa_id: string;
  phone_number: string | null;
  push_name: string | null;
  last_inbound_at: Timestamp | null;
  updated_at: Timestamp | undefined;
}

/** The WhatsApp tables. */
type WhatsAppTables = {
  whatsapp_connections: WhatsAppConnectionsTable;
  whatsapp_auth: WhatsAppAuthTable;
  whatsapp_messages: WhatsAppMessagesTable;
  whatsapp_contacts: WhatsAppContactsTable;
};
/** Charla's tables and the WhatsApp ones. */
type WaSchema = Database & WhatsAppTables;
/** The store with the WhatsApp tables (a transaction is one too). */
export type WaDb = Kysely<WaSchema>;

/** The store seen with the WhatsApp tables. */
export function waDb(db: Kysely<Database>): WaDb {
  return db.withTables<WhatsAppTables>();
}

/** Thrown when a write needs the linked device's lease and this process no longer holds it. */
export class LeaseLost extends Error {
  override name = 'LeaseLost';
}

// ---------------------------------------------------------------- connections

/** Bots the supervisor should run: linking or linked devices, and active Cloud API numbers. */
export async function whatsappBotIds(db: WaDb): Promise<string[]> {
  const rows = await db
    .selectFrom('whatsapp_connections')
    .select('chatbot_id')
    .where((eb) =>
      eb.or([
        eb.and([eb('backend', '=', 'baileys'), eb('status', 'in', ['linking', 'linked'])]),
        eb.and([eb('backend', '=', 'cloud'), eb('status', '=', 'active')]),
      ]),
    )
    .execute();
  return rows.map((r) => r.chatbot_id);
}

/** A bot's WhatsApp connection with the spec's fields and what its replies need; undefined without a bot. */
export async function connectionOf(db: WaDb, chatbotId: string) {
  return db
    .selectFrom('chatbots as c')
    .leftJoin('whatsapp_connections as w', 'w.chatbot_id', 'c.id')
    .select([
      'c.id',
      'c.user_id',
      'c.business_name',
      'c.idioma',
      'c.whatsapp_number',
      'c.phone_number',
      'c.meta_business_account_id',
      'c.meta_token',
      'c.meta_verified',
      'w.backend',
      'w.status',
      'w.phone_number_id',
      'w.app_secret',
      'w.qr',
      'w.qr_expires_at',
      'w.pairing_code',
      'w.last_error',
      'w.last_error_at',
      'w.last_update_at',
      'w.holder',
      'w.lease_until',
    ])
    .where('c.id', '=', chatbotId)
    .executeTakeFirst();
}
export type ConnectionRow = NonNullable<Awaited<ReturnType<typeof connectionOf>>>;

/** Clears the spec's WhatsApp fields of a bot (the number and the Meta credentials). */
async function clearBotFields(trx: Transaction<WaSchema>, chatbotId: string) {
  await trx
    .updateTable('chatbots')
    .set({
      whatsapp_number: null,
      phone_number: null,
      meta_business_account_id: null,
      meta_token: null,
      meta_verified: false,
      updated_at: new Date(),
    })
    .where('id', '=', chatbotId)
    .execute();
}

/**
 * Starts (or restarts) linking a device: the old auth state and any Cloud API credentials are
 * forgotten, the connection is `linking` with no QR yet. One transaction.
 */
export async function startLinking(db: WaDb, chatbotId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('whatsapp_auth').where('chatbot_id', '=', chatbotId).execute();
    await clearBotFields(trx, chatbotId);
    await trx
      .insertInto('whatsapp_connections')
      .values({ chatbot_id: chatbotId, backend: 'baileys', status: 'linking' })
      .onConflict((oc) =>
        oc.column('chatbot_id').doUpdateSet({
          backend: 'baileys',
          status: 'linking',
          phone_number_id: null,
          app_secret: null,
          qr: null,
          qr_expires_at: null,
          pairing_code: null,
          last_error: null,
          last_error_at: null,
          updated_at: new Date(),
        }),
      )
      .execute();
  });
}

/** Stores the QR code or pairing code the owner should see now (linking). */
export async function setLinkingCode(
  db: WaDb,
  chatbotId: string,
  code: { qr?: string | null; qrExpiresAt?: Date | null; pairingCode?: string | null },
): Promise<void> {
  await db
    .updateTable('whatsapp_connections')
    .set({
      ...(code.qr !== undefined ? { qr: code.qr } : {}),
      ...(code.qrExpiresAt !== undefined ? { qr_expires_at: code.qrExpiresAt } : {}),
      ...(code.pairingCode !== undefined ? { pairing_code: code.pairingCode } : {}),
      updated_at: new Date(),
    })
    .where('chatbot_id', '=', chatbotId)
    .where('status', '=', 'linking')
    .execute();
}

/** A linked device is paired: `linked`, no codes, and the spec's `whatsapp_number` set (000 §4: "number assigned"). */
export async function markLinked(db: WaDb, chatbotId: string, whatsappNumber: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('whatsapp_connections')
      .set({
        status: 'linked',
        qr: null,
        qr_expires_at: null,
        pairing_code: null,
        last_error: null,
        last_error_at: null,
        updated_at: new Date(),
      })
      .where('chatbot_id', '=', chatbotId)
      .where('backend', '=', 'baileys')
      .execute();
    await trx
      .updateTable('chatbots')
      .set({ whatsapp_number: whatsappNumber, updated_at: new Date() })
      .where('id', '=', chatbotId)
      .execute();
  });
}

/**
 * Ends a linked device's session for good: `expired` (the QR codes ran out while linking) or
 * `logged_out` (WhatsApp answered 401: every stored credential is deleted, so the next link starts
 * clean and the owner is told to link again). One transaction.
 */
export async function endSession(
  db: WaDb,
  chatbotId: string,
  status: 'expired' | 'logged_out',
  error: string | null,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('whatsapp_auth').where('chatbot_id', '=', chatbotId).execute();
    await trx
      .updateTable('whatsapp_connections')
      .set({
        status,
        qr: null,
        qr_expires_at: null,
        pairing_code: null,
        holder: null,
        lease_until: null,
        last_error: error,
        last_error_at: error ? new Date() : null,
        updated_at: new Date(),
      })
      .where('chatbot_id', '=', chatbotId)
      .where('backend', '=', 'baileys')
      .execute();
    if (status === 'logged_out')
      await trx
        .updateTable('chatbots')
        .set({ whatsapp_number: null, updated_at: new Date() })
        .where('id', '=', chatbotId)
        .execute();
  });
}

/** Forgets a bot's WhatsApp: connection, auth state and the spec's fields. One transaction. */
export async function removeConnection(db: WaDb, chatbotId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('whatsapp_auth').where('chatbot_id', '=', chatbotId).execute();
    await trx.deleteFrom('whatsapp_connections').where('chatbot_id', '=', chatbotId).execute();
    await clearBotFields(trx, chatbotId);
  });
}

/** What {@link setCloudConnection} stores (secrets already sealed). */
export interface CloudConnection {
  phoneNumberId: string;
  businessAccountId: string;
  displayPhoneNumber: string;
  /** Sealed access token. */
  token: string;
  /** Sealed app secret, or null to use META_APP_SECRET. */
  appSecret: string | null;
}

/**
 * Connects a bot to a Cloud API number (spec 000 §4, Meta connection success: the phone number,
 * the business account id and the token are stored and `meta_verified` is false). Any linked
 * device's auth state is deleted. One transaction.
 */
export async function setCloudConnection(db: WaDb, chatbotId: string, c: CloudConnection): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('whatsapp_auth').where('chatbot_id', '=', chatbotId).execute();
    const values = {
      backend: 'cloud' as const,
      status: 'active' as const,
      phone_number_id: c.phoneNumberId,
      app_secret: c.appSecret,
      qr: null,
      qr_expires_at: null,
      pairing_code: null,
      last_error: null,
      last_error_at: null,
      holder: null,
      lease_until: null,
      updated_at: new Date(),
    };
    await trx
      .insertInto('whatsapp_connections')
      .values({ chatbot_id: chatbotId, ...values })
      .onConflict((oc) => oc.column('chatbot_id').doUpdateSet(values))
      .execute();
    await trx
      .updateTable('chatbots')
      .set({
        phone_number: c.displayPhoneNumber,
        whatsapp_number: c.displayPhoneNumber,
        meta_business_account_id: c.businessAccountId,
        meta_token: c.token,
        meta_verified: false,
        updated_at: new Date(),
      })
      .where('id', '=', chatbotId)
      .execute();
  });
}

/** The bot connected to a Cloud API phone number id, with its sealed token and app secret. */
export async function cloudNumber(db: WaDb, phoneNumberId: string) {
  return db
    .selectFrom('whatsapp_connections as w')
    .innerJoin('chatbots as c', 'c.id', 'w.chatbot_id')
    .select(['w.chatbot_id', 'w.app_secret', 'w.status', 'c.meta_token'])
    .where('w.phone_number_id', '=', phoneNumberId)
    .where('w.backend', '=', 'cloud')
    .executeTakeFirst();
}

/** Records a failure for the owner (shown by every process). */
export async function recordConnectionError(db: WaDb, chatbotId: string, message: string): Promise<void> {
  await db
    .updateTable('whatsapp_connections')
    .set({ last_error: message, last_error_at: new Date() })
    .where('chatbot_id', '=', chatbotId)
    .execute();
}

/** Clears the recorded failure (the connection works again). */
export async function clearConnectionError(db: WaDb, chatbotId: string): Promise<void> {
  await db
    .updateTable('whatsapp_connections')
    .set({ last_error: null, last_error_at: null })
    .where('chatbot_id', '=', chatbotId)
    .where('last_error', 'is not', null)
    .execute();
}

/** Records that a message arrived (the owner's "receiving" indicator). */
export async function touchConnection(db: WaDb, chatbotId: string, at: Date): Promise<void> {
  await db
    .updateTable('whatsapp_connections')
    .set({ last_update_at: at })
    .where('chatbot_id', '=', chatbotId)
    .execute();
}

// ---------------------------------------------------------------- the linked device's lease

/**
 * Takes or renews the lease on a linked device's socket: free, already ours, or expired (its
 * holder died). Times are the database's, so processes with skewed clocks agree.
 * @returns true when `holder` holds it until now + `leaseMs`.
 */
export async function acquireLease(
  db: WaDb,
  chatbotId: string,
  holder: string,
  leaseMs: number,
): Promise<boolean> {
  const rows = await sql<{ chatbot_id: string }>`
    update whatsapp_connections
       set holder = ${holder}, lease_until = now() + make_interval(secs => ${leaseMs / 1000})
     where chatbot_id = ${chatbotId} and backend = 'baileys'
       and (holder is null or holder = ${holder} or lease_until < now())
    returning chatbot_id`.execute(db);
  return rows.rows.length === 1;
}

/** Renews a lease this process holds; false when it was lost (another process took it over). */
export async function renewLease(
  db: WaDb,
  chatbotId: string,
  holder: string,
  leaseMs: number,
): Promise<boolean> {
  const rows = await sql<{ chatbot_id: string }>`
    update whatsapp_connections
       set lease_until = now() + make_interval(secs => ${leaseMs / 1000})
     where chatbot_id = ${chatbotId} and holder = ${holder}
    returning chatbot_id`.execute(db);
  return rows.rows.length === 1;
}

/** Lets go of a lease (a clean shutdown or pause): the next process takes it at once. */
export async function releaseLease(db: WaDb, chatbotId: string, holder: string): Promise<void> {
  await db
    .updateTable('whatsapp_connections')
    .set({ holder: null, lease_until: null })
    .where('chatbot_id', '=', chatbotId)
    .where('holder', '=', holder)
    .execute();
}

// ---------------------------------------------------------------- auth state

/** Sealed auth values of one category by id (missing ids are absent). */
export async function readAuth(
  db: WaDb,
  chatbotId: string,
  category: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('whatsapp_auth')
    .select(['key_id', 'value'])
    .where('chatbot_id', '=', chatbotId)
    .where('category', '=', category)
    .where('key_id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.key_id, r.value]));
}

/**
 * Writes auth values in one transaction, fenced by the lease: the lease is renewed first and,
 * when another process holds it now, nothing is written (a process that lost the session can
 * never overwrite the keys of the one that has it).
 * @param set rows to upsert (sealed values); `remove` rows to delete.
 * @throws LeaseLost when `holder` does not hold the lease.
 */
export async function writeAuth(
  db: WaDb,
  chatbotId: string,
  fence: { holder: string; leaseMs: number },
  set: ReadonlyArray<{ category: string; id: string; value: string }>,
  remove: ReadonlyArray<{ category: string; id: string }>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await renewLease(trx, chatbotId, fence.holder, fence.leaseMs)))
      throw new LeaseLost(`the session of bot ${chatbotId} is held by another process`);
    // Batches keep one statement per 500 rows (a first link writes ~800 pre-keys).
    for (let i = 0; i < set.length; i += 500) {
      await trx
        .insertInto('whatsapp_auth')
        .values(
          set.slice(i, i + 500).map((r) => ({
            chatbot_id: chatbotId,
            category: r.category,
            key_id: r.id,
            value: r.value,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['chatbot_id', 'category', 'key_id'])
            .doUpdateSet({ value: (eb) => eb.ref('excluded.value') }),
        )
        .execute();
    }
    const byCategory = new Map<string, string[]>();
    for (const r of remove) byCategory.set(r.category, [...(byCategory.get(r.category) ?? []), r.id]);
    for (const [category, ids] of byCategory)
      await trx
        .deleteFrom('whatsapp_auth')
        .where('chatbot_id', '=', chatbotId)
        .where('category', '=', category)
        .where('key_id', 'in', ids)
        .execute();
  });
}

/** Deletes a linked device's whole auth state. */
export async function clearAuth(db: WaDb, chatbotId: string): Promise<void> {
  await db.deleteFrom('whatsapp_auth').where('chatbot_id', '=', chatbotId).execute();
}

// ---------------------------------------------------------------- messages

/** How far a delivery status has got; a late webhook never moves a message back (read before delivered). */
export const STATUS_RANK: Record<string, number> = { sent: 1, delivered: 2, read: 3, played: 4, failed: 9 };

/** Stores a message the bot sent (Baileys keeps its content for `getMessage` retries). */
export async function storeOutgoing(
  db: WaDb,
  m: { chatbotId: string; messageId: string; chatId: string; content: string | null },
): Promise<void> {
  await db
    .insertInto('whatsapp_messages')
    .values({
      chatbot_id: m.chatbotId,
      message_id: m.messageId,
      direction: 'out',
      chat_id: m.chatId,
      content: m.content,
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
    .values({
      chatbot_id: m.chatbotId,
      message_id: m.messageId,
      direction: 'in',
      chat_id: m.chatId,
      content: m.content,
    })
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
