/**
 * The reservations calendar's arithmetic (issue 27 §6; dashboard/src/lib/reservation-calendar.ts):
 * Monday-first weeks from any day, across a month and a DST change; bookings that overlap placed
 * side by side and the others full width; an end past midnight kept on its day; the grid's hours.
 */
import { describe, expect, it } from 'vitest';
import { daysOf, hourSpan, mondayOf, placeDay } from '../dashboard/src/lib/reservation-calendar.ts';
import type { ReservationRow } from '../dashboard/src/lib/reservations.ts';

const booking = (id: string, start: string, end: string) => ({ id, start, end }) as ReservationRow;

describe('the reservations calendar', () => {
  it('shows the Monday-first week of any day, across a month end and the October DST change', () => {
    expect(mondayOf('2026-11-29')).toBe('2026-11-23'); // a Sunday
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
    expect(daysOf('week', '2026-10-25')).toEqual([
      '2026-10-19',
      '2026-10-20',
      '2026-10-21',
      '2026-10-22',
      '2026-10-23',
      '2026-10-24',
      '2026-10-25',
    ]);
    expect(daysOf('week', '2026-12-31')).toContain('2027-01-03');
    expect(daysOf('day', '2026-11-28')).toEqual(['2026-11-28']);
  });

  it('puts overlapping bookings side by side and the others full width', () => {
    const placed = placeDay([
      booking('c', '14:00', '15:00'),
      booking('a', '13:00', '14:00'),
      booking('b', '13:30', '14:30'),
      booking('d', '20:00', '21:00'),
    ]);
    expect(placed.map((p) => [p.row.id, p.lane, p.lanes])).toEqual([
      ['a', 0, 2],
      ['b', 1, 2],
      ['c', 0, 2], // a's lane is free again at 14:00
      ['d', 0, 1],
    ]);
  });

  it('keeps a booking ending at midnight on its day and widens the grid to it', () => {
    const placed = placeDay([booking('late', '23:00', '00:00'), booking('early', '07:30', '08:30')]);
    expect(placed.map((p) => [p.start, p.end])).toEqual([
      [450, 510],
      [1380, 1440],
    ]);
    expect(hourSpan(placed)).toEqual({ first: 7, last: 24 });
    expect(hourSpan([])).toEqual({ first: 9, last: 18 });
  });
});
