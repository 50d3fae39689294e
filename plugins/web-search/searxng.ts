/**
 * A SearXNG instance's JSON API (https://docs.searxng.org/dev/search_api.html):
 * `GET <base>/search?q=…&format=json&language=…&safesearch=1` answers
 * `{query, number_of_results, results: [{url, title, content, engine, publishedDate?}], answers,
 * infoboxes, suggestions}`. The instance must list `json` in `search.formats` (settings.yml), or it
 * answers 403. Results are cut to what a prompt needs and cached briefly.
 */
import { LRUCache } from 'lru-cache';
import { z } from 'zod';

/** How many results the model gets. */
export const MAX_RESULTS = 5;
/** Longest snippet per result, characters. */
export const MAX_SNIPPET = 300;
/** How long an answer is reused for the same query and language, ms (10 min). */
export const CACHE_TTL_MS = 10 * 60_000;

/** One result as the model sees it. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
  published?: string;
}

const SearxAnswer = z.object({
  results: z
    .array(
      z.object({
        url: z.string(),
        title: z.string().default(''),
        content: z.string().nullish(),
        publishedDate: z.string().nullish(),
      }),
    )
    .default([]),
  answers: z.array(z.union([z.string(), z.object({ answer: z.string() }).passthrough()])).default([]),
});

/** Failure of the search provider (unreachable, refused, too slow, not JSON). */
export class SearchError extends Error {}

/** A search client for one SearXNG base URL. */
export class SearxngClient {
  private readonly cache = new LRUCache<string, { answers: string[]; results: SearchResult[] }>({
    max: 500,
    ttl: CACHE_TTL_MS,
  });

  /**
   * @param baseUrl the instance, e.g. `http://127.0.0.1:8888` (no trailing `/search`).
   * @param timeoutMs the longest a search may take; past it the search fails (the turn goes on).
   */
  constructor(
    readonly baseUrl: string,
    readonly timeoutMs: number,
  ) {}

  /**
   * Searches the web.
   * @param language a two-letter code (`es`, `en`, …) for the engines' language.
   * @returns up to {@link MAX_RESULTS} results with snippets, and any instant answers.
   * @throws SearchError when the instance cannot answer within the time limit or answers an error.
   */
  async search(query: string, language: string): Promise<{ answers: string[]; results: SearchResult[] }> {
    const key = `${language}\u0000${query.trim().toLowerCase()}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const url = new URL('search', this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    url.search = new URLSearchParams({ q: query, format: 'json', language, safesearch: '1' }).toString();
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new SearchError(
        (err as Error).name === 'TimeoutError'
          ? `the search took longer than ${this.timeoutMs} ms`
          : `the search engine could not be reached (${(err as Error).message})`,
      );
    }
    if (!res.ok)
      throw new SearchError(
        res.status === 403
          ? 'the search engine refused JSON (add json to search.formats in SearXNG’s settings.yml)'
          : `the search engine answered ${res.status}`,
      );
    const parsed = SearxAnswer.safeParse(await res.json().catch(() => null));
    if (!parsed.success) throw new SearchError('the search engine’s answer was not SearXNG JSON');
    const seen = new Set<string>();
    const results: SearchResult[] = [];
    for (const r of parsed.data.results) {
      if (seen.has(r.url) || !/^https?:\/\//.test(r.url)) continue;
      seen.add(r.url);
      results.push({
        title: r.title.slice(0, 200),
        url: r.url,
        snippet: (r.content ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_SNIPPET),
        ...(r.publishedDate ? { published: r.publishedDate } : {}),
      });
      if (results.length === MAX_RESULTS) break;
    }
    const answers = parsed.data.answers
      .map((a) => (typeof a === 'string' ? a : a.answer))
      .filter(Boolean)
      .slice(0, 2);
    const answer = { answers, results };
    this.cache.set(key, answer);
    return answer;
  }
}
