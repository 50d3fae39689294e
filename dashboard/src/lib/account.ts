/**
 * The dashboard's side of the owner's data (issue 26 §5): downloading the export and deleting the
 * account. Failures are an {@link ApiError} whose `code` the screen says in the owner's language
 * (`tooMany`, `wrongPassword`, `noPassword`, `network`, `server`).
 */
import { ApiError, apiCall } from './api.ts';

/**
 * Downloads `GET /api/account/export` and hands the ZIP to the browser as a file download.
 * @throws ApiError (`tooMany`, `network`, `server`).
 */
export async function downloadExport(): Promise<void> {
  let res: Response;
  try {
    res = await fetch('/api/account/export', { credentials: 'same-origin' });
  } catch {
    throw new ApiError('network', '');
  }
  if (!res.ok) {
    const data = (await res.json().catch(() => ({}))) as { code?: string; error?: string };
    throw new ApiError(data.code ?? 'server', data.error ?? String(res.status));
  }
  const name =
    /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'charla-export.zip';
  const url = URL.createObjectURL(await res.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * `POST /api/account/delete` with the current password: the account and everything of it is gone
 * and the session ends.
 * @throws ApiError (`wrongPassword`, `noPassword`, `tooMany`, `network`, `server`).
 */
export async function deleteAccount(password: string): Promise<void> {
  await apiCall('POST', '/api/account/delete', { password });
}
