/**
 * The Bot API side of the Telegram channel, on grammY's `Api` (https://core.telegram.org/bots/api):
 * clients with `@grammyjs/auto-retry`, error descriptions, and sending a reply (text
 * split at 4096 characters, files with the method their type needs, LIST offers as inline
 * keyboards).
 *
 * grammY (with node-fetch, whatwg-url and tr46, ~420 KB of the bundle) is loaded at first use
 * ({@link loadGrammy}), not at start-up: a server whose bots do not use Telegram never evaluates
 * it (issue 25: cold start; scripts/bundle.mjs puts it in a chunk of its own). Errors are
 * therefore recognised by their `name` and shape, not with `instanceof`.
 */
import type { Api, GrammyError, HttpError, InputFile } from 'grammy';
import { splitText } from '../../engine/channels/split.ts';
import { scrubTokens } from '../../engine/logger.ts';
import type { OutboundMessage } from '../../engine/registry/index.ts';
import type { Attachment } from '../../engine/schemas.ts';
import { isMissingFile } from '../../engine/storage/index.ts';

/** Bot API `sendMessage` limit, characters (UTF-16 units). */
export const MAX_TEXT = 4096;
/** Bot API caption limit, characters. */
export const MAX_CAPTION = 1024;

/** grammY and its auto-retry plugin, as one dynamically imported pair. */
type Grammy = typeof import('grammy') & Pick<typeof import('@grammyjs/auto-retry'), 'autoRetry'>;

let grammy: Promise<Grammy> | undefined;

/**
 * The exports of a dynamically imported CommonJS package. Node gives its named exports and
 * `default` (= `module.exports`); the esbuild bundle's chunk gives only `default`.
 */
function commonJs<T extends object>(namespace: T): T {
  return (namespace as { default?: T }).default ?? namespace;
}

/**
 * Loads grammY and `@grammyjs/auto-retry` once (memoized; a failed load is tried again at the
 * next call).
 * @throws the module loader's error when the packages cannot be loaded.
 */
export function loadGrammy(): Promise<Grammy> {
  grammy ??= Promise.all([import('grammy'), import('@grammyjs/auto-retry')]).then(
    ([core, retry]) => ({ ...commonJs(core), autoRetry: commonJs(retry).autoRetry }),
    (err: unknown) => {
      grammy = undefined;
      throw err;
    },
  );
  return grammy;
}

/**
 * A Bot API client for sending. auto-retry waits `retry_after` on a 429 and retries 5xx and
 * network failures with backoff (Bot API: "parameters.retry_after"), so no message is dropped to a
 * flood limit; after `maxRetryAttempts` the call throws and the inbox retries the whole update.
 * @param apiRoot e.g. `https://api.telegram.org` (no trailing slash) or a local Bot API server.
 */
export async function sendingApi(token: string, apiRoot: string): Promise<Api> {
  const { Api, autoRetry } = await loadGrammy();
  const api = new Api(token, { apiRoot });
  api.config.use(autoRetry({ maxRetryAttempts: 6, maxDelaySeconds: 120, rethrowHttpErrors: false }));
  return api;
}

/**
 * A Bot API client without retries, for `getUpdates` and checks whose failures must show.
 * @param timeoutSeconds request time limit (grammY's default is 500 s; long polls need more than
 *   their own `timeout`).
 */
export async function plainApi(token: string, apiRoot: string, timeoutSeconds = 60): Promise<Api> {
  const { Api } = await loadGrammy();
  return new Api(token, { apiRoot, timeoutSeconds });
}

/**
 * True when `err` is grammY's `GrammyError` (Telegram answered `ok: false`: it has `error_code`
 * and `description`), told by its name and shape so that grammY need not be loaded to ask.
 */
export function isGrammyError(err: unknown): err is GrammyError {
  return (
    err instanceof Error &&
    err.name === 'GrammyError' &&
    typeof (err as Partial<GrammyError>).error_code === 'number'
  );
}

/** True when `err` is grammY's `HttpError` (the request to the Bot API failed; the cause in `error`). */
export function isHttpError(err: unknown): err is HttpError {
  return err instanceof Error && err.name === 'HttpError' && 'error' in err;
}

/** A short, owner-readable description of a Bot API or network failure, never with the token. */
export function describeError(err: unknown): string {
  const text = isGrammyError(err)
    ? `${err.error_code}: ${err.description}`
    : isHttpError(err)
      ? `network: ${String((err.error as Error)?.message ?? err.message)}`
      : err instanceof Error
        ? err.message
        : String(err);
  return scrubTokens(text);
}

/**
 * True for a refusal that will not change on retry: a 4xx other than 429 (Bot API: bad request,
 * forbidden because the follower blocked the bot, file too big …), or a stored file that is missing. Retrying would only re-send
 * what was already delivered.
 */
export function isPermanent(err: unknown): boolean {
  // A stored file that is gone stays gone (issue 26 §1).
  if (isMissingFile(err)) return true;
  return isGrammyError(err) && err.error_code >= 400 && err.error_code < 500 && err.error_code !== 429;
}

/** True when Telegram refused the token (401 Unauthorized or 404 Not Found on the bot's path). */
export function isTokenRejected(err: unknown): boolean {
  return isGrammyError(err) && (err.error_code === 401 || err.error_code === 404);
}

