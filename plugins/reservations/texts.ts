/**
 * What the reservations plugin says to followers, in each bot language (issue 12 §9: reminders in
 * the bot's language; the offline dialogue's questions and confirmations). Dates are written with
 * Intl in the calendar's time zone. Spanish is the source.
 */
import { type LangCode, languageCode } from '../../engine/schemas.ts';

/** The sentences of the booking dialogue and the reminders. */
export interface ReservationTexts {
  askWhen: string;
  slotsIntro: string;
  noSlots: string;
  pick: string;
  held: string;
  askName: string;
  askPhone: string;
  askEmail: string;
  askParty: string;
  askComments: string;
  /** Issue 29: the follower's comment was added to the booking, or they had none. */
  commentSaved: string;
  commentSkipped: string;
  confirmed: string;
  full: string;
  cancelled: string;
  /** A code the follower may not use, whether it exists or not (issue 24 §4: the same answer). */
  notFound: string;
  /** Past the failed code look-up limits: `{minutes}` to wait, `{business}` to contact. */
  tooManyTries: string;
  lookup: string;
  none: string;
  abandoned: string;
  tooMany: string;
  askChange: string;
  changed: string;
  badPhone: string;
  badEmail: string;
  people: string;
  reminder24h: string;
  reminder2h: string;
}

const es: ReservationTexts = {
  askWhen: '¿Para qué día quieres reservar? Por ejemplo: «mañana», «el sábado» o «28/11».',
  slotsIntro: 'Huecos libres para el {date}:',
  noSlots: 'No quedan huecos libres para el {date}. ¿Te va bien otro día?',
  pick: 'Responde con el número o la hora que prefieras.',
  held: 'Te guardo {when} durante {minutes} minutos.',
  askName: '¿A nombre de quién hago la reserva?',
  askPhone: '¿Un teléfono de contacto?',
  askEmail: '¿Y un correo electrónico?',
  askParty: '¿Para cuántas personas?',
  askComments: '¿Algún comentario? Si no, responde «no».',
  commentSaved: 'Anotado, gracias. Lo verá el equipo.',
  commentSkipped: 'De acuerdo, sin comentarios. ¡Hasta pronto!',
  confirmed:
    '✅ Reserva confirmada en {business}: {when}{party}. Tu código es {code}. Guárdalo para consultarla, cambiarla o cancelarla.',
  full: 'Ese hueco se acaba de llenar.',
  cancelled: 'Tu reserva {code} está cancelada.',
  notFound:
    'No encuentro ninguna reserva con el código {code}. Si la hiciste desde otro chat, escríbeme el código junto con el teléfono o el correo de la reserva.',
  tooManyTries:
    'Ha habido demasiados intentos con códigos que no encuentro. Vuelve a intentarlo dentro de {minutes} min o contacta directamente con {business}.',
  lookup: 'Tu reserva {code}: {when}{party}.',
  none: 'No tienes reservas próximas.',
  abandoned: 'De acuerdo, lo dejamos. Escríbeme cuando quieras reservar.',
  tooMany: 'Como máximo podemos reservar para {max} personas.',
  askChange: '¿A qué día quieres cambiar tu reserva {code}?',
  changed: '✅ Reserva {code} cambiada: {when}{party}.',
  badPhone: 'Ese teléfono no parece correcto. ¿Me lo repites con todos los números?',
  badEmail: 'Ese correo no parece correcto. ¿Me lo repites?',
  people: ', {n} personas',
  reminder24h: '⏰ Recordatorio: mañana tienes reserva en {business}, {when}{party}. Código {code}.',
  reminder2h:
    '⏰ Recordatorio: dentro de 2 horas tienes reserva en {business}, {when}{party}. Código {code}.',
};

