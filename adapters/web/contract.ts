/**
 * The chat wire contract every HTTP chat client speaks (spec 000 §7, 001 §7): the body of a turn
 * and its answer, shared by the bot-id routes (`POST /api/chatbot-message/:id`, the owner's test
 * chat and `charla chat`) and the web-key routes (`POST /api/web/:key/message`, the widget and the
 * IALanding). Moved here from engine/http/routes/chat.ts (issue 25 §3: the chat channel leaves the
 * engine).
 */
import { z } from 'zod';
import {
  ArchivosBlock,
  Attachment,
  ContenedorEmpatico,
  HistoryItemInput,
  MAX_MESSAGE_CHARS,
} from '../../engine/schemas.ts';

/** `{error}`: every refusal of these routes. */
export const ErrorBody = z.object({ error: z.string() });

/** A file reference as clients send it back: an id, a file name, or an offered-list item. */
export const FileMention = z.union([z.string().max(300), z.object({ id: z.string().max(300) }).loose()]);
/** The id (or name) a {@link FileMention} refers to. */
export const mentionId = (m: z.infer<typeof FileMention>) => (typeof m === 'string' ? m : m.id);

/** Which client sends a turn: the widget, the IALanding, the owner's test chat or `charla chat`. */
export const ChatChannel = z.enum(['web', 'test', 'ialanding', 'cli']);

/**
 * Body of `POST /api/chatbot-message/:id` (spec 000 §7, plus optional follower identity and
 * idempotency). Limits: `userMessage` at most MAX_MESSAGE_CHARS (8000) characters, else 400; each
 * `messageHistory` item is trimmed to MAX_MESSAGE_CHARS rather than refused (HistoryItemInput).
 */
export const ChatMessageBody = z.object({
  userMessage: z
    .string()
    .max(MAX_MESSAGE_CHARS)
    .describe(
      `The follower’s message; empty after trimming or over ${MAX_MESSAGE_CHARS} characters gives 400.`,
    ),
  messageHistory: z
    .array(HistoryItemInput)
    .max(100)
    .optional()
    .describe(
      `Earlier messages, oldest first, as role/content (at most 100). An item longer than ${MAX_MESSAGE_CHARS} characters is cut to its first ${MAX_MESSAGE_CHARS} instead of refusing the turn.`,
    ),
  archivosMostrados: z
    .array(FileMention)
    .max(50)
    .optional()
    .describe('Files offered by the last LIST (ids or list items).'),
  archivosEnviados: z
    .array(FileMention)
    .max(50)
    .optional()
    .describe('Files already sent in this conversation (ids or names).'),
  visitorId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe('A stable id of the follower (the widget keeps one per browser); anonymous when absent.'),
  username: z.string().max(128).optional(),
  messageId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'Idempotency key of this message, per follower; also read from Idempotency-Key. The same follower sending it again gets the stored answer.',
    ),
  channel: ChatChannel.default('web').describe(
    'Which client sends the message: `web`/`ialanding` (public: the bot must be public, its web service on and its owner with days), `test` (the owner’s test chat: the bot’s owner only) or `cli` (`charla chat`: the owner or the operator).',
  ),
});

/**
 * The answer of a turn on every chat route: the reply, the file it carries, what the bot heard (a
 * voice message's transcript), the spoken reply when the bot speaks, and the empathy container's
 * `archivos` block (the whole container for the bot's owner with `?debug=1`).
 */
export const ChatMessageReply = z.object({
  reply: z.string(),
  attachment: Attachment.nullable(),
  archivosEnviados: z.array(z.string()),
  contenedorEmpatico: z.union([ContenedorEmpatico, z.object({ archivos: ArchivosBlock })]),
  offline: z.boolean(),
  duplicate: z.boolean(),
  /** True when the bot stayed quiet (the owner took over this chat): `reply` is empty; show nothing. */
  silent: z.boolean(),
  heard: z
    .string()
    .describe('The follower’s message as the bot understood it (a voice message’s transcript).'),
  voice: z
    .string()
    .nullable()
    .describe(
      'Issue 15: the reply as an OGG/Opus voice note, `data:audio/ogg;base64,…`, when the bot speaks.',
    ),
  passages: z
    .array(
      z.object({ fileName: z.string(), page: z.number().nullable(), heading: z.string(), score: z.number() }),
    )
    .optional()
    .describe(
      'Issue 30 §3: the passages of the bot’s files used in this turn, with their score (`?debug=1`).',
    ),
  choices: z
    .array(z.object({ id: z.string(), label: z.string() }))
    .optional()
    .describe(
      'Issue 29: what a plugin offers to pick (free slots) as chips; sending a label as the next message picks it.',
    ),
});

/** A turn's answer as {@link ChatMessageReply}. */
export type ChatReply = z.infer<typeof ChatMessageReply>;
