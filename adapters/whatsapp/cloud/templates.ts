/**
 * Charla's own WhatsApp message templates (issue 28 §1): five UTILITY templates in the seven
 * languages, submitted to Meta with `POST /{waba_id}/message_templates` (name, language, category,
 * components: one BODY with numbered parameters `{{1}}`, `{{2}}`, … and an example of each, as Meta
 * requires) and sent outside the 24-hour window as
 * `{ type: "template", template: { name, language: { code }, components: [{ type: "body",
 * parameters: [{ type: "text", text }] }] } }` (WhatsApp Cloud API, message templates).
 *
 * Meta refuses a body that starts or ends with a parameter, and a parameter with a line break, a
 * tab or more than four spaces in a row: every body starts and ends with words, and
 * {@link templateParams} flattens what the engine gives.
 */
import type { OutboundTemplate } from '../../../engine/registry/index.ts';
import { LANG_CODES, type LangCode } from '../../../engine/schemas.ts';

/** Charla's template ids (engine `OutboundTemplate.id`). */
export type TemplateId = OutboundTemplate['id'];
export const TEMPLATE_IDS: readonly TemplateId[] = [
  'booking_confirmation',
  'reminder_24h',
  'reminder_2h',
  'booking_changed',
  'team_answered',
  'broadcast',
];

/** Meta's template name of each id (lowercase letters, digits and underscores, as Meta requires). */
export const TEMPLATE_NAMES: Record<TemplateId, string> = {
  booking_confirmation: 'charla_booking_confirmation',
  reminder_24h: 'charla_booking_reminder_24h',
  reminder_2h: 'charla_booking_reminder_2h',
  booking_changed: 'charla_booking_changed',
  team_answered: 'charla_team_answered',
  broadcast: 'charla_broadcast',
};

/**
 * Meta's category of each template: the utility ones are UTILITY; `broadcast` (an owner's news to
 * their followers, issue 28 §1) is MARKETING, which Meta bills per message and lets followers stop.
 */
export function templateCategory(id: TemplateId): 'UTILITY' | 'MARKETING' {
  return id === 'broadcast' ? 'MARKETING' : 'UTILITY';
}

/** Most characters of one body parameter: 200, the broadcast's text 900 (Meta: body ≤ 1024). */
export function paramMaxLength(id: TemplateId): number {
  return id === 'broadcast' ? 900 : 200;
}

/** The id of a Meta template name, or undefined for a template that is not Charla's. */
export function templateIdOf(name: string): TemplateId | undefined {
  return TEMPLATE_IDS.find((id) => TEMPLATE_NAMES[id] === name);
}

/**
 * The bodies. Parameters: reminders and confirmation `{{1}}` business, `{{2}}` when, `{{3}}` code;
 * booking changed `{{1}}` business, `{{2}}` code, `{{3}}` what changed; team answered `{{1}}` business.
 */
