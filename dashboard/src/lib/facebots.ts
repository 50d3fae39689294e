/**
 * The Facebots directory on the client (issue 16 §4; spec 001 §2, §4 Like): pages of the directory
 * and likes through the Facebots plugin's routes (plugins/facebots), typed by its contract; the
 * browser's liked bots (`likedBots`, spec 001 §3) and visitor id in localStorage.
 */
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { DirectoryAnswer, Sort } from '../../../plugins/facebots/api.ts';

export type { DirectoryBot, Sort } from '../../../plugins/facebots/api.ts';
export { DIRECTORY_TEXTS, SORTS } from '../../../plugins/facebots/api.ts';

/** The directory, a page at a time. */
export const directoryQuery = (sort: Sort, category: string) =>
  infiniteQueryOptions({
    queryKey: ['facebots', sort, category],
    queryFn: async ({ pageParam }): Promise<DirectoryAnswer> => {
      const q = new URLSearchParams({ sort, page: String(pageParam) });
      if (category) q.set('category', category);
      const res = await fetch(`/api/facebots?${q}`);
      if (!res.ok) throw new Error(`GET /api/facebots ${res.status}`);
      return (await res.json()) as DirectoryAnswer;
    },
    initialPageParam: 1,
    getNextPageParam: (last) => (last.more ? last.page + 1 : undefined),
  });

const LIKED = 'likedBots';
const VISITOR = 'facebotsVisitor';

/** Bot ids this browser liked (spec 001 §3 `likedBots`). */
export function likedBots(): string[] {
  try {
    const list = JSON.parse(localStorage.getItem(LIKED) ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** This browser's visitor id for likes. */
function visitor(): string {
  let id = localStorage.getItem(VISITOR);
  if (!id) {
    id = `v-${crypto.randomUUID()}`;
    localStorage.setItem(VISITOR, id);
  }
  return id;
}

/**
 * Likes a bot once per browser: remembered in `likedBots` at once, then counted by the server.
 * @returns the server's count, or null when it refused (the page keeps its optimistic count).
 */
export async function likeBot(id: string): Promise<number | null> {
  localStorage.setItem(LIKED, JSON.stringify([...new Set([...likedBots(), id])]));
  try {
    const res = await fetch(`/api/facebots/${encodeURIComponent(id)}/like`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ visitorId: visitor() }),
    });
    if (!res.ok) return null;
    return ((await res.json()) as { likes: number }).likes;
  } catch {
    return null;
  }
}
