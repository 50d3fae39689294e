/**
 * What the reservations plugin says to a web or IALanding visitor about e-mail (issue 28 §2): the
 * booking dialogue's optional question with its consent line, and the mails (confirmation with an
 * .ics, reminders 24 h / 2 h, the owner's late reply) and pages (link back, unsubscribe), in each
 * bot language. Spanish is the source. `{name}` placeholders are filled with texts.ts `fillText`.
 */
import type { LangCode } from '../../engine/schemas.ts';

/** The e-mail sentences of one language. */
export interface VisitorMailTexts {
  /** The dialogue's question after a web booking is confirmed (optional; consent line included). */
  askMail: string;
  /** The consent line added to the required e-mail question on the web. */
  consent: string;
  /** The visitor gave an address: `{email}`. */
  mailSaved: string;
  /** The visitor skipped. */
  mailSkipped: string;
  /** The address does not look like one. */
  mailInvalid: string;
  confirmSubject: string;
  confirmBody: string;
  reminderSubject: string;
  replySubject: string;
  replyBody: string;
  /** The link back to the conversation. */
  backLink: string;
  /** The unsubscribe line before its link. */
  unsubscribeLine: string;
  /** The unsubscribe page's question (GET), answered with its button (a POST: a link scanner that
   * opens the link unsubscribes no one). */
  unsubscribeAsk: string;
  unsubscribeButton: string;
  unsubscribedTitle: string;
  unsubscribedBody: string;
  badLinkTitle: string;
  badLinkBody: string;
  /** The link-back page while it restores the chat. */
  opening: string;
}

const es: VisitorMailTexts = {
  askMail:
    '¿Quieres recibir la confirmación y los recordatorios por correo? Escribe tu e-mail o responde «no». Solo lo usaremos para esta reserva.',
  consent: 'Solo lo usaremos para esta reserva.',
  mailSaved: '📧 Perfecto: te enviaremos la confirmación y los recordatorios a {email}.',
  mailSkipped: 'De acuerdo, sin correo. Tu código de reserva basta para consultarla.',
  mailInvalid: 'Ese correo no parece correcto. Escríbelo de nuevo o responde «no».',
  confirmSubject: 'Reserva confirmada en {business}',
  confirmBody: 'Tu reserva en {business} está confirmada: {when}{party}. Código {code}.',
  reminderSubject: 'Recordatorio de tu reserva en {business}',
  replySubject: '{business} te ha respondido',
  replyBody: '{business} ha contestado a tu mensaje:',
  backLink: 'Volver a la conversación',
  unsubscribeLine: '¿No quieres más correos sobre esta reserva? Date de baja:',
  unsubscribeAsk: '¿Dejar de recibir correos sobre esta reserva?',
  unsubscribeButton: 'Darme de baja',
  unsubscribedTitle: 'Baja confirmada',
  unsubscribedBody: 'No te enviaremos más correos sobre la reserva {code} de {business}.',
  badLinkTitle: 'Enlace no válido',
  badLinkBody: 'Este enlace no es válido o ha caducado.',
  opening: 'Abriendo tu conversación…',
};

const en: VisitorMailTexts = {
  askMail:
    'Would you like the confirmation and reminders by e-mail? Write your e-mail address or reply “no”. We’ll only use it for this booking.',
  consent: 'We’ll only use it for this booking.',
  mailSaved: '📧 Great: we’ll send the confirmation and reminders to {email}.',
  mailSkipped: 'All right, no e-mail. Your booking code is enough to check it.',
  mailInvalid: 'That e-mail doesn’t look right. Write it again or reply “no”.',
  confirmSubject: 'Booking confirmed at {business}',
  confirmBody: 'Your booking at {business} is confirmed: {when}{party}. Code {code}.',
  reminderSubject: 'Reminder of your booking at {business}',
  replySubject: '{business} has replied to you',
  replyBody: '{business} has answered your message:',
  backLink: 'Back to the conversation',
  unsubscribeLine: 'No more e-mails about this booking? Unsubscribe:',
  unsubscribeAsk: 'Stop receiving e-mails about this booking?',
  unsubscribeButton: 'Unsubscribe',
  unsubscribedTitle: 'Unsubscribed',
  unsubscribedBody: 'We won’t send you any more e-mails about booking {code} at {business}.',
  badLinkTitle: 'Invalid link',
  badLinkBody: 'This link is not valid or has expired.',
  opening: 'Opening your conversation…',
};

