/** The signed-in owner's bot, as `GET /api/my-chatbot` returns it (the newest, spec 000 §3). */
import { queryOptions } from '@tanstack/react-query';

export interface MyChatbot {
  id: string;
  business_name: string;
  business_description: string;
  chatbot_style: string;
  expectations: string;
  category: string;
  idioma: string;
  is_public: boolean;
  enable_web_search: boolean;
  enable_reservations: boolean;
  enable_audio: boolean;
  telegram_connected: boolean;
  telegram_username: string | null;
  responses_count: number;
}

/** The owner's bot, or null when they have none yet. */
export const myChatbotQuery = queryOptions({
  queryKey: ['my-chatbot'],
  queryFn: async (): Promise<MyChatbot | null> => {
    const res = await fetch('/api/my-chatbot');
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`GET /api/my-chatbot ${res.status}`);
    return (await res.json()) as MyChatbot;
  },
});
