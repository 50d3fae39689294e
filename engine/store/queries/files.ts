/** chatbot_files rows (spec 000 §7 data service). */
import { type Kysely, sql } from 'kysely';
import type { ChatbotFile, Database, NewChatbotFile } from '../database.ts';
import { ownedRow } from './keys.ts';

/** A bot's files, newest first (spec 000 §7). */
export async function listFiles(db: Kysely<Database>, chatbotId: string): Promise<ChatbotFile[]> {
  return db
    .selectFrom('chatbot_files')
    .selectAll()
    .where('chatbot_id', '=', chatbotId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** A file by id that belongs to `userId`, or undefined. */
export async function findOwnedFile(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<ChatbotFile | undefined> {
  return db.selectFrom('chatbot_files').selectAll().where(ownedRow(userId, id)).executeTakeFirst();
}

/** A file by id, or undefined. */
export async function findFile(db: Kysely<Database>, id: string): Promise<ChatbotFile | undefined> {
  return db.selectFrom('chatbot_files').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Count and total bytes of a bot's files, for the 10-file and 100 MB limits (spec 000 §5). */
export async function fileUsage(
  db: Kysely<Database>,
  chatbotId: string,
): Promise<{ count: number; bytes: number }> {
  const row = await db
    .selectFrom('chatbot_files')
    .select([
      sql<number>`count(*)::int`.as('count'),
      sql<number>`coalesce(sum(size_bytes), 0)::bigint`.as('bytes'),
    ])
    .where('chatbot_id', '=', chatbotId)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), bytes: Number(row.bytes) };
}

/**
 * Locks the bot row until the transaction ends, so two uploads to one bot check the limits one
 * after the other.
 */
export async function lockChatbotRow(db: Kysely<Database>, chatbotId: string): Promise<void> {
  await db.selectFrom('chatbots').select('id').where('id', '=', chatbotId).forUpdate().execute();
}

/** Inserts a file row and returns it. */
export async function insertFile(db: Kysely<Database>, values: NewChatbotFile): Promise<ChatbotFile> {
  return db.insertInto('chatbot_files').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Updates keyword and context of an owner's file; undefined when not the owner's. */
export async function updateOwnedFile(
  db: Kysely<Database>,
  userId: string,
  id: string,
  values: { keyword: string; context: string },
): Promise<ChatbotFile | undefined> {
  return db
    .updateTable('chatbot_files')
    .set(values)
    .where(ownedRow(userId, id))
    .returningAll()
    .executeTakeFirst();
}

/** Deletes an owner's file row and returns it; undefined when not the owner's. */
export async function deleteOwnedFile(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<ChatbotFile | undefined> {
  return db.deleteFrom('chatbot_files').where(ownedRow(userId, id)).returningAll().executeTakeFirst();
}

/** Storage keys of every stored file of an owner (to remove the bytes when the owner is deleted). */
export async function listOwnerFileKeys(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('chatbot_files')
    .select('file_url')
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.file_url).filter((u) => !/^https?:\/\//i.test(u));
}

/**
 * NOTIFY channel of file changes; the payload is JSON `{chatbotId, op, fileId}`, or
 * `{closeStream, ownerId}` asking the process that holds that live stream to end it.
 */
export const FILES_CHANNEL = 'charla_files';

/** A message on {@link FILES_CHANNEL}. */
export type FilesChannelMessage =
  | { chatbotId: string; op: 'insert' | 'update' | 'delete'; fileId: string }
  | { closeStream: string; ownerId: string };

/** Tells realtime listeners (dashboards in any Charla process) that a bot's files changed. */
export async function notifyFileChange(
  db: Kysely<Database>,
  change: { chatbotId: string; op: 'insert' | 'update' | 'delete'; fileId: string },
): Promise<void> {
  await sql`select pg_notify(${FILES_CHANNEL}, ${JSON.stringify(change)})`.execute(db);
}

/** Asks the process holding an owner's live file stream (any Charla process) to end it. */
export async function notifyStreamClose(
  db: Kysely<Database>,
  request: { ownerId: string; stream: string },
): Promise<void> {
  const message: FilesChannelMessage = { closeStream: request.stream, ownerId: request.ownerId };
  await sql`select pg_notify(${FILES_CHANNEL}, ${JSON.stringify(message)})`.execute(db);
}
