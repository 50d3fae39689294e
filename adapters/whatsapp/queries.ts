/**
 * The WhatsApp channel's SQL for connections and the linked device's lease (issue 13): its
 * `whatsapp_connections` table and the spec's WhatsApp fields of `chatbots` (000 §3).
 */
import { sql, type Transaction, type Updateable } from 'kysely';
import type { WaDb, WaSchema, WhatsAppConnectionsTable } from './tables.ts';

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
 * The columns of a connection with no linking code shown and no failure recorded: what linking
 * anew, a paired device and a Cloud API number all start from (`updated_at` now).
 */
function freshState() {
  return {
    qr: null,
    qr_expires_at: null,
    pairing_code: null,
    last_error: null,
    last_error_at: null,
    updated_at: new Date(),
  };
}

/** Deletes a bot's linked-device auth state (its Signal keys and credentials). */
async function deleteAuth(trx: Transaction<WaSchema>, chatbotId: string) {
  await trx.deleteFrom('whatsapp_auth').where('chatbot_id', '=', chatbotId).execute();
}

/** Sets (or clears) the spec's `whatsapp_number` of a bot (000 §3). */
async function setWhatsappNumber(trx: Transaction<WaSchema>, chatbotId: string, number: string | null) {
  await trx
    .updateTable('chatbots')
    .set({ whatsapp_number: number, updated_at: new Date() })
    .where('id', '=', chatbotId)
    .execute();
}

/**
 * Starts (or restarts) linking a device: the old auth state and any Cloud API credentials are
 * forgotten, the connection is `linking` with no QR yet. One transaction.
 */
export async function startLinking(db: WaDb, chatbotId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await deleteAuth(trx, chatbotId);
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
          ...freshState(),
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
      .set({ status: 'linked', ...freshState() })
      .where('chatbot_id', '=', chatbotId)
      .where('backend', '=', 'baileys')
      .execute();
    await setWhatsappNumber(trx, chatbotId, whatsappNumber);
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
    await deleteAuth(trx, chatbotId);
    await trx
      .updateTable('whatsapp_connections')
      .set({
        status,
        ...freshState(),
        holder: null,
        lease_until: null,
        last_error: error,
        last_error_at: error ? new Date() : null,
      })
      .where('chatbot_id', '=', chatbotId)
      .where('backend', '=', 'baileys')
      .execute();
    if (status === 'logged_out') await setWhatsappNumber(trx, chatbotId, null);
  });
}

/** Forgets a bot's WhatsApp: connection, auth state and the spec's fields. One transaction. */
export async function removeConnection(db: WaDb, chatbotId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await deleteAuth(trx, chatbotId);
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
    await deleteAuth(trx, chatbotId);
    const values = {
      backend: 'cloud' as const,
      status: 'active' as const,
      phone_number_id: c.phoneNumberId,
      app_secret: c.appSecret,
      ...freshState(),
      holder: null,
      lease_until: null,
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

/** An update of a bot's `whatsapp_connections` row (to run with `.execute()`). */
function updateConnection(db: WaDb, chatbotId: string, values: Updateable<WhatsAppConnectionsTable>) {
  return db.updateTable('whatsapp_connections').set(values).where('chatbot_id', '=', chatbotId);
}

/** Records a failure for the owner (shown by every process). */
export async function recordConnectionError(db: WaDb, chatbotId: string, message: string): Promise<void> {
  await updateConnection(db, chatbotId, { last_error: message, last_error_at: new Date() }).execute();
}

/** Clears the recorded failure (the connection works again). */
export async function clearConnectionError(db: WaDb, chatbotId: string): Promise<void> {
  await updateConnection(db, chatbotId, { last_error: null, last_error_at: null })
    .where('last_error', 'is not', null)
    .execute();
}

/** Records that a message arrived (the owner's "receiving" indicator). */
export async function touchConnection(db: WaDb, chatbotId: string, at: Date): Promise<void> {
  await updateConnection(db, chatbotId, { last_update_at: at }).execute();
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
