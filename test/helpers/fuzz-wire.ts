/**
 * The fuzzer's HTTP/1.1 client on raw `node:net` sockets (issue 24, the project's own fuzz check):
 * it writes exactly the bytes it is given (a NUL in the path, a Host header with a space, a
 * Content-Length that lies, non-Latin-1 bytes in a header), which fetch and undici refuse to send,
 * so header-level malformations reach Node's own parser. One request per connection
 * (`Connection: close`); the answer is read up to its status line, headers and the first 2 KB of
 * its body.
 */
import net from 'node:net';

/** A request as bytes on the wire. */
export interface WireRequest {
  method: string;
  /** The request-target exactly as sent (may hold bytes no URL parser accepts). */
  target: string | Buffer;
  /** Header lines in order; a value may be raw bytes (non-Latin-1, NUL). Nothing is added. */
  headers: Array<[string, string | Buffer]>;
  body?: Buffer | undefined;
  /** HTTP version of the request line (default `HTTP/1.1`). */
  version?: string;
}

/** How an exchange ended. */
export interface WireAnswer {
  /** The final (non-1xx) status, when one came. */
  status: number | undefined;
  /** Response headers (lower-case names), when they came. */
  headers: Record<string, string>;
  /** The first bytes of the response body (at most {@link BODY_PREVIEW} bytes), as text. */
  body: string;
  /** `complete`: the answer arrived; `timeout`; `closed`/`reset`: the connection ended first. */
  outcome: 'complete' | 'timeout' | 'closed' | 'reset' | 'refused';
  /** Socket error code, when there was one (ECONNRESET, EPIPE, ECONNREFUSED). */
  error?: string | undefined;
  /** Wall time of the exchange, ms. */
  ms: number;
}

/** Bytes of a response body kept for the report. */
export const BODY_PREVIEW = 2048;

/** Serialises a request's head (request line and headers) as bytes. */
export function headBytes(req: WireRequest): Buffer {
  const parts: Buffer[] = [
    Buffer.concat([
      Buffer.from(`${req.method} `, 'latin1'),
      typeof req.target === 'string' ? Buffer.from(req.target, 'latin1') : req.target,
      Buffer.from(` ${req.version ?? 'HTTP/1.1'}\r\n`, 'latin1'),
    ]),
  ];
  for (const [name, value] of req.headers) {
    parts.push(Buffer.from(`${name}: `, 'latin1'));
    parts.push(typeof value === 'string' ? Buffer.from(value, 'latin1') : value);
    parts.push(Buffer.from('\r\n', 'latin1'));
  }
  parts.push(Buffer.from('\r\n', 'latin1'));
  return Buffer.concat(parts);
}

/**
 * Sends one request on a new connection to 127.0.0.1:`port` and reads the answer. Resolves when
 * the final status line, the headers and the body (by Content-Length, the last chunk, or the end of
 * the connection) arrived; at once after the headers of an event stream; or after `timeoutMs`.
 * Never rejects: socket errors are part of the answer.
 */
export function exchange(port: number, req: WireRequest, timeoutMs: number): Promise<WireAnswer> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let received = Buffer.alloc(0);
    let status: number | undefined;
    let headers: Record<string, string> = {};
    let bodyStart = -1;
    let bodyBytes = 0;
    let error: string | undefined;
    let settled = false;
    const finish = (outcome: WireAnswer['outcome']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const body = bodyStart >= 0 ? received.subarray(bodyStart, bodyStart + BODY_PREVIEW) : Buffer.alloc(0);
      resolve({
        status,
        headers,
        body: headers['transfer-encoding']?.includes('chunked') ? dechunk(body) : body.toString('utf8'),
        outcome: status !== undefined && (outcome === 'closed' || outcome === 'reset') ? 'complete' : outcome,
        error,
        ms: Date.now() - started,
      });
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    socket.setNoDelay(true);
    socket.on('connect', () => {
      socket.write(headBytes(req));
      if (req.body && req.body.length > 0) socket.write(req.body);
    });
    socket.on('data', (chunk: Buffer) => {
      if (bodyStart < 0) {
        received = Buffer.concat([received, chunk]);
        parseHead();
        if (bodyStart < 0) return;
        bodyBytes = received.length - bodyStart;
        // Keep the head and the start of the body only: a 10 MB answer is not needed whole.
        received = received.subarray(0, bodyStart + BODY_PREVIEW);
      } else {
        bodyBytes += chunk.length;
        if (received.length < bodyStart + BODY_PREVIEW)
          received = Buffer.concat([received, chunk]).subarray(0, bodyStart + BODY_PREVIEW);
      }
      if ((headers['content-type'] ?? '').includes('text/event-stream')) return finish('complete');
      const length = Number(headers['content-length']);
      if (headers['content-length'] !== undefined && Number.isFinite(length) && bodyBytes >= length)
        return finish('complete');
      if (headers['transfer-encoding']?.includes('chunked') && /(^|\r\n)0\r\n\r\n$/.test(tail(chunk)))
        return finish('complete');
      if (status === 204 || status === 304 || req.method === 'HEAD') return finish('complete');
    });
    socket.on('end', () => finish('closed'));
    socket.on('close', () => finish(error === 'ECONNREFUSED' ? 'refused' : 'closed'));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error = err.code ?? err.message;
      finish(err.code === 'ECONNREFUSED' ? 'refused' : 'reset');
    });

    /** Reads status lines (skipping 1xx) and headers once they are in. */
    function parseHead() {
      let from = 0;
      for (;;) {
        const end = received.indexOf('\r\n\r\n', from, 'latin1');
        if (end < 0) return;
        const lines = received.subarray(from, end).toString('latin1').split('\r\n');
        const code = Number(/^HTTP\/\d(?:\.\d)? (\d{3})/.exec(lines[0] ?? '')?.[1]);
        if (!Number.isInteger(code)) {
          status = undefined;
          bodyStart = end + 4;
          return;
        }
        if (code >= 100 && code < 200 && code !== 101) {
          from = end + 4;
          continue;
        }
        status = code;
        headers = {};
        for (const line of lines.slice(1)) {
          const colon = line.indexOf(':');
          if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        bodyStart = end + 4;
        return;
      }
    }
  });
}

/** The last bytes of a chunk as text (to spot the end of a chunked body). */
function tail(chunk: Buffer): string {
  return chunk.subarray(Math.max(0, chunk.length - 16)).toString('latin1');
}

/** The data of a chunked body's first chunks (enough for a preview). */
function dechunk(raw: Buffer): string {
  const out: Buffer[] = [];
  let at = 0;
  while (at < raw.length) {
    const eol = raw.indexOf('\r\n', at, 'latin1');
    if (eol < 0) break;
    const size = Number.parseInt(raw.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size <= 0) break;
    out.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out).toString('utf8');
}
