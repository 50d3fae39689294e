/**
 * Reads a Server-Sent Events stream over real HTTP as a browser's EventSource would (the events'
 * names and JSON data, comments skipped), keeping every event so a test can wait for one.
 */

/** One event of a stream. */
export interface SseEvent {
  event: string;
  data: unknown;
  /** When it arrived (Date.now()). */
  at: number;
}

/** An open stream. */
export interface SseClient {
  /** Every event so far, in order. */
  events: SseEvent[];
  /** True once the server ended the stream (or it failed). */
  ended(): boolean;
  /**
   * Waits for an event at index `from` or later that `match` accepts (by name, or a predicate).
   * @throws Error naming the events seen when none comes within `timeoutMs`.
   */
  waitFor(match: string | ((e: SseEvent) => boolean), timeoutMs?: number, from?: number): Promise<SseEvent>;
  close(): void;
}

/**
 * Opens `url` with `headers` and reads it in the background.
 * @throws Error when the answer is not a 200 event stream.
 */
export async function openSseClient(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/event-stream'))
    throw new Error(`not an event stream: ${res.status} ${await res.text()}`);
  const events: SseEvent[] = [];
  let done = false;
  void (async () => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done: end, value } = await reader.read();
        if (end) break;
        buffer += decoder.decode(value, { stream: true });
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event || data)
            events.push({ event: event ?? 'message', data: data ? JSON.parse(data) : null, at: Date.now() });
          cut = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted or cut
    } finally {
      done = true;
    }
  })();
  return {
    events,
    ended: () => done,
    async waitFor(match, timeoutMs = 10_000, from = 0) {
      const accepts = typeof match === 'string' ? (e: SseEvent) => e.event === match : match;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.slice(from).find(accepts);
        if (found) return found;
        if (Date.now() > deadline || done)
          throw new Error(
            `no matching event ${done ? '(the stream ended)' : `within ${timeoutMs} ms`}; got: ${JSON.stringify(events.slice(from))}`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => abort.abort(),
  };
}
