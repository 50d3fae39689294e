/**
 * A webhook-mode bot's health as Telegram sees it (Bot API `getWebhookInfo`: `url`,
 * `pending_update_count`, `last_error_date`, `last_error_message`), and the periodic check that
 * tells the owner when Telegram cannot deliver (issue 27 §1, "a channel is down": Telegram reports a
 * failing webhook only through `getWebhookInfo`, never by calling us).
 */
import { reportHealth } from '../../engine/channels/health-report.ts';
import type { ChannelContext, ConnectionHealth } from '../../engine/registry/index.ts';
import { describeError, plainApi } from './bot-api.ts';
import { TELEGRAM } from './updates.ts';

/** How often a node asks Telegram about the webhooks of the bots it connected, ms (10 min). */
export const WEBHOOK_CHECK_MS = 10 * 60_000;
/** A webhook error younger than this makes the connection failing, s (1 h). */
const RECENT_ERROR_S = 3600;

/**
 * Reads a webhook bot's health from Telegram and reports a change ("down" or "working again",
 * engine/channels/health-report.ts, told once per change). `base` is the adapter's view
 * (connected, last local error); `expected` the webhook URL this deployment set.
 * @returns `base` with Telegram's pending count and error; state `error` when the webhook points
 *   elsewhere, Telegram failed to deliver within the last hour, or Telegram could not be asked.
 */
export async function webhookHealth(
  ctx: ChannelContext,
  input: {
    chatbotId: string;
    token: string;
    apiRoot: string;
    expected: string;
    base: Omit<ConnectionHealth, 'state'>;
  },
): Promise<ConnectionHealth> {
  const { chatbotId, base } = input;
  try {
    const api = await plainApi(input.token, input.apiRoot);
    const info = await api.getWebhookInfo();
    const recentError =
      info.last_error_date !== undefined && Date.now() / 1000 - info.last_error_date < RECENT_ERROR_S
        ? (info.last_error_message ?? 'error')
        : null;
    const wrongUrl = info.url !== input.expected ? `webhook apunta a "${info.url || '(ninguno)'}"` : null;
    const failing = wrongUrl ?? recentError;
    void reportHealth(ctx, {
      chatbotId,
      channel: TELEGRAM,
      ok: !failing,
      ...(failing ? { reason: failing } : {}),
    });
    return {
      ...base,
      pendingUpdates: info.pending_update_count,
      lastError: wrongUrl ?? info.last_error_message ?? base.lastError,
      lastErrorAt:
        info.last_error_date !== undefined
          ? new Date(info.last_error_date * 1000).toISOString()
          : base.lastErrorAt,
      state: failing ? 'error' : 'connected',
    };
  } catch (err) {
    return { ...base, lastError: describeError(err), lastErrorAt: new Date().toISOString(), state: 'error' };
  }
}
