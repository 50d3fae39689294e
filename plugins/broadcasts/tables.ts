/**
 * The broadcasts plugin's tables (migrations.ts) as Kysely sees them, and its database handle
 * (apart from queries.ts so audience.ts and queries.ts need not import each other).
 */
import type { ColumnType, Kysely } from 'kysely';
import type { Database } from '../../engine/store/database.ts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface BroadcastsTable {
  id: ColumnType<string, string | undefined, string>;
  chatbot_id: string;
  text: string;
  file_id: string | null;
  voice: Buffer | null;
  preset: string | null;
  status: 'sending' | 'done';
  total: number;
  created_at: Timestamp;
  finished_at: Timestamp | null;
}
export type RecipientStatus = 'pending' | 'sending' | 'sent' | 'blocked' | 'failed' | 'unknown' | 'skipped';
export interface BroadcastRecipientsTable {
  broadcast_id: string;
  channel: string;
  chat_id: string;
  /** The recipient's audience (api.ts AUDIENCES); null on rows from before issue 27. */
  audience: string | null;
  status: RecipientStatus;
  error: string | null;
  sent_at: Timestamp | null;
}
export interface BroadcastBlockedTable {
  chatbot_id: string;
  channel: string;
  chat_id: string;
  blocked_at: Timestamp;
}
/** A follower who wrote STOP / BAJA (issue 28 §1): no broadcast reaches them until ALTA / START. */
export interface BroadcastOptoutsTable {
  chatbot_id: string;
  channel: string;
  chat_id: string;
  opted_out_at: Timestamp;
}
/** The plugin's tables by name. */
type Tables = {
  broadcasts: BroadcastsTable;
  broadcast_recipients: BroadcastRecipientsTable;
  broadcast_blocked: BroadcastBlockedTable;
  broadcast_optouts: BroadcastOptoutsTable;
};
/** The store with the plugin's tables. */
export type BroadcastsDb = Kysely<Database & Tables>;

/** The store seen with the plugin's tables. */
export function broadcastsDb(db: Kysely<Database>): BroadcastsDb {
  return db.withTables<Tables>();
}
