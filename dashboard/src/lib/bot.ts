/** The signed-in owner's bot, as `GET /api/my-chatbot` returns it (the newest, spec 000 §3). */
import { queryOptions } from '@tanstack/react-query';
import type { OwnerChatbot } from '../../../engine/http/views.ts';

/** The owner's bot (engine/http/views.ts OwnerChatbot). */
export type MyChatbot = OwnerChatbot;

/** The owner's bot, or null when they have none yet (`GET /api/my-chatbot` answers `{bot: null}`). */
export const myChatbotQuery = queryOptions({
  queryKey: ['my-chatbot'],
  queryFn: async (): Promise<MyChatbot | null> => {
    const res = await fetch('/api/my-chatbot');
    if (!res.ok) throw new Error(`GET /api/my-chatbot ${res.status}`);
    return ((await res.json()) as { bot: MyChatbot | null }).bot;
  },
});
