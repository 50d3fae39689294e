/**
 * JSON calls from the dashboard to Charla's owner routes (the session cookie goes along): one
 * helper for the plugins' screens. A failure is an {@link ApiError} with the server's `code`
 * (`network` when the server could not be reached, `server` when it gave none) and its `error` text.
 */

/** A failed call. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Sends `body` as JSON (when given) and answers the JSON reply.
 * @throws ApiError on a network failure or a non-2xx answer.
 */
export async function apiCall<T>(method: string, url: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      credentials: 'same-origin',
      ...(body !== undefined
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
        : {}),
    });
  } catch {
    throw new ApiError('network', '');
  }
  const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new ApiError(String(data.code ?? 'server'), String(data.error ?? res.status));
  return data as T;
}

/** Sends `body` as JSON to `url` (POST unless `method` says otherwise) and answers the raw response. */
export function sendJson(url: string, body: unknown, method = 'POST'): Promise<Response> {
  return fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/**
 * The JSON body of `res`.
 * @throws Error with the server's message (Spanish, like the spec's) when it gives one, else the status code.
 */
export async function jsonOrThrow<T>(res: Response): Promise<T> {
  const body = (await res.json().catch(() => ({}))) as T & { error?: string };
  if (!res.ok) throw new Error(body.error ?? String(res.status));
  return body;
}

/** Reads the JSON at `url` (see {@link jsonOrThrow}). */
export async function getJson<T>(url: string): Promise<T> {
  return jsonOrThrow<T>(await fetch(url));
}

/** The query key and reader of a bot's channel configuration, `GET /api/get-<channel>-config`. */
export function channelConfig<T>(channel: 'telegram' | 'whatsapp', chatbotId: string) {
  return {
    queryKey: [`${channel}-config`, chatbotId],
    queryFn: () => getJson<T>(`/api/get-${channel}-config?chatbotId=${encodeURIComponent(chatbotId)}`),
  };
}
