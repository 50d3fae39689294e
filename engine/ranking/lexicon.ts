/**
 * The small per-language word lists ranking needs beyond stemming and stop words (issue 10 §6, §7):
 *
 * - **Concepts**: the few things followers ask a business about most (opening hours, days, the
 *   place, prices, contact, bookings). A word of a concept, in the question or in a sentence of the
 *   description, adds the concept's tag (`#hours`, …) to its terms, so "¿A qué hora abrís el
 *   sábado?" meets "De martes a domingo, de 13:00 a 16:30" although they share no word: both carry
 *   `#hours` and `#day`. Times, prices, phone numbers and e-mail addresses tag by pattern
 *   ({@link CONCEPT_PATTERNS}).
 * - **Instruction openers** are in ./instructions.ts.
 *
 * Entry syntax: a word matches a whole word; `word*` matches words starting with it. Entries
 * without diacritics are compared with the accent-folded word (engine/matching `foldAccents`), so
 * "sabado" covers "sábado"; entries with diacritics are compared with the word as written, so the
 * French "où" (where) does not catch "ou" (or).
 */
import type { LangCode } from '../schemas.ts';

/** The concepts ranking knows. */
export const CONCEPTS = ['hours', 'day', 'place', 'price', 'contact', 'booking'] as const;
export type Concept = (typeof CONCEPTS)[number];

type PerLang<T> = Record<LangCode, T>;

/** Words that carry each concept, per language. */
export const CONCEPT_WORDS: PerLang<Record<Concept, readonly string[]>> = {
  es: {
    hours: ['hora*', 'horario*', 'abr*', 'abiert*', 'cierr*', 'cerr*', 'cuando'],
    day: [
      'lunes',
      'martes',
      'miercoles',
      'jueves',
      'viernes',
      'sabado*',
      'domingo*',
      'festivo*',
      'finde*',
      'laborable*',
    ],
    place: ['donde', 'direccion*', 'ubicacion*', 'ubicad*', 'calle*', 'avenida*', 'plaza*', 'llegar'],
    price: ['precio*', 'cuesta*', 'cuestan', 'cuanto', 'tarifa*', 'euro*', 'barato*', 'caro*', 'cobr*'],
    contact: ['telefono*', 'llam*', 'contact*', 'correo*', 'email*', 'mail*', 'whatsapp'],
    booking: ['reserv*', 'cita*'],
  },
  en: {
    hours: ['hour*', 'open*', 'clos*', 'when', 'time*'],
    day: [
      'monday*',
      'tuesday*',
      'wednesday*',
      'thursday*',
      'friday*',
      'saturday*',
      'sunday*',
      'weekend*',
      'weekday*',
      'holiday*',
    ],
    place: ['where', 'address*', 'locat*', 'street', 'avenue', 'directions'],
    price: ['price*', 'cost*', 'cheap*', 'expensive', 'fee*', 'euro*', 'dollar*'],
    contact: ['phone*', 'call*', 'contact*', 'email*', 'mail*', 'whatsapp'],
    booking: ['book*', 'reserv*', 'appointment*'],
  },
  fr: {
    hours: ['heure*', 'horaire*', 'ouvr*', 'ouvert*', 'ferm*', 'quand'],
    day: [
      'lundi*',
      'mardi*',
      'mercredi*',
      'jeudi*',
      'vendredi*',
      'samedi*',
      'dimanche*',
      'ferie*',
      'weekend*',
    ],
    place: ['où', 'adresse*', 'rue', 'situe*', 'trouver'],
    price: ['prix', 'cout*', 'combien', 'tarif*', 'euro*'],
    contact: ['telephon*', 'appel*', 'contact*', 'courriel*', 'email*', 'mail*', 'whatsapp'],
    booking: ['reserv*', 'rendez*'],
  },
  de: {
    hours: [
      'uhr',
      'uhrzeit*',
      'offnungszeit*',
      'geoffnet',
      'offnet',
      'offnen',
      'offen',
      'schlie*',
      'geschlossen',
      'wann',
      'zeit*',
    ],
    day: [
      'montag*',
      'dienstag*',
      'mittwoch*',
      'donnerstag*',
      'freitag*',
      'samstag*',
      'sonntag*',
      'wochenende*',
      'feiertag*',
    ],
    place: ['wo', 'adresse*', 'strasse*', 'straße*', 'anfahrt*'],
    price: ['preis*', 'kost*', 'teuer*', 'billig*', 'euro*'],
    contact: ['telefon*', 'anruf*', 'anrufen', 'kontakt*', 'email*', 'mail*', 'whatsapp'],
    booking: ['reservier*', 'buch*', 'termin*'],
  },
  it: {
    hours: ['ora', 'orari*', 'apri*', 'apre', 'aprono', 'apert*', 'chius*', 'chiud*', 'quando'],
    day: [
      'lunedi',
      'martedi',
      'mercoledi',
      'giovedi',
      'venerdi',
      'sabato',
      'sabati',
      'domenica',
      'domeniche',
      'festiv*',
      'weekend',
    ],
    place: ['dove', 'indirizzo*', 'piazza', 'trovarvi', 'trovare'],
    price: ['prezz*', 'cost*', 'quanto', 'tariff*', 'euro*'],
    contact: ['telefon*', 'chiam*', 'contatt*', 'email*', 'mail*', 'whatsapp'],
    booking: ['prenot*', 'riserv*', 'appuntament*'],
  },
  ru: {
    hours: ['час*', 'врем*', 'откр*', 'закр*', 'когда', 'работа*'],
    day: [
      'понедельник*',
      'вторник*',
      'среда',
      'среду',
      'четверг*',
      'пятниц*',
      'суббот*',
      'воскресен*',
      'выходн*',
      'праздник*',
    ],
    place: ['где', 'адрес*', 'улиц*', 'находит*', 'добрат*'],
    price: ['цен*', 'стоим*', 'стоит', 'сколько', 'руб*', 'евро'],
    contact: ['телефон*', 'звон*', 'контакт*', 'почт*', 'email', 'whatsapp'],
    booking: ['брон*', 'запис*', 'заказ*'],
  },
  hi: {
    hours: ['समय', 'बजे', 'खुल*', 'बंद', 'कब'],
    day: ['सोमवार', 'मंगलवार', 'बुधवार', 'गुरुवार', 'शुक्रवार', 'शनिवार', 'रविवार', 'छुट्टी'],
    place: ['कहाँ', 'कहां', 'पता'],
    price: ['कीमत', 'दाम', 'रुपये', 'रुपए', 'कितने', 'कितना', 'शुल्क'],
    contact: ['फ़ोन', 'फोन', 'संपर्क', 'ईमेल', 'whatsapp'],
    booking: ['बुक*', 'बुकिंग', 'आरक्षण'],
  },
};

