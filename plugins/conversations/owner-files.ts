/**
 * The files an owner sends a web visitor (issue 27 §3): the web widget and the IALanding read the
 * owner's messages from the stored conversation (adapters/web/pushed.ts), so a voice note recorded
 * in the inbox cannot travel as bytes like on Telegram or WhatsApp (their adapters send it as a
 * native voice note). It is kept in the file storage instead (engine/storage: local disk or S3,
 * served under `/files/{key}`), under the owner's key prefix `{ownerId}/{timestamp}_{name}` (spec
 * 000 §3), and goes out as the message's `attachment`: the visitor's widget plays it like a bot's
 * audio file, the inbox too. A file the owner uploads in the inbox for any follower (file-routes.ts)
 * is kept the same way: Telegram gets its bytes from the storage, the widget shows it like a bot's
 * file. Each object has a `conversation_owner_files` row (migrations.ts), so
 * the owner's data export carries it and the account deletion removes it (registry
 * `ownerData.storedObjects`); deleting the conversation removes it at once.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { PluginContext } from '../../engine/registry/index.ts';
import type { Attachment } from '../../engine/schemas.ts';
import { publicFileUrl, storageKey } from '../../engine/storage/index.ts';
import type { ConversationKey, ConversationsDb } from './queries.ts';

/**
 * Channels whose followers read the owner's messages from the stored conversation (the web widget
 * and the IALanding): an owner's voice note goes there as a stored audio file.
 */
export const STORED_CHANNELS: readonly string[] = ['web', 'ialanding'];

/** What {@link storeOwnerFile} keeps. */
export interface OwnerFile {
  /** The conversation it was sent to. */
  to: ConversationKey;
  /** The bot's owner (the key's prefix). */
  ownerId: string;
  /** The bytes, in memory (a voice note) or spooled to a file (an upload, engine/http/multipart.ts). */
  data: Uint8Array | { path: string; size: number };
  mime: string;
  /** A file name with its extension, letters, digits, `._-` only (`nota-de-voz.ogg`). */
  name: string;
  type: Attachment['type'];
}

/**
 * Puts an owner's file in the storage and records it; the object is removed again when the row
 * cannot be written, so neither is left without the other.
 * @returns the attachment the message carries (`url` under `/files/`, absolute when the server
 *   knows its public address).
 * @throws Error when the plugin has no storage (a context built without one) or the storage fails.
 */
export async function storeOwnerFile(
  ctx: Pick<PluginContext, 'storage' | 'publicUrl' | 'now'>,
  db: ConversationsDb,
  file: OwnerFile,
): Promise<Attachment> {
  const storage = ctx.storage;
  if (!storage) throw new Error('the conversations plugin has no file storage');
  const id = randomUUID();
  const key = storageKey(file.ownerId, `${id.slice(0, 8)}_${file.name}`, ctx.now().getTime());
  const data = file.data;
  const bytes = data instanceof Uint8Array ? data : createReadStream(data.path);
  await storage.put(key, bytes, { contentType: file.mime });
  try {
    await db
      .insertInto('conversation_owner_files')
      .values({
        id,
        chatbot_id: file.to.chatbotId,
        channel: file.to.channel,
        chat_id: file.to.chatId,
        storage_key: key,
        name: file.name,
        mime: file.mime,
        size_bytes: data instanceof Uint8Array ? data.byteLength : data.size,
      })
      .execute();
  } catch (err) {
    await storage.remove(key).catch(() => undefined);
    throw err;
  }
  return {
    url: publicFileUrl(key, ctx.publicUrl),
    type: file.type,
    name: file.name,
    mime: file.mime,
    fileId: `owner:${id}`,
    caption: '',
  };
}

/**
 * Removes the stored files the owner sent in one conversation (it is being deleted), rows and
 * objects; an object that cannot be removed is left behind (its row goes: a missing key is no
 * error for the storage).
 * @returns how many there were.
 */
export async function removeOwnerFiles(
  ctx: Pick<PluginContext, 'storage' | 'log'>,
  db: ConversationsDb,
  k: ConversationKey,
): Promise<number> {
  const rows = await db
    .deleteFrom('conversation_owner_files')
    .where('chatbot_id', '=', k.chatbotId)
    .where('channel', '=', k.channel)
    .where('chat_id', '=', k.chatId)
    .returning('storage_key')
    .execute();
  for (const r of rows)
    await ctx.storage
      ?.remove(r.storage_key)
      .catch((err: unknown) => ctx.log.warn({ err, key: r.storage_key }, 'owner file not removed'));
  return rows.length;
}

/**
 * The owner's stored files of every bot, for the export and the account deletion (registry
 * `ownerData.storedObjects`): `path` is `<bot id>/<channel>-<chat id>/<key's file name>` in the ZIP.
 */
export async function ownerStoredFiles(db: ConversationsDb, ownerId: string) {
  const rows = await db
    .selectFrom('conversation_owner_files as f')
    .innerJoin('chatbots as b', 'b.id', 'f.chatbot_id')
    .select(['f.chatbot_id', 'f.channel', 'f.chat_id', 'f.storage_key', 'f.created_at'])
    .where('b.user_id', '=', ownerId)
    .orderBy('f.created_at')
    .execute();
  const safe = (s: string) => s.replace(/[^\w.-]/g, '_');
  return rows.map((r) => ({
    key: r.storage_key,
    path: `${r.chatbot_id}/${safe(r.channel)}-${safe(r.chat_id)}/${safe(r.storage_key.split('/').pop() ?? 'file')}`,
    createdAt: new Date(r.created_at),
  }));
}
