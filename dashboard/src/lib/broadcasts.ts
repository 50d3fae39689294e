/**
 * The dashboard's side of broadcasts and the voice recorder (issue 14 §3, §4; spec 001 §5, §7, §8):
 * the broadcasts plugin's routes (plugins/broadcasts), the audio-effects plugin's
 * `POST /api/apply-audio-effect`, and the conversations plugin's voice note to one follower.
 * Failures come back as a {@link BroadcastError} with the server's text, or the spec's network text.
 */
import { queryOptions } from '@tanstack/react-query';
import type { AudienceAnswer, BroadcastsAnswer } from '../../../plugins/broadcasts/api.ts';
import { i18n } from '../i18n/index.ts';

export type {
  Audience,
  AudienceAnswer,
  AudienceCount,
  BroadcastChannel,
  BroadcastRow,
} from '../../../plugins/broadcasts/api.ts';
export { NO_AUDIENCE_CODE, NOTHING_TO_SEND } from '../../../plugins/broadcasts/api.ts';

/** Spec 001 §8 Broadcast and voice. */
export const NETWORK_ERROR = 'Error de red al enviar archivo';

/** A failed call with the text to show, and the server's `code` when it sent one (`noAudience`). */
export class BroadcastError extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/** How often the progress refreshes while a broadcast is sending, ms. */
export const PROGRESS_REFRESH_MS = 1000;

/** A bot's broadcasts (newest first), refreshed every second while one is sending. */
export const broadcastsQuery = (chatbotId: string) =>
  queryOptions({
    queryKey: ['broadcasts', chatbotId],
    queryFn: async (): Promise<BroadcastsAnswer> => {
      const res = await fetch(`/api/broadcasts/${encodeURIComponent(chatbotId)}`);
      if (!res.ok) throw new BroadcastError(`GET /api/broadcasts ${res.status}`);
      return (await res.json()) as BroadcastsAnswer;
    },
    refetchInterval: (q) =>
      q.state.data?.broadcasts.some((b) => b.status === 'sending') ? PROGRESS_REFRESH_MS : false,
  });

/**
 * Who a broadcast sent now would reach, per channel (`GET /api/broadcasts/:chatbotId/audience`,
 * issue 27 §5). Refreshed when the window regains focus; the confirmation asks again.
 */
export const audienceQuery = (chatbotId: string) =>
  queryOptions({
    queryKey: ['broadcasts', chatbotId, 'audience'],
    queryFn: async (): Promise<AudienceAnswer> => {
      const res = await fetch(`/api/broadcasts/${encodeURIComponent(chatbotId)}/audience`);
      if (!res.ok) throw new BroadcastError(`GET /api/broadcasts/audience ${res.status}`);
      return (await res.json()) as AudienceAnswer;
    },
  });

async function postForm(url: string, form: FormData): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      body: form,
      credentials: 'same-origin',
      // The server's texts (the 0-followers refusal) come in the dashboard's language.
      headers: { 'x-app-language': i18n.language },
    });
  } catch {
    throw new BroadcastError(NETWORK_ERROR);
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { error?: string; code?: string };
    throw new BroadcastError(body.error ?? String(res.status), body.code ?? null);
  }
  return res;
}

/**
 * Starts a broadcast to every follower it can reach (Telegram, WhatsApp linked number, web): a
 * text, a stored file (`fileKey`, its id), or a recording with a voice effect. Resolves with its id
 * and number of recipients.
 * @throws BroadcastError with the server's text ("Escribe un texto o selecciona un archivo", …;
 *   code `noAudience` when it would reach nobody) or "Error de red al enviar archivo".
 */
export async function sendBroadcast(
  chatbotId: string,
  what: { text?: string; fileKey?: string; audio?: Blob; preset?: string },
): Promise<{ broadcastId: string; total: number }> {
  const form = new FormData();
  form.append('chatbotId', chatbotId);
  if (what.text) form.append('text', what.text);
  if (what.fileKey) form.append('fileKey', what.fileKey);
  if (what.preset) form.append('preset', what.preset);
  if (what.audio) form.append('audio', what.audio, 'grabacion.webm');
  return (await (await postForm('/api/telegram-broadcast', form)).json()) as {
    broadcastId: string;
    total: number;
  };
}

/**
 * Applies a voice effect to a recording (`POST /api/apply-audio-effect`): the OGG/Opus voice note
 * to listen to before sending. @throws BroadcastError ("Error procesando el audio", …).
 */
export async function applyAudioEffect(recording: Blob, preset: string): Promise<Blob> {
  const form = new FormData();
  form.append('preset', preset);
  form.append('file', recording, 'grabacion.webm');
  return (await postForm('/api/apply-audio-effect', form)).blob();
}

/**
 * Sends a recording with its effect to one follower as a voice note (the bot then stays quiet for
 * them, as after a reply). @throws BroadcastError ("Error al enviar el audio.", the channel's words).
 */
export async function sendVoiceNote(
  chatbotId: string,
  to: { channel: string; userId: string },
  recording: Blob,
  preset: string,
): Promise<void> {
  const form = new FormData();
  form.append('channel', to.channel);
  form.append('userId', to.userId);
  form.append('preset', preset);
  form.append('audio', recording, 'grabacion.webm');
  await postForm(`/api/conversations/${encodeURIComponent(chatbotId)}/voice`, form);
}
