/**
 * The business's opening hours in the hand-off reply (issue 27 §2: "with the business's hours if it
 * knows them"). The reservations plugin keeps them (its calendar's working hours); it answers the
 * registry query {@link HOURS_QUERY} (plugins/reservations/index.ts): the emitter passes
 * `{ chatbotId, reply }` and the listener calls `reply({ timezone, working_hours })` when the bot
 * has a calendar. Formatting is pure string work, weekday names from Intl in the bot's language.
 */
import { z } from 'zod';
import type { PluginEvents } from '../../engine/registry/index.ts';
import type { LangCode } from '../../engine/schemas.ts';

/** The registry query answered by the reservations plugin. */
export const HOURS_QUERY = 'reservations.hours';

const Time = z.string().regex(/^\d{2}:\d{2}$/);
const Day = z.object({
  enabled: z.boolean(),
  start: Time,
  end: Time,
  break_start: Time.nullable().optional(),
  break_end: Time.nullable().optional(),
});
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
/** The reservations plugin's answer. */
export const Hours = z.object({
  timezone: z.string(),
  working_hours: z.object(
    Object.fromEntries(DAYS.map((d) => [d, Day])) as Record<(typeof DAYS)[number], typeof Day>,
  ),
});
/** See {@link Hours}. */
export type Hours = z.infer<typeof Hours>;

/** The bot's opening hours through the registry, or null (no calendar, or a malformed answer). */
export async function askHours(events: PluginEvents, chatbotId: string): Promise<Hours | null> {
  let answer: unknown = null;
  await events.emit(HOURS_QUERY, { chatbotId, reply: (h: unknown) => (answer = h) });
  const parsed = Hours.safeParse(answer);
  return parsed.success ? parsed.data : null;
}

/** Short weekday names (Monday first) in a language. 2024-01-01 was a Monday. */
function weekdayNames(lang: LangCode): string[] {
  const f = new Intl.DateTimeFormat(lang, { weekday: 'short', timeZone: 'UTC' });
  return DAYS.map((_, i) => f.format(new Date(Date.UTC(2024, 0, 1 + i))));
}

/**
 * "lun–vie 09:00–14:00, 17:00–20:00; sáb 10:00–14:00": consecutive days with the same hours
 * folded, closed days left out; '' when every day is closed.
 */
export function formatHours(h: Hours, lang: LangCode): string {
  const names = weekdayNames(lang);
  const spans = DAYS.map((d) => {
    const x = h.working_hours[d];
    if (!x.enabled) return null;
    return x.break_start && x.break_end
      ? `${x.start}–${x.break_start}, ${x.break_end}–${x.end}`
      : `${x.start}–${x.end}`;
  });
  const parts: string[] = [];
  for (let i = 0; i < 7; ) {
    const span = spans[i];
    let j = i;
    while (j + 1 < 7 && spans[j + 1] === span) j++;
    if (span) parts.push(`${names[i]}${j > i ? `–${names[j]}` : ''} ${span}`);
    i = j + 1;
  }
  return parts.join('; ');
}