/** Patterns that tag a text with a concept whatever its language. */
export const CONCEPT_PATTERNS: ReadonlyArray<[Concept, RegExp]> = [
  // 13:00, 9.30, 20h30, 9h, 8 am, 18 Uhr
  ['hours', /(?<![\d.,])(?:[01]?\d|2[0-3])(?:[:.h][0-5]\d|\s?(?:h|am|pm|uhr))(?![\d\p{L}])/iu],
  ['price', /[€$£₹₽]\s?\d|\d\s?(?:€|\$|£|₹|₽|eur\b|euros?\b|usd\b)/iu],
  ['contact', /\+?\d[\d ().-]{7,}\d|[\w.+-]+@[\w-]+\.[\w.]+/u],
];

/**
 * Greetings and thanks carry no question: they are dropped from ranking terms like stop words, so
 * "Buenas tardes" does not pick the sentence that says "por la tarde". A word of `leads` drops the
 * word after it too ("buenas tardes", "good evening", "guten Tag").
 */
export const SMALL_TALK: PerLang<{ words: readonly string[]; leads: readonly string[] }> = {
  es: {
    words: ['hola', 'gracias', 'saludos', 'adios', 'vale', 'ok', 'hey'],
    leads: ['buenas', 'buenos', 'muchas'],
  },
  en: { words: ['hello', 'hi', 'hey', 'thanks', 'thank', 'bye', 'ok', 'okay'], leads: ['good', 'many'] },
  fr: { words: ['bonjour', 'bonsoir', 'salut', 'merci', 'coucou', 'ok'], leads: ['bonne'] },
  de: { words: ['hallo', 'danke', 'tschuss', 'servus', 'moin', 'ok'], leads: ['guten', 'gute', 'vielen'] },
  it: { words: ['ciao', 'buongiorno', 'buonasera', 'salve', 'grazie', 'ok'], leads: ['buona', 'mille'] },
  ru: { words: ['привет', 'здравствуйте', 'спасибо', 'пока', 'ок'], leads: ['добрый', 'доброе', 'большое'] },
  hi: { words: ['नमस्ते', 'नमस्कार', 'धन्यवाद', 'शुक्रिया', 'hello', 'hi'], leads: [] },
};