const en: ReservationTexts = {
  askWhen: 'Which day would you like to book? For example: “tomorrow”, “Saturday” or “28/11”.',
  slotsIntro: 'Free times on {date}:',
  noSlots: 'There are no free times on {date}. Would another day suit you?',
  pick: 'Reply with the number or the time you prefer.',
  held: 'I’m holding {when} for you for {minutes} minutes.',
  askName: 'What name should the booking be under?',
  askPhone: 'A contact phone number?',
  askEmail: 'And an e-mail address?',
  askParty: 'For how many people?',
  askComments: 'Any comments for us? If not, reply “no”.',
  commentSaved: 'Noted, thank you. The team will see it.',
  commentSkipped: 'All right, no comments. See you soon!',
  confirmed:
    '✅ Booking confirmed at {business}: {when}{party}. Your code is {code}. Keep it to check, change or cancel it.',
  full: 'That time has just been taken.',
  cancelled: 'Your booking {code} is cancelled.',
  notFound:
    'I can’t find a booking with the code {code}. If you booked from another chat, write the code together with the phone number or e-mail of the booking.',
  tooManyTries:
    'There have been too many attempts with codes I can’t find. Try again in {minutes} min or contact {business} directly.',
  lookup: 'Your booking {code}: {when}{party}.',
  none: 'You have no upcoming bookings.',
  abandoned: 'All right, let’s leave it. Write to me whenever you want to book.',
  tooMany: 'We can book for at most {max} people.',
  askChange: 'Which day would you like to move your booking {code} to?',
  changed: '✅ Booking {code} changed: {when}{party}.',
  badPhone: 'That phone number doesn’t look right. Could you write it with all its digits?',
  badEmail: 'That e-mail doesn’t look right. Could you write it again?',
  people: ', {n} people',
  reminder24h: '⏰ Reminder: tomorrow you have a booking at {business}, {when}{party}. Code {code}.',
  reminder2h: '⏰ Reminder: in 2 hours you have a booking at {business}, {when}{party}. Code {code}.',
};

const fr: ReservationTexts = {
  askWhen: 'Pour quel jour voulez-vous réserver ? Par exemple : « demain », « samedi » ou « 28/11 ».',
  slotsIntro: 'Créneaux libres le {date} :',
  noSlots: 'Il n’y a plus de créneau libre le {date}. Un autre jour vous irait ?',
  pick: 'Répondez avec le numéro ou l’heure que vous préférez.',
  held: 'Je vous garde {when} pendant {minutes} minutes.',
  askName: 'À quel nom dois-je faire la réservation ?',
  askPhone: 'Un numéro de téléphone ?',
  askEmail: 'Et une adresse e-mail ?',
  askParty: 'Pour combien de personnes ?',
  askComments: 'Un commentaire ? Sinon, répondez « non ».',
  commentSaved: 'C’est noté, merci. L’équipe le verra.',
  commentSkipped: 'D’accord, sans commentaire. À bientôt !',
  confirmed:
    '✅ Réservation confirmée chez {business} : {when}{party}. Votre code est {code}. Gardez-le pour la consulter, la modifier ou l’annuler.',
  full: 'Ce créneau vient d’être pris.',
  cancelled: 'Votre réservation {code} est annulée.',
  notFound:
    'Je ne trouve aucune réservation avec le code {code}. Si vous l’avez faite depuis une autre conversation, écrivez le code avec le téléphone ou l’e-mail de la réservation.',
  tooManyTries:
    'Il y a eu trop de tentatives avec des codes introuvables. Réessayez dans {minutes} min ou contactez directement {business}.',
  lookup: 'Votre réservation {code} : {when}{party}.',
  none: 'Vous n’avez aucune réservation à venir.',
  abandoned: 'D’accord, on laisse tomber. Écrivez-moi quand vous voulez réserver.',
  tooMany: 'Nous pouvons réserver pour {max} personnes au maximum.',
  askChange: 'Pour quel jour voulez-vous déplacer votre réservation {code} ?',
  changed: '✅ Réservation {code} modifiée : {when}{party}.',
  badPhone: 'Ce numéro ne semble pas correct. Pouvez-vous l’écrire en entier ?',
  badEmail: 'Cette adresse ne semble pas correcte. Pouvez-vous la réécrire ?',
  people: ', {n} personnes',
  reminder24h: '⏰ Rappel : demain vous avez une réservation chez {business}, {when}{party}. Code {code}.',
  reminder2h:
    '⏰ Rappel : dans 2 heures vous avez une réservation chez {business}, {when}{party}. Code {code}.',
};

