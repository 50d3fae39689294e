/** Reading a `text/event-stream` answer of a fetch (the chat routes' streamed replies). */

/** Reads a text/event-stream response, calling `onEvent` for each event with its parsed JSON data. */
export async function readEvents(
  res: Response,
  onEvent: (event: string, data: unknown) => void,
): Promise<void> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (data) onEvent(event, JSON.parse(data));
      end = buffer.indexOf('\n\n');
    }
  }
}

/** What a {@link quietEventSource} tells besides its events. */
export interface StreamHooks {
  /**
   * Events may have been missed: the stream came back after a drop (a new `ready` on a new
   * connection), or the server says so (`resync`, after it lost its database connection and got it
   * back; issue 24 §1). The page reloads what the stream keeps fresh.
   */
  resync?: () => void;
  /** The stream dropped; it reconnects by itself (a `ready` handler learns when it is back). */
  down?: () => void;
}

/**
 * A Server-Sent Events stream that closes quietly (issue 10) and comes back by itself (issue 24 §1).
 *
 * - Closing asks the server to end the stream (`closeUrl`, `POST {stream}` with the id of the
 *   stream's `ready` event), and the source is closed once the stream has ended normally, since
 *   `EventSource.close()` aborts the request, which the browser reports as a failed request. It
 *   falls back to `EventSource.close()` when the server cannot be asked or does not end the stream
 *   within {@link QUIET_CLOSE_LIMIT_MS}.
 * - A stream that drops (the network, a server restart, a 503 while the database is down: cases
 *   where the browser's own retry gives up) is opened again after {@link RECONNECT_MIN_MS},
 *   doubling up to {@link RECONNECT_MAX_MS} while it fails; `hooks.down` is called when it drops
 *   and `hooks.resync` when it is back, and whenever the server sends `resync`.
 *
 * `on` maps event names to handlers of their parsed JSON data (each connection's `ready` too); no
 * handler runs after closing. Returns the close function (idempotent).
 */
export function quietEventSource(
  url: string,
  closeUrl: string,
  on: Record<string, (data: unknown) => void>,
  hooks: StreamHooks = {},
): () => void {
  let source: EventSource;
  let stream: string | null = null;
  let closing = false;
  /** A `ready` was seen on some connection: the next one is a return. */
  let seen = false;
  let retryMs = RECONNECT_MIN_MS;
  let limit: ReturnType<typeof setTimeout> | undefined;
  let reopen: ReturnType<typeof setTimeout> | undefined;
  const closeNow = () => {
    clearTimeout(limit);
    clearTimeout(reopen);
    source.close();
  };
  const askServer = () => {
    if (!stream) return closeNow();
    limit = setTimeout(closeNow, QUIET_CLOSE_LIMIT_MS);
    fetch(closeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stream }),
      keepalive: true,
    }).then((res) => {
      if (!res.ok) closeNow();
    }, closeNow);
  };
  const open = () => {
    const current = new EventSource(url);
    source = current;
    stream = null;
    current.addEventListener('ready', (e) => {
      stream = (JSON.parse((e as MessageEvent<string>).data) as { stream?: string }).stream ?? null;
      if (closing) return askServer();
      retryMs = RECONNECT_MIN_MS;
      if (seen) hooks.resync?.();
      seen = true;
    });
    current.addEventListener('resync', () => {
      if (!closing) hooks.resync?.();
    });
    // The server ended the stream, or the connection failed: closing now aborts nothing.
    current.addEventListener('error', () => {
      if (closing) return closeNow();
      if (current !== source) return;
      // Our own retry, not the browser's: the browser gives up for good on a 503 or a proxy's page.
      current.close();
      stream = null;
      hooks.down?.();
      const wait = retryMs;
      retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
      reopen = setTimeout(open, wait);
    });
    for (const [event, handler] of Object.entries(on)) {
      current.addEventListener(event, (e) => {
        if (!closing) handler(JSON.parse((e as MessageEvent<string>).data));
      });
    }
  };
  open();
  return () => {
    if (closing) return;
    closing = true;
    clearTimeout(reopen);
    // Before the `ready` event there is no id yet: the `ready` handler asks the server then.
    if (stream) askServer();
    else if (source.readyState === EventSource.CLOSED) closeNow();
  };
}

/** How long a quiet close waits for the server to end the stream before aborting it, ms. */
export const QUIET_CLOSE_LIMIT_MS = 5000;
/** First wait before opening a dropped stream again, ms; doubles while it fails… */
export const RECONNECT_MIN_MS = 1000;
/** …up to this, ms. */
export const RECONNECT_MAX_MS = 15_000;
