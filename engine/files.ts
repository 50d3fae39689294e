/**
 * Adding, editing and removing a bot's files, with the rules of spec 000 §5 enforced on the
 * server: allowed formats checked by their magic bytes (`file-type`), 10 MB a file, 10 files a
 * bot, 100 MB a bot, keywords normalised on save. A rejected or failed upload leaves no row and no
 * file behind.
 */
import { createReadStream } from 'node:fs';
import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import type { Kysely } from 'kysely';
import { AppError, botNotFound } from './errors.ts';
import { normalizeKeywords } from './matching/index.ts';
import { type Converted, toOgg, toWebm } from './media.ts';
import { ALLOWED_EXTENSIONS, FILE_LIMITS, type FileType } from './schemas.ts';
import { normalizeFileName, type Storage, storageKey, storageKeyOfUrl } from './storage/index.ts';
import type { ChatbotFile, Database } from './store/database.ts';
import { findOwnedChatbot } from './store/queries/chatbots.ts';
import {
  deleteOwnedFile,
  fileUsage,
  findFile,
  insertFile,
  lockChatbotRow,
  notifyFileChange,
  updateOwnedFile,
} from './store/queries/files.ts';

/** Spec 000 §5 texts. */
export const FILE_MESSAGES = {
  tooBig: (file: string) => `El archivo ${file} es demasiado grande. Máximo 10MB por archivo.`,
  tooMany: 'Solo puedes tener un máximo de 10 archivos. Elimina alguno para poder subir uno nuevo.',
  /** The spec names the message but not its words (000 §5): an extension that is not allowed. */
  badFormat: (file: string) =>
    `El formato del archivo ${file} no está permitido. Formatos permitidos: ${ALLOWED_EXTENSIONS.join(', ')}.`,
  /**
   * Issue 10: an allowed extension whose content is none of the allowed formats (a damaged file, a
   * HEIC photo or a text file named `.jpg`): "factura.jpg no es un JPG válido".
   */
  notValid: (file: string, ext: string) =>
    `El archivo ${file} no es un ${ext.toUpperCase()} válido. Comprueba que no esté dañado o expórtalo de nuevo.`,
  /** The 100 MB total is stated in the spec's interface (000 §9); these words are ours. */
  botFull:
    'Has alcanzado el máximo de 100MB de archivos para este bot. Elimina alguno para poder subir uno nuevo.',
  required: 'Campo requerido',
  updateFailed: 'No se pudo actualizar la palabra clave del archivo.',
  deleteFailed: 'No se pudo eliminar el archivo de la base de datos.',
} as const;

/** What a sniffed format is to Charla. */
export interface DetectedFormat {
  fileType: FileType;
  mime: string;
  ext: string;
  aliases: string[];
}

/** Allowed formats by the MIME type file-type reports (its `mime` before any `;`). */
const FORMATS: Record<string, Omit<DetectedFormat, 'mime'>> = {
  'application/pdf': { fileType: 'pdf', ext: 'pdf', aliases: [] },
  'image/jpeg': { fileType: 'image', ext: 'jpg', aliases: ['jpeg'] },
  'image/png': { fileType: 'image', ext: 'png', aliases: [] },
  'image/webp': { fileType: 'image', ext: 'webp', aliases: [] },
  'audio/mpeg': { fileType: 'audio', ext: 'mp3', aliases: [] },
  'audio/wav': { fileType: 'audio', ext: 'wav', aliases: [] },
  'audio/vnd.wave': { fileType: 'audio', ext: 'wav', aliases: [] },
  'audio/x-wav': { fileType: 'audio', ext: 'wav', aliases: [] },
  'audio/ogg': { fileType: 'audio', ext: 'ogg', aliases: ['oga', 'opus'] },
  'audio/opus': { fileType: 'audio', ext: 'ogg', aliases: ['opus'] },
  'audio/aac': { fileType: 'audio', ext: 'aac', aliases: [] },
  'audio/x-m4a': { fileType: 'audio', ext: 'm4a', aliases: [] },
  'audio/mp4': { fileType: 'audio', ext: 'm4a', aliases: [] },
  'video/mp4': { fileType: 'video', ext: 'mp4', aliases: ['m4v'] },
  'video/x-m4v': { fileType: 'video', ext: 'm4v', aliases: ['mp4'] },
  'video/quicktime': { fileType: 'video', ext: 'mov', aliases: [] },
  'video/webm': { fileType: 'video', ext: 'webm', aliases: [] },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
    fileType: 'document',
    ext: 'docx',
    aliases: [],
  },
};