export const TEMPLATE_BODIES: Record<LangCode, Record<TemplateId, string>> = {
  es: {
    booking_confirmation:
      'Hola, tu reserva en {{1}} está confirmada para el {{2}}. Código de reserva: {{3}}. Responde a este mensaje si necesitas algo.',
    reminder_24h:
      'Hola, te recordamos tu reserva en {{1}} mañana, {{2}}. Código: {{3}}. Si no puedes venir, responde a este mensaje.',
    reminder_2h: 'Hola, tu reserva en {{1}} es dentro de 2 horas, {{2}}. Código: {{3}}. ¡Te esperamos!',
    booking_changed:
      'Hola, hay un cambio en tu reserva en {{1}} (código {{2}}): {{3}}. Responde a este mensaje si tienes alguna duda.',
    team_answered:
      'Hola, el equipo de {{1}} ha respondido a tu mensaje. Responde a este mensaje para leer la respuesta.',
    broadcast: 'Novedades: {{1}} Responde BAJA para no recibir más mensajes.',
  },
  en: {
    booking_confirmation:
      'Hello, your booking at {{1}} is confirmed for {{2}}. Booking code: {{3}}. Reply to this message if you need anything.',
    reminder_24h:
      'Hello, a reminder of your booking at {{1}} tomorrow, {{2}}. Code: {{3}}. If you cannot come, reply to this message.',
    reminder_2h: 'Hello, your booking at {{1}} is in 2 hours, {{2}}. Code: {{3}}. See you soon!',
    booking_changed:
      'Hello, there is a change to your booking at {{1}} (code {{2}}): {{3}}. Reply to this message if you have any questions.',
    team_answered:
      'Hello, the team at {{1}} has answered your message. Reply to this message to read the answer.',
    broadcast: 'News: {{1}} Reply STOP to stop receiving these messages.',
  },
  fr: {
    booking_confirmation:
      'Bonjour, votre réservation chez {{1}} est confirmée pour le {{2}}. Code de réservation : {{3}}. Répondez à ce message si besoin.',
    reminder_24h:
      'Bonjour, nous vous rappelons votre réservation chez {{1}} demain, {{2}}. Code : {{3}}. Si vous ne pouvez pas venir, répondez à ce message.',
    reminder_2h:
      'Bonjour, votre réservation chez {{1}} est dans 2 heures, {{2}}. Code : {{3}}. À tout à l’heure !',
    booking_changed:
      'Bonjour, votre réservation chez {{1}} (code {{2}}) a changé : {{3}}. Répondez à ce message pour toute question.',
    team_answered:
      'Bonjour, l’équipe de {{1}} a répondu à votre message. Répondez à ce message pour lire la réponse.',
    broadcast: 'Nouveautés : {{1}} Répondez STOP pour ne plus recevoir ces messages.',
  },
  de: {
    booking_confirmation:
      'Hallo, deine Reservierung bei {{1}} ist für {{2}} bestätigt. Reservierungscode: {{3}}. Antworte auf diese Nachricht, wenn du etwas brauchst.',
    reminder_24h:
      'Hallo, wir erinnern dich an deine Reservierung bei {{1}} morgen, {{2}}. Code: {{3}}. Wenn du nicht kommen kannst, antworte auf diese Nachricht.',
    reminder_2h: 'Hallo, deine Reservierung bei {{1}} ist in 2 Stunden, {{2}}. Code: {{3}}. Bis gleich!',
    booking_changed:
      'Hallo, deine Reservierung bei {{1}} (Code {{2}}) hat sich geändert: {{3}}. Antworte auf diese Nachricht, wenn du Fragen hast.',
    team_answered:
      'Hallo, das Team von {{1}} hat auf deine Nachricht geantwortet. Antworte auf diese Nachricht, um die Antwort zu lesen.',
    broadcast: 'Neuigkeiten: {{1}} Antworte STOPP, um keine solchen Nachrichten mehr zu erhalten.',
  },
  it: {
    booking_confirmation:
      'Ciao, la tua prenotazione presso {{1}} è confermata per {{2}}. Codice di prenotazione: {{3}}. Rispondi a questo messaggio se ti serve qualcosa.',
    reminder_24h:
      'Ciao, ti ricordiamo la tua prenotazione presso {{1}} domani, {{2}}. Codice: {{3}}. Se non puoi venire, rispondi a questo messaggio.',
    reminder_2h: 'Ciao, la tua prenotazione presso {{1}} è tra 2 ore, {{2}}. Codice: {{3}}. A presto!',
    booking_changed:
      'Ciao, la tua prenotazione presso {{1}} (codice {{2}}) è cambiata: {{3}}. Rispondi a questo messaggio per qualsiasi domanda.',
    team_answered:
      'Ciao, il team di {{1}} ha risposto al tuo messaggio. Rispondi a questo messaggio per leggere la risposta.',
    broadcast: 'Novità: {{1}} Rispondi BASTA per non ricevere più questi messaggi.',
  },
  ru: {
    booking_confirmation:
      'Здравствуйте! Ваша бронь в {{1}} подтверждена на {{2}}. Код брони: {{3}}. Ответьте на это сообщение, если что-то нужно.',
    reminder_24h:
      'Здравствуйте! Напоминаем о вашей брони в {{1}} завтра, {{2}}. Код: {{3}}. Если не сможете прийти, ответьте на это сообщение.',
    reminder_2h: 'Здравствуйте! Ваша бронь в {{1}} через 2 часа, {{2}}. Код: {{3}}. Ждём вас!',
    booking_changed:
      'Здравствуйте! Ваша бронь в {{1}} (код {{2}}) изменилась: {{3}}. Ответьте на это сообщение, если есть вопросы.',
    team_answered:
      'Здравствуйте! Команда {{1}} ответила на ваше сообщение. Ответьте на это сообщение, чтобы прочитать ответ.',
    broadcast: 'Новости: {{1}} Ответьте СТОП, чтобы больше не получать такие сообщения.',
  },
  hi: {
    booking_confirmation:
      'नमस्ते, {{1}} में आपकी बुकिंग {{2}} के लिए पक्की है। बुकिंग कोड: {{3}}। कुछ चाहिए तो इस संदेश का जवाब दें।',
    reminder_24h:
      'नमस्ते, याद दिला दें कि {{1}} में आपकी बुकिंग कल, {{2}} है। कोड: {{3}}। अगर आप नहीं आ सकते, तो इस संदेश का जवाब दें।',
    reminder_2h: 'नमस्ते, {{1}} में आपकी बुकिंग 2 घंटे में है, {{2}}। कोड: {{3}}। हम आपका इंतज़ार करेंगे!',
    booking_changed:
      'नमस्ते, {{1}} में आपकी बुकिंग (कोड {{2}}) में बदलाव हुआ है: {{3}}। कोई सवाल हो तो इस संदेश का जवाब दें।',
    team_answered: 'नमस्ते, {{1}} की टीम ने आपके संदेश का जवाब दिया है। जवाब पढ़ने के लिए इस संदेश का जवाब दें।',
    broadcast: 'नई जानकारी: {{1}} ये संदेश बंद करने के लिए STOP लिखें।',
  },
};