/**
 * Where an attachment's bytes come from: a stored file (`open` gives its bytes as a stream, and is
 * called again when grammY retries the upload; `close` releases a stream left unread), or an http
 * address Telegram fetches.
 */
export type FileSource = { open: () => AsyncIterable<Uint8Array>; close: () => void } | { url: string };

/**
 * The Bot API method for an attachment (issue 5): images as photos, PDFs and documents (.txt, .md, .docx) as documents, OGG/Opus
 * audio as a voice note (what converted uploads are), other audio as audio, videos as videos.
 */
export function methodFor(
  attachment: Pick<Attachment, 'type' | 'mime'>,
): 'sendPhoto' | 'sendDocument' | 'sendVoice' | 'sendAudio' | 'sendVideo' {
  switch (attachment.type) {
    case 'image':
      return 'sendPhoto';
    case 'pdf':
    case 'document':
      return 'sendDocument';
    case 'audio':
      return /ogg|opus/i.test(attachment.mime) ? 'sendVoice' : 'sendAudio';
    case 'video':
      return 'sendVideo';
  }
}

/**
 * Sends a reply to a chat: the text in parts of at most 4096 characters, the LIST choices as an
 * inline keyboard under the last part (callback data `f:<file id>`, at most 64 bytes), then the
 * attachment with its caption. `telegramFileIds` caches the `file_id` Telegram returns for an
 * uploaded file, so the same file is not uploaded to the same bot twice.
 * @returns the ids of the text messages sent, as `<chat id>:<message_id>` (the format of an inbound
 *   message's id): a reply to one of them comes back with it as `replyTo`.
 * @throws GrammyError or HttpError when Telegram refuses or cannot be reached after the retries.
 */
export async function sendReply(
  api: Api,
  chatId: string,
  message: OutboundMessage,
  resolveFile: (attachment: Attachment) => Promise<FileSource>,
  telegramFileIds: Map<string, string>,
  onFileRefused?: (reason: string) => void,
): Promise<string[]> {
  const { InlineKeyboard, InputFile } = await loadGrammy();
  const ids: string[] = [];
  const parts = splitText(message.text, MAX_TEXT);
  const keyboard =
    message.choices && message.choices.length > 0
      ? message.choices.reduce(
          (kb, choice) => kb.text(choice.label.slice(0, 64), `f:${choice.id}`).row(),
          new InlineKeyboard(),
        )
      : undefined;
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1;
    const sent = await api.sendMessage(chatId, part, last && keyboard ? { reply_markup: keyboard } : {});
    ids.push(`${chatId}:${sent.message_id}`);
  }
  if (parts.length === 0 && keyboard) await api.sendMessage(chatId, '…', { reply_markup: keyboard });
  // A voice note (an owner's recording with an effect, a voice reply): Bot API sendVoice, OGG/Opus.
  if (message.voice)
    await api.sendVoice(
      chatId,
      new InputFile(message.voice.data, 'voz.ogg'),
      message.voice.durationS ? { duration: Math.round(message.voice.durationS) } : {},
    );
  const attachment = message.attachment;
  if (!attachment) return ids;
  try {
    await sendAttachment(api, chatId, attachment, resolveFile, telegramFileIds);
  } catch (err) {
    // The text went out: a refused file must not make the whole reply be sent again. A network
    // failure (after auto-retry) still throws, so the inbox retries while nothing more is known.
    if (!isPermanent(err)) throw err;
    onFileRefused?.(describeError(err));
  }
  return ids;
}

/** Sends one file with the method its type needs, reusing Telegram's `file_id` when known. */
async function sendAttachment(
  api: Api,
  chatId: string,
  attachment: Attachment,
  resolveFile: (attachment: Attachment) => Promise<FileSource>,
  telegramFileIds: Map<string, string>,
): Promise<void> {
  const { InputFile } = await loadGrammy();
  const method = methodFor(attachment);
  const caption = attachment.caption ? attachment.caption.slice(0, MAX_CAPTION) : undefined;
  const cached = telegramFileIds.get(attachment.fileId);
  const source = cached ? undefined : await resolveFile(attachment);
  const input: string | InputFile =
    cached ??
    (!source || 'url' in source ? (source?.url ?? '') : new InputFile(source.open, attachment.name));
  const other = caption ? { caption } : {};
  let sent: unknown;
  try {
    sent =
      method === 'sendPhoto'
        ? await api.sendPhoto(chatId, input, other)
        : method === 'sendDocument'
          ? await api.sendDocument(chatId, input, other)
          : method === 'sendVoice'
            ? await api.sendVoice(chatId, input, other)
            : method === 'sendAudio'
              ? await api.sendAudio(chatId, input, other)
              : await api.sendVideo(chatId, input, other);
  } finally {
    if (source && 'close' in source) source.close();
  }
  const media = sent as { photo?: Array<{ file_id: string }> } & Partial<
    Record<'document' | 'voice' | 'audio' | 'video', { file_id: string }>
  >;
  const fileId =
    media.photo?.at(-1)?.file_id ??
    media.document?.file_id ??
    media.voice?.file_id ??
    media.audio?.file_id ??
    media.video?.file_id;
  if (fileId) telegramFileIds.set(attachment.fileId, fileId);
}
