/**
 * The notifications plugin's words in Charla's seven languages (issue 27 §1, §2): the bot's
 * hand-off reply (in the bot's language) and the owner's mail (in the owner's dashboard language).
 * Spanish is the source.
 */
import type { LangCode } from '../../engine/schemas.ts';

/** The events an owner can be mailed about. */
export const EVENT_KINDS = [
  'new_conversation',
  'asks_person',
  'booking_new',
  'booking_changed',
  'days_running_out',
  'channel_down',
] as const;
/** One of {@link EVENT_KINDS}. */
export type EventKind = (typeof EVENT_KINDS)[number];

interface Texts {
  /** The bot's answer when a follower asks for a person. */
  handoff: (business: string) => string;
  /** One line per event kind in the mail (`who`: the follower or the booking's name). */
  line: Record<EventKind, (d: Record<string, unknown>) => string>;
  /** What each kind is, for the mail's subject. */
  kinds: Record<EventKind, string>;
  open: string;
  openBooking: string;
  /** The action of a mail about the account (days running out). */
  openAccount: string;
  /** The action of a mail about a channel that is down: its settings on "Tu bot". */
  openChannel: string;
  footer: string;
  cancelled: string;
  /** Before the business's opening hours in the hand-off reply ("Horario: …", issue 27 §2). */
  hoursLabel: string;
  /** The calendar entry's title word for a booking (.ics SUMMARY). */
  bookingWord: string;
}

const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const quote = (d: Record<string, unknown>) => (d.text ? ` «${s(d.text).slice(0, 300)}»` : '');
const booking = (d: Record<string, unknown>) =>
  `${s(d.date)} ${s(d.time)}${d.partySize ? ` · ${s(d.partySize)}` : ''}${d.customerName ? ` · ${s(d.customerName)}` : ''} (${s(d.code)})`;

