/**
 * A small client of Meta's Graph API for the WhatsApp Cloud API (issue 13), on `fetch`:
 * `POST /{phone-number-id}/messages` (text, media by id, interactive lists, the typing indicator),
 * `POST /{phone-number-id}/media` (upload), `GET /{media-id}` then its URL (download), the
 * number's own node (credentials check), and the business discovery of spec 000 §4/§7
 * (`/me/businesses`, a business's WhatsApp Business Accounts, a WABA's phone numbers,
 * `subscribed_apps`). The version and root come from the settings; the token never reaches an
 * error message or a log.
 */
import { scrubTokens } from '../../../engine/logger.ts';

/** A Graph API error (`{ error: { message, type, code, error_subcode, error_data } }`). */
export class GraphError extends Error {
  override name = 'GraphError';
  constructor(
    /** HTTP status. */
    readonly status: number,
    /** Graph error code (e.g. 131047: outside the 24-hour window; 190: invalid token). */
    readonly code: number | null,
    message: string,
  ) {
    super(message);
  }
}

/** Graph codes a retry cannot fix besides 4xx answers (WhatsApp Cloud API error codes). */
const WINDOW_CLOSED = 131047;

/** True for a refusal that will not change on retry: a 4xx other than 429 and its rate-limit codes. */
export function isPermanentGraph(err: unknown): boolean {
  if (!(err instanceof GraphError)) return false;
  if (
    err.status === 429 ||
    err.code === 4 ||
    err.code === 80007 ||
    err.code === 130429 ||
    err.code === 131056
  )
    return false;
  return err.status >= 400 && err.status < 500;
}

/** True when the follower's 24-hour customer service window is closed (error 131047). */
export function isWindowClosed(err: unknown): boolean {
  return err instanceof GraphError && err.code === WINDOW_CLOSED;
}

/** A text for the owner: the Graph message with its code, or the network failure, never a token. */
export function describeGraphError(err: unknown): string {
  if (err instanceof GraphError) return scrubTokens(`${err.code ?? err.status}: ${err.message}`);
  return scrubTokens(`red: ${(err as Error)?.message ?? String(err)}`);
}

/** A Graph API client for one access token. */
export class Graph {
  constructor(
    private readonly root: string,
    private readonly version: string,
    private readonly token: string,
    private readonly timeoutMs = 30_000,
  ) {}

  private url(path: string): string {
    return `${this.root}/${this.version}/${path.replace(/^\//, '')}`;
  }

  /**
   * One call; answers the parsed JSON body.
   * @throws GraphError for an error answer, Error (scrubbed) for a network failure.
   */
  async call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const init: RequestInit = {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      },
      signal: AbortSignal.timeout(this.timeoutMs),
      ...(body !== undefined ? { body: body instanceof FormData ? body : JSON.stringify(body) } : {}),
    };
    let res: Response;
    try {
      res = await fetch(this.url(path), init);
    } catch (err) {
      throw new Error(scrubTokens(`could not reach the Graph API: ${(err as Error).message}`));
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: described below
    }
    if (!res.ok) {
      const e = (json as { error?: { message?: string; code?: number; error_data?: { details?: string } } })
        ?.error;
      const detail = e?.error_data?.details ? ` (${e.error_data.details})` : '';
      throw new GraphError(res.status, e?.code ?? null, `${e?.message ?? `HTTP ${res.status}`}${detail}`);
    }
    return json as T;
  }

  /** `POST /{phone-number-id}/messages`; returns the new message's id (`wamid…`) when there is one. */
  async sendMessage(phoneNumberId: string, payload: Record<string, unknown>): Promise<string | null> {
    const res = await this.call<{ messages?: Array<{ id: string }> }>('POST', `${phoneNumberId}/messages`, {
      messaging_product: 'whatsapp',
      ...payload,
    });
    return res?.messages?.[0]?.id ?? null;
  }

  /** `POST /{phone-number-id}/media`: uploads a file, returns its media id (valid 30 days). */
  async uploadMedia(phoneNumberId: string, data: Buffer, mime: string, fileName: string): Promise<string> {
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', mime);
    form.set('file', new Blob([new Uint8Array(data)], { type: mime }), fileName);
    const res = await this.call<{ id: string }>('POST', `${phoneNumberId}/media`, form);
    return res.id;
  }

  /** `GET /{media-id}` then the download from its `url` with the token (Cloud API media). */
  async downloadMedia(mediaId: string): Promise<{ data: Buffer; mime: string | null }> {
    const meta = await this.call<{ url: string; mime_type?: string }>('GET', mediaId);
    let res: Response;
    try {
      res = await fetch(meta.url, {
        headers: { authorization: `Bearer ${this.token}` },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new Error(scrubTokens(`could not download WhatsApp media: ${(err as Error).message}`));
    }
    if (!res.ok) throw new GraphError(res.status, null, `media download answered ${res.status}`);
    return {
      data: Buffer.from(await res.arrayBuffer()),
      mime: meta.mime_type ?? res.headers.get('content-type'),
    };
  }
}
