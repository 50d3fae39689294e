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

/**
 * A Server-Sent Events stream that closes quietly (issue 10). `EventSource.close()` aborts the
 * request, which the browser reports as a failed request; instead, closing asks the server to end
 * the stream (`closeUrl`, `POST {stream}` with the id of the stream's first `ready` event), and the
 * source is closed once the stream has ended normally. `on` maps event names to handlers of their
 * parsed JSON data; no handler runs after closing. Returns the close function (idempotent).
 * Falls back to `EventSource.close()` when the server cannot be asked or does not end the stream
 * within {@link QUIET_CLOSE_LIMIT_MS}.
 */
export function quietEventSource(
  url: string,
  closeUrl: string,
  on: Record<string, (data: unknown) => void>,
): () => void {
  const source = new EventSource(url);
  let stream: string | null = null;
  let closing = false;
  let limit: ReturnType<typeof setTimeout> | undefined;
  const closeNow = () => {
    clearTimeout(limit);
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
  source.addEventListener('ready', (e) => {
    stream = (JSON.parse((e as MessageEvent<string>).data) as { stream?: string }).stream ?? null;
    if (closing) askServer();
  });
  // The server ended the stream (or the connection failed): closing now aborts nothing.
  source.addEventListener('error', () => {
    if (closing) closeNow();
  });
  for (const [event, handler] of Object.entries(on)) {
    source.addEventListener(event, (e) => {
      if (!closing) handler(JSON.parse((e as MessageEvent<string>).data));
    });
  }
  return () => {
    if (closing) return;
    closing = true;
    // Before the `ready` event there is no id yet: the `ready` handler asks the server then.
    if (stream) askServer();
  };
}

/** How long a quiet close waits for the server to end the stream before aborting it, ms. */
export const QUIET_CLOSE_LIMIT_MS = 5000;
