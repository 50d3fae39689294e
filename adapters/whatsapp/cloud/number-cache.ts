/**
 * The Cloud API numbers the webhook routes by (issue 13): phone number id → bot and the app secret
 * that signs its webhooks, cached briefly (moved out of ../index.ts, issue 28).
 */
import { LRUCache } from 'lru-cache';
import type { ChannelContext } from '../../../engine/registry/index.ts';
import type { CloudNumberInfo } from '../contract.ts';
import { cloudNumber } from '../queries.ts';
import type { WhatsAppSettings } from '../settings.ts';
import type { WaDb } from '../tables.ts';

/**
 * How long a Cloud API number lookup is fresh, ms. Past it the webhook still answers from the
 * cached value at once while one background lookup refreshes it (a lookup on the pool the turns
 * use was a webhook's slowest step: issue 13's p99 time to the 200).
 */
const CLOUD_CACHE_MS = 10_000;

/** The cache of Cloud API number lookups of one adapter. */
export function cloudNumberCache(
  need: () => { ctx: ChannelContext<WhatsAppSettings>; settings: WhatsAppSettings; db: WaDb },
) {
  return new LRUCache<string, { value: CloudNumberInfo | undefined }>({
    max: 50_000,
    ttl: CLOUD_CACHE_MS,
    allowStale: true,
    noDeleteOnStaleGet: true,
    fetchMethod: async (phoneNumberId) => {
      const { ctx, settings, db } = need();
      const row = await cloudNumber(db, phoneNumberId);
      return {
        value:
          row && row.status === 'active'
            ? {
                chatbotId: row.chatbot_id,
                appSecret: row.app_secret
                  ? ctx.secrets.decrypt(row.app_secret)
                  : (settings.META_APP_SECRET ?? null),
              }
            : undefined,
      };
    },
  });
}