const de: ReservationTexts = {
  askWhen: 'Für welchen Tag möchten Sie reservieren? Zum Beispiel: „morgen“, „Samstag“ oder „28.11.“.',
  slotsIntro: 'Freie Zeiten am {date}:',
  noSlots: 'Am {date} gibt es keine freien Zeiten. Passt Ihnen ein anderer Tag?',
  pick: 'Antworten Sie mit der Nummer oder der Uhrzeit.',
  held: 'Ich halte {when} für {minutes} Minuten für Sie frei.',
  askName: 'Auf welchen Namen soll die Reservierung laufen?',
  askPhone: 'Eine Telefonnummer?',
  askEmail: 'Und eine E-Mail-Adresse?',
  askParty: 'Für wie viele Personen?',
  askComments: 'Haben Sie einen Hinweis für uns? Wenn nicht, antworten Sie „nein“.',
  commentSaved: 'Notiert, danke. Das Team sieht es.',
  commentSkipped: 'In Ordnung, kein Hinweis. Bis bald!',
  confirmed:
    '✅ Reservierung bei {business} bestätigt: {when}{party}. Ihr Code ist {code}. Damit können Sie sie abfragen, ändern oder stornieren.',
  full: 'Diese Zeit wurde gerade vergeben.',
  cancelled: 'Ihre Reservierung {code} ist storniert.',
  notFound:
    'Ich finde keine Reservierung mit dem Code {code}. Wenn Sie aus einem anderen Chat reserviert haben, schreiben Sie den Code zusammen mit der Telefonnummer oder E-Mail der Reservierung.',
  tooManyTries:
    'Es gab zu viele Versuche mit Codes, die ich nicht finde. Versuchen Sie es in {minutes} Min. erneut oder wenden Sie sich direkt an {business}.',
  lookup: 'Ihre Reservierung {code}: {when}{party}.',
  none: 'Sie haben keine anstehenden Reservierungen.',
  abandoned: 'In Ordnung, lassen wir es. Schreiben Sie mir, wenn Sie reservieren möchten.',
  tooMany: 'Wir können für höchstens {max} Personen reservieren.',
  askChange: 'Auf welchen Tag möchten Sie Ihre Reservierung {code} verschieben?',
  changed: '✅ Reservierung {code} geändert: {when}{party}.',
  badPhone: 'Diese Nummer scheint nicht zu stimmen. Schreiben Sie sie bitte vollständig.',
  badEmail: 'Diese E-Mail-Adresse scheint nicht zu stimmen. Bitte noch einmal.',
  people: ', {n} Personen',
  reminder24h:
    '⏰ Erinnerung: Morgen haben Sie eine Reservierung bei {business}, {when}{party}. Code {code}.',
  reminder2h:
    '⏰ Erinnerung: In 2 Stunden haben Sie eine Reservierung bei {business}, {when}{party}. Code {code}.',
};

const it: ReservationTexts = {
  askWhen: 'Per quale giorno vuoi prenotare? Per esempio: «domani», «sabato» o «28/11».',
  slotsIntro: 'Orari liberi {date}:',
  noSlots: 'Non ci sono orari liberi {date}. Ti va bene un altro giorno?',
  pick: 'Rispondi con il numero o l’ora che preferisci.',
  held: 'Ti tengo {when} per {minutes} minuti.',
  askName: 'A che nome faccio la prenotazione?',
  askPhone: 'Un numero di telefono?',
  askEmail: 'E un indirizzo e-mail?',
  askParty: 'Per quante persone?',
  askComments: 'Qualche nota per noi? Se no, rispondi «no».',
  commentSaved: 'Annotato, grazie. Lo vedrà il team.',
  commentSkipped: 'Va bene, nessuna nota. A presto!',
  confirmed:
    '✅ Prenotazione confermata da {business}: {when}{party}. Il tuo codice è {code}. Conservalo per consultarla, cambiarla o annullarla.',
  full: 'Quell’orario è appena stato preso.',
  cancelled: 'La tua prenotazione {code} è annullata.',
  notFound:
    'Non trovo nessuna prenotazione con il codice {code}. Se l’hai fatta da un’altra chat, scrivimi il codice insieme al telefono o all’e-mail della prenotazione.',
  tooManyTries:
    'Ci sono stati troppi tentativi con codici che non trovo. Riprova tra {minutes} min o contatta direttamente {business}.',
  lookup: 'La tua prenotazione {code}: {when}{party}.',
  none: 'Non hai prenotazioni in arrivo.',
  abandoned: 'Va bene, lasciamo stare. Scrivimi quando vuoi prenotare.',
  tooMany: 'Possiamo prenotare al massimo per {max} persone.',
  askChange: 'A quale giorno vuoi spostare la prenotazione {code}?',
  changed: '✅ Prenotazione {code} cambiata: {when}{party}.',
  badPhone: 'Quel numero non sembra corretto. Me lo scrivi per intero?',
  badEmail: 'Quell’indirizzo non sembra corretto. Me lo riscrivi?',
  people: ', {n} persone',
  reminder24h: '⏰ Promemoria: domani hai una prenotazione da {business}, {when}{party}. Codice {code}.',
  reminder2h: '⏰ Promemoria: tra 2 ore hai una prenotazione da {business}, {when}{party}. Codice {code}.',
};

