/**
 * The conversations API's contract (issue 14; spec 001 §2 Followers chat screen, §7
 * conversation_messages calls): zod schemas shared by the routes and the dashboard. Browser-safe.
 */
import { z } from 'zod';

/** Spec 000 §4, issue 14: the quiet period after the owner's last message before the bot answers again (default 30 min). */
export const DEFAULT_QUIET_MINUTES = 30;
export const QUIET_CHOICES = [10, 30, 60, 120, 480, 1440] as const;

/**
 * Issue 27 §4.4: a conversation is open, needs a person (the owner must step in; set by the owner
 * or the hand-off detection, {@link import('./status.ts').markNeedsPerson}), or resolved.
 */
export const CONVERSATION_STATUSES = ['open', 'needs_person', 'resolved'] as const;
export const ConversationStatus = z.enum(CONVERSATION_STATUSES);
export type ConversationStatus = z.infer<typeof ConversationStatus>;

/** Issue 27 §4.3: the channels the list filters by. */
export const FILTER_CHANNELS = ['telegram', 'whatsapp', 'web', 'ialanding'] as const;

/** One follower in the list (newest activity first). */
export const FollowerRow = z.object({
  channel: z.string(),
  userId: z.string(),
  /**
   * Issue 27 §4.2: the name the channel gave (Telegram first name, WhatsApp profile name), else the
   * name given in a booking, else the username; null when nothing names them.
   */
  name: z.string().nullable(),
  /** Their Telegram `@username` or WhatsApp number (`+34600111222`), when the channel gave it. */
  handle: z.string().nullable(),
  /**
   * Issue 27 §4.2: a web or IALanding visitor without a name is "Visitante web {n}": n is small and
   * stable per bot (the order in which the bot first saw its web visitors); null elsewhere.
   */
  visitorNo: z.number().int().nullable(),
  status: ConversationStatus,
  lastText: z.string(),
  lastFrom: z.enum(['user', 'bot', 'owner']),
  /** ISO time of the last message. */
  lastAt: z.string(),
  /** Follower messages the owner has not opened yet. */
  unread: z.number().int(),
  /** ISO time until which the bot stays silent for this follower (the owner took over), or null. */
  pausedUntil: z.string().nullable(),
});
export type FollowerRow = z.infer<typeof FollowerRow>;

export const FollowersAnswer = z.object({ followers: z.array(FollowerRow) });

/**
 * `GET /api/conversations/:chatbotId` query (issue 27 §4.3, §4.5): `q` searches the name, the id
 * and every message's text; `channel` and `status` filter; the owner's test chats only with `tests=1`.
 */
export const FollowersQuery = z.object({
  q: z.string().trim().max(100).optional(),
  channel: z.enum(FILTER_CHANNELS).optional(),
  status: ConversationStatus.optional(),
  tests: z.enum(['0', '1']).optional(),
});
export type FollowersQuery = z.infer<typeof FollowersQuery>;
export type FollowersAnswer = z.infer<typeof FollowersAnswer>;

/** One stored message as the conversation shows it. */
export const MessageRow = z.object({
  id: z.string(),
  from: z.enum(['user', 'bot', 'owner']),
  text: z.string(),
  at: z.string(),
  attachment: z
    .object({ url: z.string(), type: z.string(), name: z.string(), mime: z.string().nullable().optional() })
    .nullable(),
});
export type MessageRow = z.infer<typeof MessageRow>;

export const MessagesAnswer = z.object({
  messages: z.array(MessageRow),
  /** Whether older messages exist (ask again with `before` = the first id). */
  more: z.boolean(),
  pausedUntil: z.string().nullable(),
  quietMinutes: z.number().int(),
  /** Whether the follower's channel can receive an owner's message. */
  canReply: z.boolean(),
  /** Issue 27 §4.4. */
  status: ConversationStatus,
});
export type MessagesAnswer = z.infer<typeof MessagesAnswer>;

/** Which conversation. */
export const ConversationQuery = z.object({
  channel: z.string().min(1).max(40),
  userId: z.string().min(1).max(200),
});

export const ReplyBody = ConversationQuery.extend({ text: z.string().trim().min(1).max(4000) });
export const TakeoverBody = ConversationQuery.extend({
  paused: z.boolean(),
  quietMinutes: z.number().int().min(1).max(10_080).optional(),
});
/** `POST /api/conversations/:chatbotId/status` (issue 27 §4.4). */
export const StatusBody = ConversationQuery.extend({ status: ConversationStatus });
export const ConversationsErrorBody = z.object({ error: z.string(), code: z.string().optional() });

/** Spec 001 §2: texts starting with these are hidden in the conversation (internal notes of the old product). */
export function hiddenText(text: string): boolean {
  return /^\((texto|archivo):/i.test(text.trim());
}

/** `GET /api/conversations/:chatbotId/phone`: the owner's phone link. */
export const PhoneStatus = z.object({
  telegram: z.boolean(),
  linked: z.boolean(),
  linkedAt: z.string().nullable(),
});
export type PhoneStatus = z.infer<typeof PhoneStatus>;

/** `POST /api/conversations/:chatbotId/phone`: the one-time deep link. */
export const PhoneLinkAnswer = z.object({ url: z.string(), expiresAt: z.string() });
export type PhoneLinkAnswer = z.infer<typeof PhoneLinkAnswer>;

/**
 * The registry event a plugin emits when a follower asks for a person (issue 27 §2: the
 * notifications plugin's hand-off); the conversations plugin marks the conversation "needs a
 * person". Payload: {@link NeedsPerson}.
 */
export const NEEDS_PERSON_EVENT = 'conversations.needs-person';

/** The payload of {@link NEEDS_PERSON_EVENT}: the conversation (`userId`: the follower's id on the channel). */
export const NeedsPerson = z.object({ chatbotId: z.string(), channel: z.string(), userId: z.string() });

/**
 * The registry event that asks the conversations plugin to tell the owner something on their own
 * Telegram chat linked to a bot (issue 27 §1, the notifications' telegram route): the listener
 * (owner-notice.ts) queues a durable job keyed by `key` (a replay sends once) that sends `text`
 * through the bot's channel adapter; nothing happens when no chat is linked. `chatbotId` null: the
 * owner's first bot with a linked chat (an event about the account). Payload: {@link OwnerNotice}.
 */
export const OWNER_NOTICE_EVENT = 'conversations.owner-notice';

/** The payload of {@link OWNER_NOTICE_EVENT}. */
export const OwnerNotice = z.object({
  chatbotId: z.string().nullable(),
  ownerId: z.string(),
  text: z.string().min(1).max(3500),
  key: z.string().min(1).max(200),
});

/**
 * The registry query "does this owner have their Telegram linked to any bot?" (issue 27 §1, the
 * notifications settings' `telegramLinked`): the emitter passes `{ ownerId, reply }` and the
 * conversations plugin calls `reply(true|false)` before its listener resolves.
 */
export const OWNER_TELEGRAM_QUERY = 'conversations.owner-telegram';