/** Example values Meta's review needs for each body's parameters, per language. */
const EXAMPLES: Record<LangCode, { when: string; change: string }> = {
  es: { when: 'viernes 12 de diciembre, 21:00', change: 'la reserva se ha cancelado' },
  en: { when: 'Friday 12 December, 9:00 pm', change: 'the booking has been cancelled' },
  fr: { when: 'vendredi 12 décembre, 21:00', change: 'la réservation a été annulée' },
  de: { when: 'Freitag, 12. Dezember, 21:00', change: 'die Reservierung wurde storniert' },
  it: { when: 'venerdì 12 dicembre, 21:00', change: 'la prenotazione è stata annullata' },
  ru: { when: 'пятница, 12 декабря, 21:00', change: 'бронь отменена' },
  hi: { when: 'शुक्रवार, 12 दिसंबर, रात 9:00', change: 'बुकिंग रद्द कर दी गई है' },
};

/** An example of an owner's broadcast text, per language (Meta's review of `broadcast`). */
const BROADCAST_EXAMPLES: Record<LangCode, string> = {
  es: 'Este sábado abrimos la terraza con música en directo.',
  en: 'This Saturday we open the terrace with live music.',
  fr: 'Ce samedi, nous ouvrons la terrasse avec de la musique live.',
  de: 'Diesen Samstag öffnen wir die Terrasse mit Livemusik.',
  it: 'Questo sabato apriamo la terrazza con musica dal vivo.',
  ru: 'В эту субботу мы открываем террасу с живой музыкой.',
  hi: 'इस शनिवार हम लाइव संगीत के साथ छत खोल रहे हैं।',
};

/** The example parameters of one template in one language (`example.body_text[0]`). */
function exampleParams(id: TemplateId, lang: LangCode): string[] {
  const e = EXAMPLES[lang];
  if (id === 'team_answered') return ['Café Central'];
  if (id === 'broadcast') return [BROADCAST_EXAMPLES[lang]];
  if (id === 'booking_changed') return ['Café Central', 'K7P2QX', e.change];
  return ['Café Central', e.when, 'K7P2QX'];
}

/** The body of `POST /{waba_id}/message_templates` for one template in one language. */
export function templateCreateBody(id: TemplateId, lang: LangCode) {
  return {
    name: TEMPLATE_NAMES[id],
    language: lang,
    category: templateCategory(id),
    components: [
      { type: 'BODY', text: TEMPLATE_BODIES[lang][id], example: { body_text: [exampleParams(id, lang)] } },
    ],
  };
}

/** Every (template, language) pair Charla ships: 6 × 7 (five UTILITY, one MARKETING). */
export function catalogue(): Array<{ id: TemplateId; name: string; language: LangCode }> {
  return TEMPLATE_IDS.flatMap((id) =>
    LANG_CODES.map((language) => ({ id, name: TEMPLATE_NAMES[id], language })),
  );
}

/** How many parameters a body has (`{{1}}` … `{{n}}`). */
export function paramCount(id: TemplateId): number {
  return (TEMPLATE_BODIES.es[id].match(/\{\{\d+\}\}/g) ?? []).length;
}

/** A moment written in a language and time zone (a `{ when, timeZone }` param). */
export function formatWhen(lang: LangCode, when: string, timeZone: string): string {
  const date = new Date(when);
  if (Number.isNaN(date.getTime())) return when;
  try {
    return new Intl.DateTimeFormat(lang, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      hour: '2-digit',
      minute: '2-digit',
      timeZone,
    }).format(date);
  } catch {
    return date.toISOString().slice(0, 16).replace('T', ' ');
  }
}

/**
 * The body parameters of a template intent in a language: moments written out, each text on one
 * line without runs of spaces (Meta refuses those), at most 200 characters, never empty; missing
 * ones are `-` so the count always matches the body's.
 */
export function templateParams(intent: OutboundTemplate, lang: LangCode): string[] {
  const out: string[] = [];
  for (let i = 0; i < paramCount(intent.id); i++) {
    const p = intent.params[i];
    const raw = p === undefined ? '' : typeof p === 'string' ? p : formatWhen(lang, p.when, p.timeZone);
    const flat = raw.replace(/\s+/g, ' ').trim().slice(0, paramMaxLength(intent.id));
    out.push(flat || '-');
  }
  return out;
}

/** The `template` object of a send (`type: "template"`). */
export function templateMessage(id: TemplateId, lang: LangCode, params: string[]) {
  return {
    name: TEMPLATE_NAMES[id],
    language: { code: lang },
    components: [{ type: 'body', parameters: params.map((text) => ({ type: 'text', text })) }],
  };
}

/** What the follower will read: the body with its parameters filled (stored for the owner). */
export function renderTemplate(id: TemplateId, lang: LangCode, params: string[]): string {
  return TEMPLATE_BODIES[lang][id].replace(/\{\{(\d+)\}\}/g, (_m, n: string) => params[Number(n) - 1] ?? '');
}
