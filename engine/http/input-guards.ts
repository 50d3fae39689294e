/**
 * Checks every request passes before any route sees it (issue 24 §7: a malformed request is a 4xx,
 * never a 500):
 * - the `Host` header is a host name or address with an optional port (RFC 9110 §7.2, RFC 3986
 *   §3.2.2); anything else is 400 before a route builds a URL from it;
 * - no string of the path parameters, query or JSON body holds a NUL character (PostgreSQL's text
 *   cannot store one: 22021) and the body nests at most {@link MAX_JSON_DEPTH} levels (deeper
 *   input is no form a client of ours sends, and recursive code downstream — validation, the auth
 *   library — must not meet it). Channel webhooks (`/channels/*`) are the exception: a follower's
 *   message with a NUL must not be refused (Telegram or Meta would retry it, then drop it), so the
 *   NUL characters of their bodies are removed instead ({@link stripNul}).
 */

/** Deepest nesting of objects and arrays a request body may have. */
export const MAX_JSON_DEPTH = 32;

/** A host (reg-name, IPv4 or bracketed IPv6) with an optional port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::\d{1,5})?$/;

/** True when a request's `Host` header is present and not a valid host[:port]. */
export function invalidHost(host: string | undefined): boolean {
  return host !== undefined && (host.length > 255 || !HOST.test(host));
}

/** Why an input value is refused: `nul` (a NUL character in a string or key) or `depth`. */
export type InputProblem = 'nul' | 'depth' | null;

/**
 * Walks a parsed value (JSON body, query, params) and reports the first problem: a NUL character
 * in a string or a key, or nesting deeper than `maxDepth`. Iterative: a deep value cannot exhaust
 * the stack here.
 */
export function inputProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): InputProblem {
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return 'nul';
    } else if (v !== null && typeof v === 'object') {
      if (Buffer.isBuffer(v)) continue;
      if (depth >= maxDepth) return 'depth';
      if (Array.isArray(v)) for (const item of v) stack.push({ v: item, depth: depth + 1 });
      else
        for (const [key, item] of Object.entries(v)) {
          if (key.includes('\u0000')) return 'nul';
          stack.push({ v: item, depth: depth + 1 });
        }
    }
  }
  return null;
}

/**
 * Removes NUL characters from every string (and key) of a parsed JSON value, in place where it can,
 * iteratively; returns the cleaned value (a string, or the same object).
 */
export function stripNul(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('\u0000', '');
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || Buffer.isBuffer(v)) continue;
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        if (typeof item === 'string') v[i] = item.replaceAll('\u0000', '');
        else stack.push(item);
      });
    } else {
      const record = v as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        let item = record[key];
        if (typeof item === 'string') item = item.replaceAll('\u0000', '');
        else stack.push(item);
        if (key.includes('\u0000')) {
          delete record[key];
          record[key.replaceAll('\u0000', '')] = item;
        } else record[key] = item;
      }
    }
  }
  return value;
}