/** Every text per language. */
export const TEXTS: Record<LangCode, Texts> = {
  es: {
    handoff: (b) =>
      `He avisado al equipo de ${b}: una persona te responderá aquí en cuanto pueda. Puedes seguir escribiendo tu consulta.`,
    line: {
      new_conversation: (d) => `Nueva conversación por ${s(d.channel)}:${quote(d)}`,
      asks_person: (d) =>
        d.frustrated
          ? `Un seguidor parece muy molesto y puede necesitar una persona:${quote(d)}`
          : `Un seguidor pide hablar con una persona:${quote(d)}`,
      booking_new: (d) => `Nueva reserva: ${booking(d)}`,
      booking_changed: (d) =>
        d.kind === 'cancelled' ? `Reserva cancelada: ${booking(d)}` : `Reserva cambiada: ${booking(d)}`,
      days_running_out: (d) =>
        Number(d.days) > 0
          ? `Te quedan ${s(d.days)} días de Charla: tus bots dejarán de responder cuando se acaben.`
          : 'Tus días de Charla se han acabado: tus bots ya no responden.',
      channel_down: (d) =>
        `Un canal no funciona: ${s(d.channel)}${d.reason ? ` (${s(d.reason)})` : ''}. Tus seguidores no reciben respuestas por él.`,
    },
    kinds: {
      new_conversation: 'nueva conversación',
      asks_person: 'un seguidor pide una persona',
      booking_new: 'nueva reserva',
      booking_changed: 'reserva cambiada o cancelada',
      days_running_out: 'tus días de Charla se acaban',
      channel_down: 'un canal no funciona',
    },
    open: 'Abrir la conversación',
    openBooking: 'Ver las reservas',
    openAccount: 'Renovar',
    openChannel: 'Revisar el canal',
    footer: 'Puedes elegir qué avisos recibes en la configuración de notificaciones.',
    cancelled: 'cancelada',
    hoursLabel: 'Horario',
    bookingWord: 'Reserva',
  },
  en: {
    handoff: (b) =>
      `I have told the ${b} team: a person will answer you here as soon as they can. Feel free to keep writing.`,
    line: {
      new_conversation: (d) => `New conversation on ${s(d.channel)}:${quote(d)}`,
      asks_person: (d) =>
        d.frustrated
          ? `A follower seems very upset and may need a person:${quote(d)}`
          : `A follower asks to talk to a person:${quote(d)}`,
      booking_new: (d) => `New booking: ${booking(d)}`,
      booking_changed: (d) =>
        d.kind === 'cancelled' ? `Booking cancelled: ${booking(d)}` : `Booking changed: ${booking(d)}`,
      days_running_out: (d) =>
        Number(d.days) > 0
          ? `You have ${s(d.days)} days of Charla left: your bots stop answering when they run out.`
          : 'Your Charla days have run out: your bots no longer answer.',
      channel_down: (d) =>
        `A channel is down: ${s(d.channel)}${d.reason ? ` (${s(d.reason)})` : ''}. Your followers get no answers there.`,
    },
    kinds: {
      new_conversation: 'new conversation',
      asks_person: 'a follower asks for a person',
      booking_new: 'new booking',
      booking_changed: 'booking changed or cancelled',
      days_running_out: 'your Charla days are running out',
      channel_down: 'a channel is down',
    },
    open: 'Open the conversation',
    openBooking: 'See the bookings',
    openAccount: 'Renew',
    openChannel: 'Check the channel',
    footer: 'You can choose which alerts you get in the notification settings.',
    cancelled: 'cancelled',
    hoursLabel: 'Opening hours',
    bookingWord: 'Booking',
  },
  fr: {
    handoff: (b) =>
      `J’ai prévenu l’équipe de ${b} : une personne vous répondra ici dès que possible. Vous pouvez continuer à écrire.`,
    line: {
      new_conversation: (d) => `Nouvelle conversation sur ${s(d.channel)} :${quote(d)}`,
      asks_person: (d) =>
        d.frustrated
          ? `Un abonné semble très mécontent et pourrait avoir besoin d’une personne :${quote(d)}`
          : `Un abonné demande à parler à une personne :${quote(d)}`,
      booking_new: (d) => `Nouvelle réservation : ${booking(d)}`,
      booking_changed: (d) =>
        d.kind === 'cancelled'
          ? `Réservation annulée : ${booking(d)}`
          : `Réservation modifiée : ${booking(d)}`,
      days_running_out: (d) =>
        Number(d.days) > 0
          ? `Il vous reste ${s(d.days)} jours de Charla : vos bots ne répondront plus ensuite.`
          : 'Vos jours Charla sont terminés : vos bots ne répondent plus.',
      channel_down: (d) =>
        `Un canal ne fonctionne plus : ${s(d.channel)}${d.reason ? ` (${s(d.reason)})` : ''}. Vos abonnés n’y reçoivent plus de réponses.`,
    },
    kinds: {
      new_conversation: 'nouvelle conversation',
      asks_person: 'un abonné demande une personne',
      booking_new: 'nouvelle réservation',
      booking_changed: 'réservation modifiée ou annulée',
      days_running_out: 'vos jours Charla se terminent',
      channel_down: 'un canal ne fonctionne plus',
    },
    open: 'Ouvrir la conversation',
    openBooking: 'Voir les réservations',
    openAccount: 'Renouveler',
    openChannel: 'Vérifier le canal',
    footer: 'Vous pouvez choisir vos alertes dans les réglages des notifications.',
    cancelled: 'annulée',
    hoursLabel: 'Horaires',
    bookingWord: 'Réservation',
  },
  de: {
    handoff: (b) =>
      `Ich habe das Team von ${b} informiert: Ein Mensch antwortet dir hier, sobald es geht. Du kannst gern weiterschreiben.`,
    line: {
      new_conversation: (d) => `Neues Gespräch über ${s(d.channel)}:${quote(d)}`,
      asks_person: (d) =>
        d.frustrated
          ? `Ein Follower wirkt sehr verärgert und braucht vielleicht einen Menschen:${quote(d)}`
          : `Ein Follower möchte mit einem Menschen sprechen:${quote(d)}`,
      booking_new: (d) => `Neue Reservierung: ${booking(d)}`,
      booking_changed: (d) =>
        d.kind === 'cancelled'
          ? `Reservierung storniert: ${booking(d)}`
          : `Reservierung geändert: ${booking(d)}`,
      days_running_out: (d) =>
        Number(d.days) > 0
          ? `Du hast noch ${s(d.days)} Charla-Tage: danach antworten deine Bots nicht mehr.`
          : 'Deine Charla-Tage sind abgelaufen: deine Bots antworten nicht mehr.',
      channel_down: (d) =>
        `Ein Kanal ist ausgefallen: ${s(d.channel)}${d.reason ? ` (${s(d.reason)})` : ''}. Deine Follower bekommen dort keine Antworten.`,
    },
    kinds: {
      new_conversation: 'neues Gespräch',
      asks_person: 'ein Follower möchte einen Menschen',
      booking_new: 'neue Reservierung',
      booking_changed: 'Reservierung geändert oder storniert',
      days_running_out: 'deine Charla-Tage laufen ab',
      channel_down: 'ein Kanal ist ausgefallen',
    },
    open: 'Gespräch öffnen',
    openBooking: 'Reservierungen ansehen',
    openAccount: 'Verlängern',
    openChannel: 'Kanal prüfen',
    footer: 'In den Benachrichtigungseinstellungen wählst du, welche Hinweise du bekommst.',
    cancelled: 'storniert',
    hoursLabel: 'Öffnungszeiten',
    bookingWord: 'Reservierung',
  },
  it: {
    handoff: (b) =>
      `Ho avvisato il team di ${b}: una persona ti risponderà qui appena possibile. Puoi continuare a scrivere.`,
    line: {
      new_conversation: (d) => `Nuova conversazione su ${s(d.channel)}:${quote(d)}`,
      asks_person: (d) =>
        d.frustrated
          ? `Un follower sembra molto arrabbiato e potrebbe aver bisogno di una persona:${quote(d)}`
          : `Un follower chiede di parlare con una persona:${quote(d)}`,
      booking_new: (d) => `Nuova prenotazione: ${booking(d)}`,
      booking_changed: (d) =>
        d.kind === 'cancelled'
          ? `Prenotazione annullata: ${booking(d)}`
          : `Prenotazione modificata: ${booking(d)}`,
      days_running_out: (d) =>
        Number(d.days) > 0
          ? `Ti restano ${s(d.days)} giorni di Charla: poi i tuoi bot smetteranno di rispondere.`
          : 'I tuoi giorni di Charla sono finiti: i tuoi bot non rispondono più.',
      channel_down: (d) =>
        `Un canale non funziona: ${s(d.channel)}${d.reason ? ` (${s(d.reason)})` : ''}. I tuoi follower non ricevono risposte lì.`,
    },
    kinds: {
      new_conversation: 'nuova conversazione',
      asks_person: 'un follower chiede una persona',
      booking_new: 'nuova prenotazione',
      booking_changed: 'prenotazione modificata o annullata',
      days_running_out: 'i tuoi giorni di Charla stanno finendo',
      channel_down: 'un canale non funziona',
    },
    open: 'Apri la conversazione',
    openBooking: 'Vedi le prenotazioni',
    openAccount: 'Rinnova',
    openChannel: 'Controlla il canale',
    footer: 'Puoi scegliere quali avvisi ricevere nelle impostazioni delle notifiche.',
    cancelled: 'annullata',
    hoursLabel: 'Orari',
    bookingWord: 'Prenotazione',
  },
  ru: {
    handoff: (b) =>
      `Я сообщил команде ${b}: человек ответит вам здесь, как только сможет. Можете продолжать писать.`,
    line: {
      new_conversation: (d) => `Новый разговор (${s(d.channel)}):${quote(d)}`,
      asks_person: (d) =>
        d.frustrated
          ? `Подписчик, похоже, очень недоволен, и ему может понадобиться человек:${quote(d)}`
          : `Подписчик просит поговорить с человеком:${quote(d)}`,
      booking_new: (d) => `Новое бронирование: ${booking(d)}`,
      booking_changed: (d) =>
        d.kind === 'cancelled'
          ? `Бронирование отменено: ${booking(d)}`
          : `Бронирование изменено: ${booking(d)}`,
      days_running_out: (d) =>
        Number(d.days) > 0
          ? `У вас осталось дней Charla: ${s(d.days)}. Потом ваши боты перестанут отвечать.`
          : 'Дни Charla закончились: ваши боты больше не отвечают.',
      channel_down: (d) =>
        `Канал не работает: ${s(d.channel)}${d.reason ? ` (${s(d.reason)})` : ''}. Подписчики не получают там ответов.`,
    },
    kinds: {
      new_conversation: 'новый разговор',
      asks_person: 'подписчик просит человека',
      booking_new: 'новое бронирование',
      booking_changed: 'бронирование изменено или отменено',
      days_running_out: 'дни Charla заканчиваются',
      channel_down: 'канал не работает',
    },
    open: 'Открыть разговор',
    openBooking: 'Открыть бронирования',
    openAccount: 'Продлить',
    openChannel: 'Проверить канал',
    footer: 'Какие уведомления получать, можно выбрать в настройках уведомлений.',
    cancelled: 'отменено',
    hoursLabel: 'Часы работы',
    bookingWord: 'Бронирование',
  },
  hi: {
    handoff: (b) =>
      `मैंने ${b} की टीम को बता दिया है: कोई व्यक्ति जल्द ही आपको यहीं जवाब देगा। आप लिखना जारी रख सकते हैं।`,
    line: {
      new_conversation: (d) => `${s(d.channel)} पर नई बातचीत:${quote(d)}`,
      asks_person: (d) =>
        d.frustrated
          ? `एक फ़ॉलोअर बहुत नाराज़ लगता है और उसे किसी इंसान की ज़रूरत हो सकती है:${quote(d)}`
          : `एक फ़ॉलोअर किसी इंसान से बात करना चाहता है:${quote(d)}`,
      booking_new: (d) => `नई बुकिंग: ${booking(d)}`,
      booking_changed: (d) =>
        d.kind === 'cancelled' ? `बुकिंग रद्द: ${booking(d)}` : `बुकिंग बदली गई: ${booking(d)}`,
      days_running_out: (d) =>
        Number(d.days) > 0
          ? `आपके Charla के ${s(d.days)} दिन बचे हैं: उसके बाद आपके बॉट जवाब देना बंद कर देंगे।`
          : 'आपके Charla दिन खत्म हो गए: आपके बॉट अब जवाब नहीं देते।',
      channel_down: (d) =>
        `एक चैनल बंद है: ${s(d.channel)}${d.reason ? ` (${s(d.reason)})` : ''}। वहाँ आपके फ़ॉलोअर्स को जवाब नहीं मिल रहे।`,
    },
    kinds: {
      new_conversation: 'नई बातचीत',
      asks_person: 'एक फ़ॉलोअर इंसान से बात करना चाहता है',
      booking_new: 'नई बुकिंग',
      booking_changed: 'बुकिंग बदली या रद्द हुई',
      days_running_out: 'आपके Charla दिन खत्म हो रहे हैं',
      channel_down: 'एक चैनल बंद है',
    },
    open: 'बातचीत खोलें',
    openBooking: 'बुकिंग देखें',
    openAccount: 'नवीनीकरण करें',
    openChannel: 'चैनल जाँचें',
    footer: 'कौन-सी सूचनाएँ मिलें, यह आप सूचना सेटिंग में चुन सकते हैं।',
    cancelled: 'रद्द',
    hoursLabel: 'समय',
    bookingWord: 'बुकिंग',
  },
};