/** Text documents have no magic bytes: these extensions, with bytes that are UTF-8 text (issue 30 §1). */
const TEXT_EXTENSIONS: Record<string, string> = { txt: 'txt', md: 'md', markdown: 'md' };
/** The bytes read to tell a text document from a binary one. */
const TEXT_PROBE_BYTES = 64 * 1024;

/**
 * Whether the first bytes are UTF-8 text without control characters other than tab, line feed,
 * carriage return and form feed (a cut multi-byte character at the probe's end is allowed).
 */
async function looksLikeText(data: UploadBytes): Promise<boolean> {
  let head: Uint8Array;
  if (data instanceof Uint8Array) head = data.subarray(0, TEXT_PROBE_BYTES);
  else {
    const chunks: Buffer[] = [];
    for await (const chunk of createReadStream(data.path, { end: TEXT_PROBE_BYTES - 1 }))
      chunks.push(chunk as Buffer);
    head = Buffer.concat(chunks);
  }
  if (head.length === 0) return false;
  const cut = head.length === TEXT_PROBE_BYTES ? head.subarray(0, head.length - 4) : head;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(cut);
  } catch {
    return false;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 12 && c !== 13) || c === 127) return false;
  }
  return true;
}

/**
 * An upload's bytes: in memory (the CLI, the seed, small recordings) or spooled to a file while
 * they arrived (the owner's uploads: engine/http/multipart.ts `readSingleFileUpload`), so a video
 * is never held in memory whole (issue 26 §1).
 */
export type UploadBytes = Uint8Array | { path: string; size: number };

/** The size of upload bytes, bytes. */
function sizeOf(bytes: UploadBytes): number {
  return bytes instanceof Uint8Array ? bytes.byteLength : bytes.size;
}

/**
 * Sniffs the format from the bytes (or the spooled file's); null when it is not one of the
 * allowed formats (spec 000 §5). Text documents (.txt, .md) have no signature: a name with their
 * extension and bytes that are UTF-8 text make one (`text/plain`, which every channel sends).
 */
