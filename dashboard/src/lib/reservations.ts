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
  ViewerState,
} from '../../../plugins/reservations/api.ts';
import type { ReservationConfig } from '../../../plugins/reservations/config.ts';
import { apiCall } from './api.ts';

export type {
  ConfigAnswer,
  ListAnswer,
  Period,
  ReservationRow,
  ViewerState,
} from '../../../plugins/reservations/api.ts';

/** A failed call: the server's `code`, `network` or `server` (lib/api.ts). */
export { ApiError as ReservationsError } from './api.ts';

/** The bot's calendar (the defaults until saved). */
export const configQuery = (chatbotId: string) =>
  queryOptions({
    queryKey: ['reservations', chatbotId, 'config'],
    queryFn: () => apiCall<ConfigAnswer>('GET', `/api/reservations/${chatbotId}/config`),
  });

/**
 * The viewer's list for a period and a state (active, changed, cancelled, all: issue 27 §6);
 * refreshed every 15 s while open (spec 001 §9).
 */
export const listQuery = (chatbotId: string, period: Period, state: ViewerState = 'active') =>
  queryOptions({
    queryKey: ['reservations', chatbotId, 'list', period, state],
    queryFn: () =>
      apiCall<ListAnswer>('GET', `/api/reservations/${chatbotId}?period=${period}&state=${state}`),
    refetchInterval: 15_000,
  });

/**
 * The calendar's bookings (active and cancelled) from one local `YYYY-MM-DD` to another, both
 * inclusive; refreshed every 15 s while open.
 */
export const rangeQuery = (chatbotId: string, from: string, to: string) =>
  queryOptions({
    queryKey: ['reservations', chatbotId, 'range', from, to],
    queryFn: () =>
      apiCall<ListAnswer>('GET', `/api/reservations/${chatbotId}?state=all&from=${from}&to=${to}`),
    refetchInterval: 15_000,
  });

/** A day's free slots, for adding by hand. */
export const slotsQuery = (chatbotId: string, date: string) =>
  queryOptions({
    queryKey: ['reservations', chatbotId, 'slots', date],
    queryFn: () => apiCall<SlotsAnswer>('GET', `/api/reservations/${chatbotId}/slots?date=${date}`),
    enabled: /^\d{4}-\d{2}-\d{2}$/.test(date),
  });

/** Saves the calendar. */
export function saveConfig(chatbotId: string, config: ReservationConfig): Promise<ConfigAnswer> {
  return apiCall('PUT', `/api/reservations/${chatbotId}/config`, config);
}

/** Sets "Reserva abonada" or completed. */
export function setFlags(
  chatbotId: string,
  id: string,
  flags: { is_paid?: boolean; is_completed?: boolean },
): Promise<{ reservation: ReservationRow }> {
  return apiCall('PATCH', `/api/reservations/${chatbotId}/${id}`, flags);
}

/** Cancels a reservation as the owner (it stays listed under "cancelled", by you). */
export function cancelReservation(chatbotId: string, id: string): Promise<{ reservation: ReservationRow }> {
  return apiCall('POST', `/api/reservations/${chatbotId}/${id}/cancel`);
}

/** Deletes a reservation. */
export function deleteReservation(chatbotId: string, id: string): Promise<unknown> {
  return apiCall('DELETE', `/api/reservations/${chatbotId}/${id}`);
}

/** Adds a reservation by hand. */
export function addReservation(chatbotId: string, body: AddBody): Promise<{ reservation: ReservationRow }> {
  return apiCall('POST', `/api/reservations/${chatbotId}`, body);
}
