/**
 * The dashboard's side of reservations (issue 12 §10): queries and actions on the plugin's owner
 * routes (plugins/reservations/routes.ts), typed by its browser-safe contract (api.ts). Failures
 * come back as a {@link ReservationsError} whose `code` the screen says in the owner's language.
 */
import { queryOptions } from '@tanstack/react-query';
import type {
  AddBody,
  ConfigAnswer,
  ListAnswer,
  Period,
  ReservationRow,
  SlotsAnswer,
} from '../../../plugins/reservations/api.ts';
import type { ReservationConfig } from '../../../plugins/reservations/config.ts';

export type { ConfigAnswer, ListAnswer, Period, ReservationRow } from '../../../plugins/reservations/api.ts';

/** A failed call: the server's `code` (`full`, `missing`, …), `network` or `server`. */
export class ReservationsError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
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
    throw new ReservationsError('network');
  }
  const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new ReservationsError(String(data.code ?? 'server'));
  return data as T;
}

/** The bot's calendar (the defaults until saved). */
export const configQuery = (chatbotId: string) =>
  queryOptions({
    queryKey: ['reservations', chatbotId, 'config'],
    queryFn: () => call<ConfigAnswer>('GET', `/api/reservations/${chatbotId}/config`),
  });

/** The viewer's list; refreshed every 15 s while open (spec 001 §9). */
export const listQuery = (chatbotId: string, period: Period) =>
  queryOptions({
    queryKey: ['reservations', chatbotId, 'list', period],
    queryFn: () => call<ListAnswer>('GET', `/api/reservations/${chatbotId}?period=${period}`),
    refetchInterval: 15_000,
  });

/** A day's free slots, for adding by hand. */
export const slotsQuery = (chatbotId: string, date: string) =>
  queryOptions({
    queryKey: ['reservations', chatbotId, 'slots', date],
    queryFn: () => call<SlotsAnswer>('GET', `/api/reservations/${chatbotId}/slots?date=${date}`),
    enabled: /^\d{4}-\d{2}-\d{2}$/.test(date),
  });

/** Saves the calendar. */
export function saveConfig(chatbotId: string, config: ReservationConfig): Promise<ConfigAnswer> {
  return call('PUT', `/api/reservations/${chatbotId}/config`, config);
}

/** Sets "Reserva abonada" or completed. */
export function setFlags(
  chatbotId: string,
  id: string,
  flags: { is_paid?: boolean; is_completed?: boolean },
): Promise<{ reservation: ReservationRow }> {
  return call('PATCH', `/api/reservations/${chatbotId}/${id}`, flags);
}

/** Deletes a reservation. */
export function deleteReservation(chatbotId: string, id: string): Promise<unknown> {
  return call('DELETE', `/api/reservations/${chatbotId}/${id}`);
}

/** Adds a reservation by hand. */
export function addReservation(chatbotId: string, body: AddBody): Promise<{ reservation: ReservationRow }> {
  return call('POST', `/api/reservations/${chatbotId}`, body);
}
