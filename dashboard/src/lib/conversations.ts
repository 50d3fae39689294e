/**
 * The dashboard's side of followers' conversations (issue 14): queries and actions on the
 * conversations plugin's owner routes (plugins/conversations/routes.ts), typed by its browser-safe
 * contract. Failures come back as a {@link ConversationsError} with the server's text.
 */
import { queryOptions } from '@tanstack/react-query';
import type {
  FollowersAnswer,
  MessagesAnswer,
  PhoneLinkAnswer,
  PhoneStatus,
} from '../../../plugins/conversations/api.ts';

export type { FollowerRow, MessageRow, MessagesAnswer } from '../../../plugins/conversations/api.ts';

/** A failed call: the server's `code` and text (or `network`). */
export class ConversationsError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      credentials: 'same-origin',
      ...(body !== undefined
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
        : {}),
    });
  } catch {
    throw new ConversationsError('network', '');
  }
  const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new ConversationsError(String(data.code ?? 'server'), String(data.error ?? res.status));
  return data as T;
}

/** Spec 001 §9: the followers list refreshes every 3 s when the live stream is down. */
export const FALLBACK_REFRESH_MS = 3000;

/** The followers with a conversation (newest first), optionally filtered by name. */
export const followersQuery = (chatbotId: string, q: string, live: boolean) =>
  queryOptions({
    queryKey: ['conversations', chatbotId, 'followers', q],
    queryFn: () =>
      call<FollowersAnswer>(
        'GET',
        `/api/conversations/${chatbotId}${q ? `?q=${encodeURIComponent(q)}` : ''}`,
      ),
    refetchInterval: live ? false : FALLBACK_REFRESH_MS,
  });

/** The newest page of one conversation. */
export const messagesQuery = (chatbotId: string, channel: string, userId: string, live: boolean) =>
  queryOptions({
    queryKey: ['conversations', chatbotId, 'messages', channel, userId],
    queryFn: () =>
      call<MessagesAnswer>(
        'GET',
        `/api/conversations/${chatbotId}/messages?channel=${encodeURIComponent(channel)}&userId=${encodeURIComponent(userId)}`,
      ),
    refetchInterval: live ? false : FALLBACK_REFRESH_MS,
  });

/** An older page (before a message id). */
export function olderMessages(
  chatbotId: string,
  channel: string,
  userId: string,
  before: string,
): Promise<MessagesAnswer> {
  return call(
    'GET',
    `/api/conversations/${chatbotId}/messages?channel=${encodeURIComponent(channel)}&userId=${encodeURIComponent(userId)}&before=${before}`,
  );
}

/** The owner's message to a follower. */
export function reply(
  chatbotId: string,
  channel: string,
  userId: string,
  text: string,
): Promise<{ pausedUntil: string }> {
  return call('POST', `/api/conversations/${chatbotId}/reply`, { channel, userId, text });
}

/** Pauses or resumes the bot for one follower. */
export function takeover(
  chatbotId: string,
  channel: string,
  userId: string,
  paused: boolean,
  quietMinutes?: number,
): Promise<{ pausedUntil: string | null; quietMinutes: number }> {
  return call('POST', `/api/conversations/${chatbotId}/takeover`, {
    channel,
    userId,
    paused,
    ...(quietMinutes ? { quietMinutes } : {}),
  });
}

/** Deletes one conversation. */
export function deleteConversation(
  chatbotId: string,
  channel: string,
  userId: string,
): Promise<{ deleted: number }> {
  return call(
    'DELETE',
    `/api/conversations/${chatbotId}/messages?channel=${encodeURIComponent(channel)}&userId=${encodeURIComponent(userId)}`,
  );
}

/** Whether the owner's Telegram is linked; every 3 s while a link is waiting to be opened. */
export const phoneQuery = (chatbotId: string, waiting: boolean) =>
  queryOptions({
    queryKey: ['conversations', chatbotId, 'phone'],
    queryFn: () => call<PhoneStatus>('GET', `/api/conversations/${chatbotId}/phone`),
    refetchInterval: (q) => (waiting && !q.state.data?.linked ? FALLBACK_REFRESH_MS : false),
  });

/** A one-time deep link that links the owner's Telegram (valid 15 minutes). */
export function createPhoneLink(chatbotId: string): Promise<PhoneLinkAnswer> {
  return call('POST', `/api/conversations/${chatbotId}/phone`);
}

/** Unlinks the owner's Telegram. */
export function unlinkPhone(chatbotId: string): Promise<{ linked: false }> {
  return call('DELETE', `/api/conversations/${chatbotId}/phone`);
}
