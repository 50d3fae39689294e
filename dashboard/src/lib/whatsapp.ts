/**
 * The WhatsApp connection's calls (spec 000 §2, §4; issue 13): its configuration query and the JSON
 * posts of the connect, link and Meta flows (components/WhatsAppConnect.tsx, WhatsAppModals.tsx,
 * WhatsAppMetaModal.tsx).
 */
import { queryOptions } from '@tanstack/react-query';
import type { WhatsAppConfigResponse } from '../../../adapters/whatsapp/api.ts';
import { channelConfig, jsonOrThrow, sendJson } from './api.ts';

/** The WhatsApp configuration of a bot, as `GET /api/get-whatsapp-config` answers it. */
export type WhatsAppConfig = WhatsAppConfigResponse;

/** What the WhatsApp dialogs and forms work on: the bot and its WhatsApp configuration. */
export interface WhatsAppTarget {
  chatbotId: string;
  config: WhatsAppConfig;
}

/** `GET /api/get-whatsapp-config`: every 2 s while a device is linking (the QR rotates), else 30 s. */
export const whatsappConfigQuery = (chatbotId: string) =>
  queryOptions({
    ...channelConfig<WhatsAppConfig>('whatsapp', chatbotId),
    staleTime: 1_000,
    refetchInterval: (q) => (q.state.data?.status === 'linking' ? 2_000 : 30_000),
  });

/** Posts JSON to an owner route; throws the server's message. */
export async function postJson<T>(url: string, body: unknown): Promise<T> {
  return jsonOrThrow<T>(await sendJson(url, body));
}