const ru: ReservationTexts = {
  askWhen: 'На какой день вы хотите забронировать? Например: «завтра», «в субботу» или «28/11».',
  slotsIntro: 'Свободное время на {date}:',
  noSlots: 'На {date} свободного времени нет. Подойдёт другой день?',
  pick: 'Ответьте номером или временем.',
  held: 'Держу для вас {when} {minutes} минут.',
  askName: 'На чьё имя оформить бронь?',
  askPhone: 'Контактный телефон?',
  askEmail: 'И адрес электронной почты?',
  askParty: 'На сколько человек?',
  askComments: 'Есть комментарий? Если нет, ответьте «нет».',
  commentSaved: 'Записали, спасибо. Команда это увидит.',
  commentSkipped: 'Хорошо, без комментариев. До встречи!',
  confirmed:
    '✅ Бронь в {business} подтверждена: {when}{party}. Ваш код {code}. Сохраните его, чтобы проверить, изменить или отменить бронь.',
  full: 'Это время только что заняли.',
  cancelled: 'Ваша бронь {code} отменена.',
  notFound:
    'Не нахожу брони с кодом {code}. Если вы бронировали из другого чата, напишите код вместе с телефоном или почтой, указанными в брони.',
  tooManyTries:
    'Слишком много попыток с кодами, которых я не нахожу. Попробуйте снова через {minutes} мин. или свяжитесь с {business} напрямую.',
  lookup: 'Ваша бронь {code}: {when}{party}.',
  none: 'У вас нет предстоящих броней.',
  abandoned: 'Хорошо, оставим. Напишите, когда захотите забронировать.',
  tooMany: 'Мы можем забронировать максимум на {max} человек.',
  askChange: 'На какой день перенести бронь {code}?',
  changed: '✅ Бронь {code} изменена: {when}{party}.',
  badPhone: 'Номер выглядит неверным. Напишите его полностью, пожалуйста.',
  badEmail: 'Адрес выглядит неверным. Напишите его ещё раз, пожалуйста.',
  people: ', {n} чел.',
  reminder24h: '⏰ Напоминание: завтра у вас бронь в {business}, {when}{party}. Код {code}.',
  reminder2h: '⏰ Напоминание: через 2 часа у вас бронь в {business}, {when}{party}. Код {code}.',
};