export async function detectFormat(data: UploadBytes, fileName = ''): Promise<DetectedFormat | null> {
  const found =
    data instanceof Uint8Array ? await fileTypeFromBuffer(data) : await fileTypeFromFile(data.path);
  if (!found) {
    const ext = TEXT_EXTENSIONS[/\.([^./\\]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? ''];
    if (!ext || !(await looksLikeText(data))) return null;
    return { fileType: 'document', mime: 'text/plain', ext, aliases: ext === 'md' ? ['markdown'] : [] };
  }
  const mime = found.mime.split(';')[0]!.trim();
  const format = FORMATS[mime];
  return format ? { ...format, mime } : null;
}

/**
 * Why bytes of no allowed format are refused: a name with an allowed extension gets "no es un JPG
 * válido" (its content does not match it); any other name gets the formats allowed.
 */
export function unsupportedMessage(fileName: string): string {
  const ext = /\.([^./\\]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return (ALLOWED_EXTENSIONS as readonly string[]).includes(ext)
    ? FILE_MESSAGES.notValid(fileName, ext)
    : FILE_MESSAGES.badFormat(fileName);
}

/** What {@link addFile} stores. */
export interface NewUpload {
  ownerId: string;
  chatbotId: string;
  /** The name the owner's file had. */
  originalName: string;
  data: UploadBytes;
  keyword?: string;
  context?: string;
  purpose?: string | null;
  /** Set when the bytes are a video converted elsewhere (spec 000 §3). */
  video?: { duration: number; width: number; height: number; codec: string } | null;
  /** Convert audio to OGG and video to WebM (default true). */
  convert?: boolean;
  /** Video conversion limit, ms (default 30,000, spec 000 §9). */
  videoTimeoutMs?: number;
  /**
   * Called after the change is stored and before listeners are notified: caches of the bot must be
   * dropped here, or a listener reacting to the event could read the old list.
   */
  onChange?: (chatbotId: string) => void;
  /** Called when a conversion fails and the original is kept. */
  onConversionError?: (err: unknown) => void;
}

/** Audio formats converted to OGG/Opus on upload (spec 000 §7: mp3, wav, aac and m4a). */
const AUDIO_TO_OGG = new Set(['mp3', 'wav', 'aac', 'm4a']);

/**
 * Converts audio to OGG/Opus and video to WebM (engine/media.ts) so every channel can play the
 * file. A failed audio or video conversion keeps the original (spec 000 §7); a video that takes
 * longer than 30 s is refused with the spec's text.
 */
async function convertForChannels(
  format: DetectedFormat,
  upload: NewUpload,
): Promise<{ format: DetectedFormat; data: UploadBytes; video: NewUpload['video']; converted?: Converted }> {
  if (upload.convert === false) return { format, data: upload.data, video: upload.video ?? null };
  try {
    if (format.fileType === 'audio' && AUDIO_TO_OGG.has(format.ext)) {
      const out = await toOgg(upload.data, format.ext);
      return {
        format: { fileType: 'audio', mime: 'audio/ogg', ext: 'ogg', aliases: ['oga', 'opus'] },
        data: out,
        video: null,
        converted: out,
      };
    }
    if (format.fileType === 'video' && format.ext !== 'webm') {
      const out = await toWebm(upload.data, format.ext, upload.videoTimeoutMs);
      return {
        format: { fileType: 'video', mime: 'video/webm', ext: 'webm', aliases: [] },
        data: out,
        video: out.video ?? null,
        converted: out,
      };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    upload.onConversionError?.(err);
  }
  return { format, data: upload.data, video: upload.video ?? null };
}

/**
 * Validates and stores one upload: bytes on disk, then the row, in one transaction that holds the
 * bot's row lock so concurrent uploads check the limits in turn.
 * @throws AppError NOT_FOUND (not the owner's bot), PAYLOAD_TOO_LARGE (over 10 MB),
 *   UNSUPPORTED_MEDIA_TYPE (format), LIMIT_REACHED (10 files or 100 MB).
 */
export async function addFile(
  db: Kysely<Database>,
  storage: Storage,
  upload: NewUpload,
): Promise<ChatbotFile> {
  const shownName = upload.originalName || 'archivo';
  if (sizeOf(upload.data) > FILE_LIMITS.maxFileBytes)
    throw new AppError('PAYLOAD_TOO_LARGE', FILE_MESSAGES.tooBig(shownName));
  const detected = await detectFormat(upload.data, shownName);
  if (!detected) throw new AppError('UNSUPPORTED_MEDIA_TYPE', unsupportedMessage(shownName));
  const { format, data, video, converted } = await convertForChannels(detected, upload);
  try {
    return await storeUpload(db, storage, upload, { format, data, video });
  } finally {
    await converted?.dispose();
  }
}

/** The part of {@link addFile} after the checks and the conversion: the object, then the row. */
async function storeUpload(
  db: Kysely<Database>,
  storage: Storage,
  upload: NewUpload,
  { format, data, video }: { format: DetectedFormat; data: UploadBytes; video: NewUpload['video'] },
): Promise<ChatbotFile> {
  const shownName = upload.originalName || 'archivo';
  const size = sizeOf(data);
  const fileName = normalizeFileName(shownName, format.ext, format.aliases);
  const key = storageKey(upload.ownerId, fileName);
  let written = false;
  try {
    const row = await db.transaction().execute(async (trx) => {
      const bot = await findOwnedChatbot(trx, upload.ownerId, upload.chatbotId);
      if (!bot) throw botNotFound();
      await lockChatbotRow(trx, bot.id);
      const usage = await fileUsage(trx, bot.id);
      if (usage.count >= FILE_LIMITS.maxFilesPerBot)
        throw new AppError('LIMIT_REACHED', FILE_MESSAGES.tooMany);
      if (usage.bytes + size > FILE_LIMITS.maxBotBytes)
        throw new AppError('LIMIT_REACHED', FILE_MESSAGES.botFull);
      // A spooled or converted file streams from disk to the storage (local file or S3 upload).
      await storage.put(key, data instanceof Uint8Array ? data : createReadStream(data.path));
      written = true;
      return insertFile(trx, {
        user_id: upload.ownerId,
        chatbot_id: bot.id,
        file_name: fileName,
        file_type: format.fileType,
        file_purpose: upload.purpose ?? null,
        file_url: key,
        keyword: normalizeKeywords(upload.keyword ?? ''),
        context: (upload.context ?? '').trim(),
        mime_type: format.mime,
        size_bytes: size,
        video_duration: video?.duration ?? null,
        video_width: video?.width ?? null,
        video_height: video?.height ?? null,
        video_codec: video?.codec ?? null,
      });
    });
    upload.onChange?.(row.chatbot_id);
    await notifyFileChange(db, { chatbotId: row.chatbot_id, op: 'insert', fileId: row.id });
    return row;
  } catch (err) {
    if (written) await storage.remove(key).catch(() => {});
    throw err;
  }
}

/**
 * Sets a file's keywords and context (keywords normalised, spec 000 §5); both are required.
 * @throws AppError BAD_REQUEST "Campo requerido" when either is empty; NOT_FOUND when not the owner's file.
 */
export async function updateFileKeywords(
  db: Kysely<Database>,
  ownerId: string,
  fileId: string,
  input: { keyword: string; context: string },
  onChange?: (chatbotId: string) => void,
): Promise<ChatbotFile> {
  const keyword = normalizeKeywords(input.keyword);
  const context = input.context.trim();
  if (!keyword || !context) throw new AppError('BAD_REQUEST', FILE_MESSAGES.required);
  const row = await updateOwnedFile(db, ownerId, fileId, { keyword, context });
  if (!row) throw new AppError('NOT_FOUND', FILE_MESSAGES.updateFailed);
  onChange?.(row.chatbot_id);
  await notifyFileChange(db, { chatbotId: row.chatbot_id, op: 'update', fileId: row.id });
  return row;
}

/**
 * Deletes a file's row, then its bytes (a storage failure is only logged, spec 000 §8).
 * @throws AppError NOT_FOUND when not the owner's file.
 */
export async function removeFile(
  db: Kysely<Database>,
  storage: Storage,
  ownerId: string,
  fileId: string,
  onStorageError?: (err: unknown) => void,
  onChange?: (chatbotId: string) => void,
): Promise<ChatbotFile> {
  const row = await deleteOwnedFile(db, ownerId, fileId);
  if (!row) throw new AppError('NOT_FOUND', FILE_MESSAGES.deleteFailed);
  onChange?.(row.chatbot_id);
  await notifyFileChange(db, { chatbotId: row.chatbot_id, op: 'delete', fileId: row.id });
  if (!/^https?:\/\//i.test(row.file_url))
    await storage.remove(row.file_url).catch((err) => onStorageError?.(err));
  return row;
}

/**
 * Where an outgoing attachment's bytes are, for a channel that uploads them: the storage key of a
 * bot file (`chatbot_files.file_url`) or of a file kept elsewhere in this server's storage and sent
 * by its `/files/…` address (an owner's upload or voice note, issue 27 §3), else the public address
 * to pass on (a bot file kept at an http(s) address, or any other URL). The one resolution both
 * uploading adapters (Telegram, WhatsApp) use.
 */
export async function attachmentSource(
  db: Kysely<Database>,
  attachment: { fileId: string; url: string },
  publicUrl: string | undefined,
): Promise<{ key: string } | { url: string }> {
  const file = await findFile(db, attachment.fileId);
  if (file) return /^https?:\/\//i.test(file.file_url) ? { url: file.file_url } : { key: file.file_url };
  const key = storageKeyOfUrl(attachment.url, publicUrl);
  return key ? { key } : { url: attachment.url };
}
