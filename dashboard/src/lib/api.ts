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
