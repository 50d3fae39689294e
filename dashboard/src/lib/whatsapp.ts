/**
 * The WhatsApp connection's calls (spec 000 §2, §4; issue 13): its configuration query and the JSON
 * posts of the connect, link and Meta flows (components/WhatsAppConnect.tsx, WhatsAppModals.tsx,
 * WhatsAppMetaModal.tsx).
 */
import { queryOptions } from '@tanstack/react-query';
import type { WhatsAppConfigResponse } from '../../../adapters/whatsapp/api.ts';

/** The WhatsApp configuration of a bot, as `GET /api/get-whatsapp-config` answers it. */
export type WhatsAppConfig = WhatsAppConfigResponse;

/** `GET /api/get-whatsapp-config`: every 2 s while a device is linking (the QR rotates), else 30 s. */
export const whatsappConfigQuery = (chatbotId: string) =>
  queryOptions({
    queryKey: ['whatsapp-config', chatbotId],
    queryFn: async (): Promise<WhatsAppConfig> => {
      const res = await fetch(`/api/get-whatsapp-config?chatbotId=${encodeURIComponent(chatbotId)}`);
      const body = (await res.json().catch(() => ({}))) as WhatsAppConfig & { error?: string };
      if (!res.ok) throw new Error(body.error ?? String(res.status));
      return body;
    },
    staleTime: 1_000,
    refetchInterval: (q) => (q.state.data?.status === 'linking' ? 2_000 : 30_000),
  });

/** Posts JSON to an owner route; throws the server's message. */
export async function postJson<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as T & { error?: string };
  if (!res.ok) throw new Error(json.error ?? String(res.status));
  return json;
}