const fr: VisitorMailTexts = {
  askMail:
    'Voulez-vous recevoir la confirmation et les rappels par e-mail ? Écrivez votre adresse ou répondez « non ». Nous ne l’utiliserons que pour cette réservation.',
  consent: 'Nous ne l’utiliserons que pour cette réservation.',
  mailSaved: '📧 Parfait : nous enverrons la confirmation et les rappels à {email}.',
  mailSkipped: 'D’accord, sans e-mail. Votre code de réservation suffit pour la consulter.',
  mailInvalid: 'Cette adresse ne semble pas correcte. Réécrivez-la ou répondez « non ».',
  confirmSubject: 'Réservation confirmée chez {business}',
  confirmBody: 'Votre réservation chez {business} est confirmée : {when}{party}. Code {code}.',
  reminderSubject: 'Rappel de votre réservation chez {business}',
  replySubject: '{business} vous a répondu',
  replyBody: '{business} a répondu à votre message :',
  backLink: 'Revenir à la conversation',
  unsubscribeLine: 'Plus d’e-mails sur cette réservation ? Se désabonner :',
  unsubscribeAsk: 'Ne plus recevoir d’e-mails sur cette réservation ?',
  unsubscribeButton: 'Me désabonner',
  unsubscribedTitle: 'Désabonnement confirmé',
  unsubscribedBody: 'Nous ne vous enverrons plus d’e-mails sur la réservation {code} chez {business}.',
  badLinkTitle: 'Lien non valide',
  badLinkBody: 'Ce lien n’est pas valide ou a expiré.',
  opening: 'Ouverture de votre conversation…',
};

const de: VisitorMailTexts = {
  askMail:
    'Möchten Sie die Bestätigung und die Erinnerungen per E-Mail erhalten? Schreiben Sie Ihre E-Mail-Adresse oder antworten Sie „nein“. Wir verwenden sie nur für diese Reservierung.',
  consent: 'Wir verwenden sie nur für diese Reservierung.',
  mailSaved: '📧 Prima: Wir senden die Bestätigung und die Erinnerungen an {email}.',
  mailSkipped: 'In Ordnung, ohne E-Mail. Ihr Reservierungscode genügt, um sie abzufragen.',
  mailInvalid:
    'Diese E-Mail-Adresse scheint nicht zu stimmen. Schreiben Sie sie erneut oder antworten Sie „nein“.',
  confirmSubject: 'Reservierung bei {business} bestätigt',
  confirmBody: 'Ihre Reservierung bei {business} ist bestätigt: {when}{party}. Code {code}.',
  reminderSubject: 'Erinnerung an Ihre Reservierung bei {business}',
  replySubject: '{business} hat Ihnen geantwortet',
  replyBody: '{business} hat auf Ihre Nachricht geantwortet:',
  backLink: 'Zurück zum Gespräch',
  unsubscribeLine: 'Keine E-Mails mehr zu dieser Reservierung? Abmelden:',
  unsubscribeAsk: 'Keine E-Mails mehr zu dieser Reservierung erhalten?',
  unsubscribeButton: 'Abmelden',
  unsubscribedTitle: 'Abmeldung bestätigt',
  unsubscribedBody: 'Wir senden Ihnen keine E-Mails mehr zur Reservierung {code} bei {business}.',
  badLinkTitle: 'Ungültiger Link',
  badLinkBody: 'Dieser Link ist ungültig oder abgelaufen.',
  opening: 'Ihr Gespräch wird geöffnet…',
};

const it: VisitorMailTexts = {
  askMail:
    'Vuoi ricevere la conferma e i promemoria per e-mail? Scrivi il tuo indirizzo o rispondi «no». Lo useremo solo per questa prenotazione.',
  consent: 'Lo useremo solo per questa prenotazione.',
  mailSaved: '📧 Perfetto: invieremo la conferma e i promemoria a {email}.',
  mailSkipped: 'Va bene, niente e-mail. Il codice della prenotazione basta per consultarla.',
  mailInvalid: 'Quell’indirizzo non sembra corretto. Riscrivilo o rispondi «no».',
  confirmSubject: 'Prenotazione confermata da {business}',
  confirmBody: 'La tua prenotazione da {business} è confermata: {when}{party}. Codice {code}.',
  reminderSubject: 'Promemoria della tua prenotazione da {business}',
  replySubject: '{business} ti ha risposto',
  replyBody: '{business} ha risposto al tuo messaggio:',
  backLink: 'Torna alla conversazione',
  unsubscribeLine: 'Non vuoi altre e-mail su questa prenotazione? Annulla l’iscrizione:',
  unsubscribeAsk: 'Non ricevere più e-mail su questa prenotazione?',
  unsubscribeButton: 'Annulla l’iscrizione',
  unsubscribedTitle: 'Iscrizione annullata',
  unsubscribedBody: 'Non ti invieremo altre e-mail sulla prenotazione {code} da {business}.',
  badLinkTitle: 'Link non valido',
  badLinkBody: 'Questo link non è valido o è scaduto.',
  opening: 'Apertura della conversazione…',
};

