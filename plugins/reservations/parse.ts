/**
 * What the offline booking dialogue (dialogue.ts) reads in a follower's words, as pure functions:
 * dates («hoy», «mañana», weekday names, 28/11, 2026-11-28), times (14:00, «a las 14», 2pm),
 * party sizes («para 4», «4 personas»), the answer to a detail question, and the phone or e-mail
 * given with a reservation code (issue 24 §4), in the bot languages' common words.
 */
import type { WEEKDAYS } from './config.ts';
import { type MissingField, PHONE } from './service.ts';

/** What may be a phone number in a message: an optional `+`, digits with spaces, dots, dashes or brackets. */
const PHONE_CANDIDATE = /\+?\d[\d\s().-]{5,22}\d/;

import { addDays, weekdayOf } from './slots.ts';

/** Lower case without accents. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

const TODAY = /\b(hoy|today|aujourd'?hui|oggi|heute)\b|сегодня|आज/u;
const AFTER_TOMORROW =
  /\b(pasado manana|day after tomorrow|apres-demain|dopodomani|ubermorgen)\b|послезавтра|परसों/u;
const TOMORROW = /\b(manana|tomorrow|demain|domani|morgen)\b|завтра|कल/u;
const WEEKDAY_WORDS: Array<[(typeof WEEKDAYS)[number], RegExp]> = [
  ['monday', /\b(lunes|monday|lundi|lunedi|montag)\b|понедельник|सोमवार/u],
  ['tuesday', /\b(martes|tuesday|mardi|martedi|dienstag)\b|вторник|मंगलवार/u],
  ['wednesday', /\b(miercoles|wednesday|mercredi|mercoledi|mittwoch)\b|сред[ау]|बुधवार/u],
  ['thursday', /\b(jueves|thursday|jeudi|giovedi|donnerstag)\b|четверг|गुरुवार/u],
  ['friday', /\b(viernes|friday|vendredi|venerdi|freitag)\b|пятниц[ау]|शुक्रवार/u],
  ['saturday', /\b(sabado|saturday|samedi|sabato|samstag)\b|суббот[ау]|शनिवार/u],
  ['sunday', /\b(domingo|sunday|dimanche|domenica|sonntag)\b|воскресенье|रविवार/u],
];

/** The local date a message names, relative to `today` (null when it names none). */
export function parseDate(message: string, today: string): string | null {
  const text = fold(message);
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(text);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const dm = /\b(\d{1,2})[/.-](\d{1,2})(?:[/.-](\d{2,4}))?\b/.exec(text);
  if (dm) {
    const day = Number(dm[1]);
    const month = Number(dm[2]);
    if (day >= 1 && day <= 31 && month >= 1 && month <= 12) {
      let year = dm[3] ? Number(dm[3].length === 2 ? `20${dm[3]}` : dm[3]) : Number(today.slice(0, 4));
      let date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      if (!dm[3] && date < today) date = `${++year}${date.slice(4)}`;
      return date;
    }
  }
  if (AFTER_TOMORROW.test(text)) return addDays(today, 2);
  if (TODAY.test(text)) return today;
  if (
    TOMORROW.test(text) &&
    !/\b(por|de|la|in the|le|am|al(la)?) (manana|morning|matin|morgen|mattina)\b/.test(text)
  )
    return addDays(today, 1);
  for (const [day, re] of WEEKDAY_WORDS) {
    if (!re.test(text)) continue;
    for (let i = 0; i < 7; i++) if (weekdayOf(addDays(today, i)) === day) return addDays(today, i);
  }
  return null;
}

/** The local time `HH:mm` a message names (14:00, 14h, «a las 14», 2pm), or null. */
export function parseTime(message: string): string | null {
  const text = fold(message);
  const clock = /\b(\d{1,2})[:h.](\d{2})\b/.exec(text);
  const ampm = /\b(\d{1,2})\s*(am|pm)\b/.exec(text);
  const spoken = /\b(?:a las|a la|at|a|alle|um|в)\s+(\d{1,2})\b(?![/.-]\d)/.exec(text);
  let h: number | null = null;
  let m = 0;
  if (clock) {
    h = Number(clock[1]);
    m = Number(clock[2]);
  } else if (ampm) {
    h = (Number(ampm[1]) % 12) + (ampm[2] === 'pm' ? 12 : 0);
  } else if (spoken) {
    h = Number(spoken[1]);
    if (h >= 1 && h <= 7) h += 12; // «a las 2»: the afternoon, as people say it
  }
  if (h === null || h > 23 || m > 59) return null;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** The party size a message names («para 4», «4 personas», «table for 2»), or null. */
export function parsePartySize(message: string): number | null {
  const text = fold(message);
  const counted =
    /\b(\d{1,3})\s*(personas?|people|persons?|pax|comensales|personnes?|persone|personen|adultos|adults)\b|(\d{1,3})\s*(человек|чел|लोग|लोगों)/u.exec(
      text,
    );
  if (counted) return Number(counted[1] ?? counted[3]);
  const forN =
    /\b(?:para|for|pour|per|fur|für)\s+(\d{1,3})\b(?!\s*[:/.h-]\s*\d|\s*(?:am|pm|de|del|of)\b)/.exec(text);
  return forN ? Number(forN[1]) : null;
}

/**
 * The phone or e-mail a message gives with a code (the proof when asking from another chat), the
 * code itself left out so its digits are not read as a phone, nor a date (2026-11-28) as one.
 */
export function parseProof(message: string, code: string): { phone?: string; email?: string } {
  const text = message.replace(new RegExp(`\\b${code}\\b`, 'gi'), ' ');
  const email = /[^\s@]+@[^\s@]+\.[^\s@]+/.exec(text)?.[0].replace(/[.,;]$/, '');
  const phone = [...text.matchAll(new RegExp(PHONE_CANDIDATE.source, 'g'))]
    .map((m) => m[0])
    .find((p) => PHONE.test(p) && !/^\d{4}-\d{2}-\d{2}$/.test(p) && p.replace(/\D/g, '').length >= 6);
  return { ...(phone ? { phone } : {}), ...(email ? { email } : {}) };
}

/** The follower's answer to a question about one detail, or null when it does not fit. */
export function parseDetail(field: MissingField, message: string): string | number | null {
  const text = message.trim();
  if (field === 'phone') {
    const m = PHONE_CANDIDATE.exec(text);
    return m && PHONE.test(m[0]) ? m[0] : null;
  }
  if (field === 'email') {
    const m = /[^\s@]+@[^\s@]+\.[^\s@]+/.exec(text);
    return m ? m[0].replace(/[.,;]$/, '') : null;
  }
  if (field === 'party_size') {
    const n = parsePartySize(text) ?? (/^\s*(\d{1,3})\s*$/.exec(text) ? Number(text) : null);
    return n && n > 0 ? n : null;
  }
  const name = text
    .replace(
      /^(me llamo|soy|a nombre de|mi nombre es|my name is|i am|i'm|name:?|je m'appelle|mi chiamo|ich hei(ß|ss)e|меня зовут|मेरा नाम)\s+/iu,
      '',
    )
    .replace(/[.!]+$/, '')
    .trim();
  return name.length >= 2 && name.length <= 120 && !/\d{3}/.test(name) ? name : null;
}
