/**
 * Small helpers of the widget's chat UI (widget/chat.ts): building elements, ids, storage that may
 * be unavailable, the visitor id, and reading a Server-Sent Events body.
 */

/** Creates an element with attributes (false leaves one out) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== false) node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children);
  return node;
}

/** 128 random bits as hex (crypto.randomUUID needs a secure context; host pages may be http). */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Storage that may be unavailable (privacy modes, sandboxed frames): failures are ignored. */
export function stored(storage: () => Storage, name: string) {
  return {
    get(): string | null {
      try {
        return storage().getItem(name);
      } catch {
        return null;
      }
    },
    set(value: string): void {
      try {
        storage().setItem(name, value);
      } catch {
        // Not kept: the widget works without it.
      }
    },
  };
}

/** The visitor's stable id for this bot, created on the first visit. */
export function visitorId(key: string): string {
  const slot = stored(() => localStorage, `charla:${key}:visitor`);
  const known = slot.get();
  if (known && /^[\w-]{8,128}$/.test(known)) return known;
  const id = randomId();
  slot.set(id);
  return id;
}

/**
 * Reads a text/event-stream body, calling `onEvent` for each event with its parsed JSON data.
 * Events are separated by a blank line; `data:` lines of one event are joined with newlines.
 */
export async function readEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: string, data: unknown) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const dispatch = (block: string) => {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length) onEvent(event, JSON.parse(data.join('\n')));
  };
  for (;;) {
    const { done, value } = await reader.read();
    buffer = (buffer + decoder.decode(value, { stream: !done })).replace(/\r\n/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      dispatch(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
    }
    if (done) break;
  }
  if (buffer.trim()) dispatch(buffer);
}

/** Whether the message id `id` (decimal, of any length) is newer than the mark; any is, without one. */
export function newerId(id: string, mark: string | null): boolean {
  return mark === null || id.length > mark.length || (id.length === mark.length && id > mark);
}