const hi: ReservationTexts = {
  askWhen: 'आप किस दिन के लिए बुक करना चाहते हैं? जैसे: "कल", "शनिवार" या "28/11"।',
  slotsIntro: '{date} को खाली समय:',
  noSlots: '{date} को कोई खाली समय नहीं है। क्या कोई और दिन चलेगा?',
  pick: 'अपनी पसंद का नंबर या समय लिखें।',
  held: 'मैं आपके लिए {when} को {minutes} मिनट तक रोक रहा हूँ।',
  askName: 'बुकिंग किसके नाम पर करूँ?',
  askPhone: 'संपर्क के लिए फ़ोन नंबर?',
  askEmail: 'और एक ईमेल पता?',
  askParty: 'कितने लोगों के लिए?',
  askComments: 'कोई टिप्पणी? नहीं तो "नहीं" लिखें।',
  commentSaved: 'नोट कर लिया, धन्यवाद। टीम इसे देखेगी।',
  commentSkipped: 'ठीक है, कोई टिप्पणी नहीं। जल्द मिलते हैं!',
  confirmed:
    '✅ {business} में बुकिंग पक्की: {when}{party}। आपका कोड {code} है। इसे देखने, बदलने या रद्द करने के लिए संभालकर रखें।',
  full: 'यह समय अभी-अभी भर गया।',
  cancelled: 'आपकी बुकिंग {code} रद्द हो गई है।',
  notFound:
    'कोड {code} वाली कोई बुकिंग नहीं मिली। अगर आपने किसी दूसरी चैट से बुक किया था, तो कोड के साथ बुकिंग का फ़ोन नंबर या ईमेल लिखें।',
  tooManyTries:
    'ऐसे कोड से बहुत ज़्यादा कोशिशें हुईं जो मुझे नहीं मिले। {minutes} मिनट बाद फिर कोशिश करें या सीधे {business} से संपर्क करें।',
  lookup: 'आपकी बुकिंग {code}: {when}{party}।',
  none: 'आपकी कोई आने वाली बुकिंग नहीं है।',
  abandoned: 'ठीक है, रहने देते हैं। जब बुक करना हो, लिखिए।',
  tooMany: 'हम अधिकतम {max} लोगों के लिए बुक कर सकते हैं।',
  askChange: 'अपनी बुकिंग {code} को किस दिन पर बदलना चाहते हैं?',
  changed: '✅ बुकिंग {code} बदल दी गई: {when}{party}।',
  badPhone: 'यह फ़ोन नंबर सही नहीं लगता। कृपया पूरा नंबर लिखें।',
  badEmail: 'यह ईमेल सही नहीं लगता। कृपया दोबारा लिखें।',
  people: ', {n} लोग',
  reminder24h: '⏰ याद दिलाना: कल {business} में आपकी बुकिंग है, {when}{party}। कोड {code}।',
  reminder2h: '⏰ याद दिलाना: 2 घंटे में {business} में आपकी बुकिंग है, {when}{party}। कोड {code}।',
};

/** The texts of each bot language. */
export const RESERVATION_TEXTS: Record<LangCode, ReservationTexts> = { es, en, fr, de, it, ru, hi };

/** BCP 47 locale of each bot language, for Intl dates. */
const LOCALES: Record<LangCode, string> = {
  es: 'es-ES',
  en: 'en-GB',
  fr: 'fr-FR',
  de: 'de-DE',
  it: 'it-IT',
  ru: 'ru-RU',
  hi: 'hi-IN',
};

/** Fills `{name}` placeholders. */
export function fillText(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (all, k: string) => (k in values ? String(values[k]) : all));
}

/** The texts of a bot's language (`idioma`, e.g. "Español"). */
export function textsFor(idioma: string): { lang: LangCode; t: ReservationTexts } {
  const lang = languageCode(idioma);
  return { lang, t: RESERVATION_TEXTS[lang] };
}

/** "sábado, 28 de noviembre, 14:00" in the bot's language and the calendar's time zone. */
export function formatWhen(lang: LangCode, startsAt: Date, timezone: string): string {
  return new Intl.DateTimeFormat(LOCALES[lang], {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: timezone,
  }).format(startsAt);
}

/** "el sábado, 28 de noviembre" style date of a local `YYYY-MM-DD` (for slot lists). */
export function formatDate(lang: LangCode, date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(LOCALES[lang], {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, d, 12)));
}

/** ", 4 personas" or '' when the party size is unknown. */
export function partyText(t: ReservationTexts, size: number | null): string {
  return size ? fillText(t.people, { n: size }) : '';
}

/** A reminder's text. */
export function reminderText(
  idioma: string,
  kind: '24h' | '2h',
  r: { reservation_code: string; starts_at: Date | string; party_size: number | null },
  businessName: string,
  timezone: string,
): string {
  const { lang, t } = textsFor(idioma);
  return fillText(kind === '24h' ? t.reminder24h : t.reminder2h, {
    business: businessName,
    when: formatWhen(lang, new Date(r.starts_at), timezone),
    party: partyText(t, r.party_size),
    code: r.reservation_code,
  });
}
