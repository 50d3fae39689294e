/**
 * What this server's voice and web search plugins can do (issue 15 §4), for /configure: the
 * plugins' status routes, typed by their zod schemas.
 */
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { VoiceStatus } from '../../../plugins/voice/api.ts';
import type { WebSearchStatus } from '../../../plugins/web-search/api.ts';

async function get<T>(url: string): Promise<T> {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`GET ${url} ${res.status}`);
  return (await res.json()) as T;
}

/** `GET /api/voice/status`: hearing, speaking and the voices. */
export const voiceStatusQuery = queryOptions({
  queryKey: ['voice', 'status'],
  queryFn: () => get<z.infer<typeof VoiceStatus>>('/api/voice/status'),
  staleTime: 60_000,
});

/** `GET /api/web-search/status`: whether a search provider is configured. */
export const webSearchStatusQuery = queryOptions({
  queryKey: ['web-search', 'status'],
  queryFn: () => get<z.infer<typeof WebSearchStatus>>('/api/web-search/status'),
  staleTime: 60_000,
});
