/**
 * The WhatsApp channel's tables (issue 13; migrations/202611241000_whatsapp.ts) as Kysely types, and
 * the store seen with them. Only this adapter reads and writes them; the table types live here, so
 * the engine's Database type names no channel. The SQL is in queries.ts (connections and the linked
 * device's lease), baileys/auth-queries.ts (auth state) and messages.ts (messages and contacts).
 */
import type { ColumnType, Kysely } from 'kysely';
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

/** Issue 28: one Charla template in one language at Meta, for one bot (migrations/202611271600). */
export interface WhatsAppTemplatesTable {
  chatbot_id: string;
  /** Meta's template name, e.g. `charla_booking_reminder_24h`. */
  name: string;
  /** Meta's language code (`es`, `en`, `fr`, `de`, `it`, `ru`, `hi`). */
  language: string;
  meta_id: string | null;
  /** Meta's status: `PENDING`, `APPROVED`, `REJECTED`, `PAUSED`, `DISABLED`, … */
  status: string;
  /** Meta's reason (a rejection's `rejected_reason`, or the webhook's `reason`). */
  reason: string | null;
  updated_at: Timestamp | undefined;
}

/** What a waiting message keeps: its text and its attachment, if any (engine `Attachment`). */
export interface WaitingMessage {
  text: string;
  attachment?: unknown;
}

/** Issue 28: a message the closed 24-hour window kept from going out free-form. */
export interface WhatsAppWaitingTable {
  id: string | undefined;
  chatbot_id: string;
  chat_id: string;
  sender: 'bot' | 'owner';
  /** `held` (the template went out), `waiting` (no approved template), `delivered`, `expired`. */
  state: 'held' | 'waiting' | 'delivered' | 'expired';
  /** The Charla template id it needed (`team_answered`, `reminder_24h`, …), if any. */
  template: string | null;
  /** The message to deliver when the follower writes again: `{ text, attachment? }`. */
  message: ColumnType<WaitingMessage, string, string>;
  /** Why it waits (owner-facing, Spanish like the channel's other notes). */
  reason: string | null;
  expires_at: Timestamp;
  created_at: Timestamp | undefined;
  delivered_at: Timestamp | null;
}

/** The WhatsApp tables. */
type WhatsAppTables = {
  whatsapp_templates: WhatsAppTemplatesTable;
  whatsapp_waiting: WhatsAppWaitingTable;
  whatsapp_connections: WhatsAppConnectionsTable;
  whatsapp_auth: WhatsAppAuthTable;
  whatsapp_messages: WhatsAppMessagesTable;
  whatsapp_contacts: WhatsAppContactsTable;
};
/** Charla's tables and the WhatsApp ones. */
export type WaSchema = Database & WhatsAppTables;
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
