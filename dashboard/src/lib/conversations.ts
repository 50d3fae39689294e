/**
 * The dashboard's side of followers' conversations (issue 14): queries and actions on the
 * conversations plugin's owner routes (plugins/conversations/routes.ts), typed by its browser-safe
 * contract. Failures come back as a {@link ConversationsError} with the server's text.
 */
import { queryOptions } from '@tanstack/react-query';
import type {
  ConversationStatus,
  FollowersAnswer,
  FollowersQuery,
  MessagesAnswer,
  PhoneLinkAnswer,
  PhoneStatus,
} from '../../../plugins/conversations/api.ts';
import { i18n } from '../i18n/index.ts';
import { ApiError, apiCall } from './api.ts';

export type { FollowerRow, MessageRow, MessagesAnswer } from '../../../plugins/conversations/api.ts';

/** A failed call: the server's `code`, `network` or `server` (lib/api.ts). */
export { ApiError as ConversationsError } from './api.ts';

/** Spec 001 §9: the followers list refreshes every 3 s when the live stream is down. */
export const FALLBACK_REFRESH_MS = 3000;

/**
 * The followers with a conversation (newest first), filtered on the server (issue 27 §4.3): `q`
 * searches names and message texts, `channel` and `status` narrow, `tests` '1' adds the test chats.
 */
export const followersQuery = (chatbotId: string, filter: FollowersQuery, live: boolean) =>
  queryOptions({
    queryKey: ['conversations', chatbotId, 'followers', filter],
    queryFn: () => {
      const params = new URLSearchParams(
        Object.entries(filter).filter((e): e is [string, string] => Boolean(e[1])),
      ).toString();
      return apiCall<FollowersAnswer>('GET', `/api/conversations/${chatbotId}${params ? `?${params}` : ''}`);
    },
    refetchInterval: live ? false : FALLBACK_REFRESH_MS,
  });

/** Marks one conversation open, needing a person, or resolved (issue 27 §4.4). */
export function setStatus(
  chatbotId: string,
  channel: string,
  userId: string,
  status: ConversationStatus,
): Promise<{ status: ConversationStatus }> {
  return apiCall('POST', `/api/conversations/${chatbotId}/status`, { channel, userId, status });
}

/** The newest page of one conversation. */
export const messagesQuery = (chatbotId: string, channel: string, userId: string, live: boolean) =>
  queryOptions({
    queryKey: ['conversations', chatbotId, 'messages', channel, userId],
    queryFn: () =>
      apiCall<MessagesAnswer>(
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
  return apiCall(
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
  return apiCall('POST', `/api/conversations/${chatbotId}/reply`, { channel, userId, text });
}

/**
 * What the owner attaches to a reply (issue 27 §3): one of the bot's stored files (its id, as the
 * broadcast bar's picker lists them) or a new file from the device.
 */
export type ReplyFile = { fileKey: string; name: string } | { upload: File };

/**
 * The owner's file (with an optional text) to a follower, `POST /api/conversations/:id/file` as
 * multipart/form-data; refusals come in the dashboard's language (413 over 10 MB, 415 format).
 * @throws ConversationsError with the server's text, or code `network`.
 */
export async function sendFile(
  chatbotId: string,
  to: { channel: string; userId: string },
  text: string,
  file: ReplyFile,
): Promise<{ pausedUntil: string }> {
  const form = new FormData();
  form.append('channel', to.channel);
  form.append('userId', to.userId);
  if (text) form.append('text', text);
  if ('fileKey' in file) form.append('fileKey', file.fileKey);
  else form.append('file', file.upload, file.upload.name);
  let res: Response;
  try {
    res = await fetch(`/api/conversations/${encodeURIComponent(chatbotId)}/file`, {
      method: 'POST',
      body: form,
      credentials: 'same-origin',
      headers: { 'x-app-language': i18n.language },
    });
  } catch {
    throw new ApiError('network', '');
  }
  const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new ApiError(String(data.code ?? 'server'), String(data.error ?? res.status));
  return data as { pausedUntil: string };
}

/** Pauses or resumes the bot for one follower. */
export function takeover(
  chatbotId: string,
  channel: string,
  userId: string,
  paused: boolean,
  quietMinutes?: number,
): Promise<{ pausedUntil: string | null; quietMinutes: number }> {
  return apiCall('POST', `/api/conversations/${chatbotId}/takeover`, {
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
  return apiCall(
    'DELETE',
    `/api/conversations/${chatbotId}/messages?channel=${encodeURIComponent(channel)}&userId=${encodeURIComponent(userId)}`,
  );
}

/** Whether the owner's Telegram is linked; every 3 s while a link is waiting to be opened. */
export const phoneQuery = (chatbotId: string, waiting: boolean) =>
  queryOptions({
    queryKey: ['conversations', chatbotId, 'phone'],
    queryFn: () => apiCall<PhoneStatus>('GET', `/api/conversations/${chatbotId}/phone`),
    refetchInterval: (q) => (waiting && !q.state.data?.linked ? FALLBACK_REFRESH_MS : false),
  });

/** A one-time deep link that links the owner's Telegram (valid 15 minutes). */
export function createPhoneLink(chatbotId: string): Promise<PhoneLinkAnswer> {
  return apiCall('POST', `/api/conversations/${chatbotId}/phone`);
}

/** Unlinks the owner's Telegram. */
export function unlinkPhone(chatbotId: string): Promise<{ linked: false }> {
  return apiCall('DELETE', `/api/conversations/${chatbotId}/phone`);
}
