/**
 * A first calendar that fits the business (issue 29 §Reservations "defaults fit the business"):
 * the opening hours the owner already wrote in the bot's description («de 13:00 a 16:00 y de
 * 20:00 a 23:30», «Lunes a sábado 9–14», «closed on Mondays»), in the seven bot languages'
 * common words; else, for food and hospitality, lunch and dinner services (13:00–16:00,
 * 20:00–23:30) every day. Restaurants also ask the party size and take several bookings per
 * slot. The time zone is the owner's browser's when it is a real IANA zone. Browser-safe.
 */
import {
  type DayHours,
  defaultConfig,
  isTimeZone,
  type ReservationConfig,
  WEEKDAYS,
  type Weekday,
} from './config.ts';

/** Lower case without Latin accents (Devanagari vowel signs stay). */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase();

/** Weekday names and short forms, folded, in the bot languages (es, en, fr, it, de, ru, hi). */
const DAY_WORDS: Record<Weekday, string> = {
  monday: 'lunes|lun|monday|mon|lundi|lunedi|montag|mo|понедельник[а]?|пн|सोमवार',
  tuesday: 'martes|mar|tuesday|tue|mardi|martedi|dienstag|di|вторник[а]?|вт|मंगलवार',
  wednesday: 'miercoles|mie|wednesday|wed|mercredi|mer|mercoledi|mittwoch|mi|среда|сред[уы]|ср|बुधवार',
  thursday: 'jueves|jue|thursday|thu|jeudi|jeu|giovedi|gio|donnerstag|do|четверг[а]?|чт|गुरुवार',
  friday: 'viernes|vie|friday|fri|vendredi|ven|venerdi|freitag|fr|пятниц[аыу]|пт|शुक्रवार',
  saturday: 'sabado|sab|saturday|sat|samedi|sam|sabato|samstag|sa|суббот[аыу]|сб|शनिवार',
  sunday: 'domingo|dom|sunday|sun|dimanche|dim|domenica|sonntag|so|воскресень[яе]|вс|रविवार',
};

/** Words between two days or two times of a range: «a», «al», «to», «bis», «à», «до», «से», dashes. */
const RANGE = String.raw`\s*(?:-|–|—|a|al|to|till|until|through|bis|a|au|alle|al|до|по|से|तक)\s*`;
const DAY = (re: string) => String.raw`(?<![\p{L}])(?:${re})(?![\p{L}])\.?`;
const ANY_DAY = WEEKDAYS.map((d) => DAY(DAY_WORDS[d])).join('|');
const DAY_RANGE = new RegExp(`(${ANY_DAY})${RANGE}(${ANY_DAY})`, 'u');
const CLOSED = /\b(?:cerrado|closed|ferme|chiuso|geschlossen|ruhetag)\b|закрыто|выходной|बंद/u;
const TIME = String.raw`(\d{1,2})(?:[:.h](\d{2}))?\s*h?`;
const TIME_RANGE = new RegExp(`(?<![\\d:])${TIME}${RANGE}${TIME}(?![\\d/])`, 'gu');

/** Food and hospitality, by the bot's category or its description. */
const HOSPITALITY =
  /restaur|comida|food|hostel|hospitality|\b(?:bar|pub|hotel|hostal|meson|asador|taberna|tasca)\b|cafe|cafeter|pizz|trattor|osteria|ristorant|brasser|bistro|tapas|gastro|arroceria|marisqueria|cerveceria|kneipe|gasthaus|ресторан|кафе|रेस्टोरेंट|रेस्तरां|ढाबा/u;

/** Which day of the week a word names, or null. */
function dayOf(word: string): Weekday | null {
  const clean = word.replace(/\.$/, '');
  return WEEKDAYS.find((d) => new RegExp(`^(?:${DAY_WORDS[d]})$`, 'u').test(clean)) ?? null;
}