const ru: VisitorMailTexts = {
  askMail:
    'Прислать подтверждение и напоминания на почту? Напишите свой e-mail или ответьте «нет». Мы используем его только для этой брони.',
  consent: 'Мы используем его только для этой брони.',
  mailSaved: '📧 Отлично: подтверждение и напоминания придут на {email}.',
  mailSkipped: 'Хорошо, без почты. Кода брони достаточно, чтобы её проверить.',
  mailInvalid: 'Адрес выглядит неверным. Напишите его ещё раз или ответьте «нет».',
  confirmSubject: 'Бронь в {business} подтверждена',
  confirmBody: 'Ваша бронь в {business} подтверждена: {when}{party}. Код {code}.',
  reminderSubject: 'Напоминание о брони в {business}',
  replySubject: '{business} ответил вам',
  replyBody: '{business} ответил на ваше сообщение:',
  backLink: 'Вернуться к разговору',
  unsubscribeLine: 'Не хотите больше писем об этой брони? Отписаться:',
  unsubscribeAsk: 'Больше не получать письма об этой брони?',
  unsubscribeButton: 'Отписаться',
  unsubscribedTitle: 'Вы отписались',
  unsubscribedBody: 'Мы больше не будем присылать письма о брони {code} в {business}.',
  badLinkTitle: 'Недействительная ссылка',
  badLinkBody: 'Эта ссылка недействительна или устарела.',
  opening: 'Открываем ваш разговор…',
};

const hi: VisitorMailTexts = {
  askMail:
    'क्या आप पुष्टि और रिमाइंडर ईमेल पर पाना चाहेंगे? अपना ईमेल लिखें या "नहीं" लिखें। हम इसे केवल इसी बुकिंग के लिए इस्तेमाल करेंगे।',
  consent: 'हम इसे केवल इसी बुकिंग के लिए इस्तेमाल करेंगे।',
  mailSaved: '📧 बढ़िया: हम पुष्टि और रिमाइंडर {email} पर भेजेंगे।',
  mailSkipped: 'ठीक है, बिना ईमेल के। बुकिंग देखने के लिए आपका कोड काफ़ी है।',
  mailInvalid: 'यह ईमेल सही नहीं लगता। दोबारा लिखें या "नहीं" लिखें।',
  confirmSubject: '{business} में बुकिंग पक्की',
  confirmBody: '{business} में आपकी बुकिंग पक्की है: {when}{party}। कोड {code}।',
  reminderSubject: '{business} में आपकी बुकिंग का रिमाइंडर',
  replySubject: '{business} ने आपको जवाब दिया है',
  replyBody: '{business} ने आपके संदेश का जवाब दिया:',
  backLink: 'बातचीत पर लौटें',
  unsubscribeLine: 'इस बुकिंग के बारे में और ईमेल नहीं चाहिए? सदस्यता छोड़ें:',
  unsubscribeAsk: 'इस बुकिंग के बारे में ईमेल पाना बंद करें?',
  unsubscribeButton: 'सदस्यता छोड़ें',
  unsubscribedTitle: 'सदस्यता छोड़ दी गई',
  unsubscribedBody: 'हम {business} में बुकिंग {code} के बारे में आपको और ईमेल नहीं भेजेंगे।',
  badLinkTitle: 'अमान्य लिंक',
  badLinkBody: 'यह लिंक मान्य नहीं है या इसकी अवधि समाप्त हो गई है।',
  opening: 'आपकी बातचीत खुल रही है…',
};

/** The e-mail texts of each bot language. */
export const VISITOR_MAIL_TEXTS: Record<LangCode, VisitorMailTexts> = { es, en, fr, de, it, ru, hi };

/** The channels whose visitors are asked for an e-mail (the widget's and the IALanding's). */
export const MAIL_CHANNELS: ReadonlySet<string> = new Set(['web', 'ialanding']);