/** `HH:mm` of an hour and optional minutes, or null when it is not a time of day. */
function hhmm(h: string, m: string | undefined): string | null {
  const hour = Number(h);
  const minute = Number(m ?? 0);
  if (hour > 24 || minute > 59 || (hour === 24 && minute > 0)) return null;
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/** Opening hours found in a text: the days (null: none named), the services and closed days. */
export interface FoundHours {
  days: Weekday[] | null;
  services: Array<{ start: string; end: string }>;
  closed: Weekday[];
}

/**
 * Reads opening hours in a business description: the first weekday range («lunes a sábado»),
 * up to two time ranges («de 13:00 a 16:00 y de 20:00 a 23:30», «9–14») and the days named next
 * to «cerrado»/«closed». Null when it names no time range.
 */
export function hoursInText(text: string): FoundHours | null {
  const folded = fold(text);
  const services: FoundHours['services'] = [];
  for (const m of folded.matchAll(TIME_RANGE)) {
    const start = hhmm(m[1]!, m[2]);
    const end = hhmm(m[3]!, m[4]);
    if (!start || !end || start >= end) continue;
    if (!m[2] && !m[4] && /[/]/.test(folded.slice((m.index ?? 0) - 1, m.index ?? 0))) continue;
    if (services.length && start <= services.at(-1)!.end) continue;
    services.push({ start, end });
    if (services.length === 2) break;
  }
  if (services.length === 0) return null;
  const range = DAY_RANGE.exec(folded);
  let days: Weekday[] | null = null;
  if (range) {
    const from = dayOf(range[1]!);
    const to = dayOf(range[2]!);
    if (from && to) {
      const a = WEEKDAYS.indexOf(from);
      const b = WEEKDAYS.indexOf(to);
      days = WEEKDAYS.filter((_, i) => (a <= b ? i >= a && i <= b : i >= a || i <= b));
    }
  }
  const closed: Weekday[] = [];
  for (const sentence of folded.split(/[.;,\n]/)) {
    if (!CLOSED.test(sentence)) continue;
    for (const d of WEEKDAYS) if (new RegExp(DAY(DAY_WORDS[d]), 'u').test(sentence)) closed.push(d);
  }
  return { days, services, closed };
}

/** One day open for the services (a break between two). */
function openDay(services: FoundHours['services']): DayHours {
  const [first, second] = services as [FoundHours['services'][0], FoundHours['services'][0] | undefined];
  return {
    enabled: true,
    start: first.start,
    end: (second ?? first).end,
    break_start: second ? first.end : null,
    break_end: second ? second.start : null,
  };
}

/** Lunch and dinner services of a restaurant (issue 29). */
export const MEAL_SERVICES = [
  { start: '13:00', end: '16:00' },
  { start: '20:00', end: '23:30' },
] as const;

/**
 * The first calendar of a bot: spec 001 §9 defaults, then the description's hours or, for food
 * and hospitality, {@link MEAL_SERVICES} every day; restaurants ask the party size and take up to
 * 10 bookings per slot; the time zone is `browserZone` when it is a real IANA zone.
 */
export function suggestConfig(bot: {
  description: string;
  category: string;
  browserZone?: string | undefined;
}): ReservationConfig {
  const config = defaultConfig();
  if (bot.browserZone && isTimeZone(bot.browserZone)) config.timezone = bot.browserZone;
  const hospitality = HOSPITALITY.test(fold(`${bot.category} ${bot.description}`));
  const found = hoursInText(bot.description);
  const services = found?.services ?? (hospitality ? [...MEAL_SERVICES] : null);
  if (services) {
    const open = openDay(services);
    for (const d of WEEKDAYS) {
      const on = (found?.days ?? WEEKDAYS).includes(d) && !found?.closed.includes(d);
      config.working_hours[d] = { ...open, enabled: on };
    }
  }
  if (hospitality) {
    config.require_group_size = true;
    config.allow_simultaneous = true;
    config.max_simultaneous = 10;
  }
  return config;
}
