/**
 * Taking over from the owner's phone (issue 14 §2): the owner links their own Telegram account to
 * their bot once, with a deep link that carries a one-time code (`t.me/<bot>?start=own-…`, valid
 * {@link LINK_CODE_TTL_MS}; only its SHA-256 is stored). From then on each follower message is
 * forwarded to that chat, and the owner's reply (Telegram's reply to a forwarded message) goes to
 * that follower as the owner's and pauses the bot for them, as a reply from the dashboard does;
 * a voice note goes too (issue 27 §3: read through the channel's file API, `turn.media`).
 * The owner's own chat is not a follower: it is left out of the followers list.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { InboundMessage } from '../../engine/registry/index.ts';
import { type LangCode, languageCode } from '../../engine/schemas.ts';
import type { ConversationsDb } from './queries.ts';

/** How long a link code is valid, ms (15 min). */
export const LINK_CODE_TTL_MS = 15 * 60_000;
/** How long a forwarded message can still be answered, days. */
export const FORWARD_RETENTION_DAYS = 30;
/** A deep link's code: Telegram's start parameter allows A-Z, a-z, 0-9, _ and -, up to 64. */
export const LINK_CODE = /^\/start(?:@\w+)?\s+(own-[A-Za-z0-9_-]{16,60})$/;

const sha256 = (code: string) => createHash('sha256').update(code).digest('hex');

/** A new one-time code for a bot (replacing any pending one); the link keeps working until used. */
export async function createLinkCode(
  db: ConversationsDb,
  chatbotId: string,
  now: Date,
): Promise<{ code: string; expiresAt: Date }> {
  const code = `own-${randomBytes(18).toString('base64url')}`;
  const expiresAt = new Date(now.getTime() + LINK_CODE_TTL_MS);
  await db
    .insertInto('conversation_owner_phones')
    .values({ chatbot_id: chatbotId, code_hash: sha256(code), code_expires_at: expiresAt })
    .onConflict((oc) =>
      oc.column('chatbot_id').doUpdateSet({ code_hash: sha256(code), code_expires_at: expiresAt }),
    )
    .execute();
  return { code, expiresAt };
}

/** Links the chat that sent a valid, unexpired code; false for a wrong or used code. */
export async function claimLinkCode(
  db: ConversationsDb,
  chatbotId: string,
  code: string,
  chat: { channel: string; chatId: string },
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('conversation_owner_phones')
    .set({
      channel: chat.channel,
      chat_id: chat.chatId,
      linked_at: now,
      code_hash: null,
      code_expires_at: null,
    })
    .where('chatbot_id', '=', chatbotId)
    .where('code_hash', '=', sha256(code))
    .where('code_expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The owner's linked chat of a bot, if any. */
export async function findOwnerPhone(db: ConversationsDb, chatbotId: string) {
  const row = await db
    .selectFrom('conversation_owner_phones')
    .select(['channel', 'chat_id', 'linked_at', 'code_expires_at'])
    .where('chatbot_id', '=', chatbotId)
    .executeTakeFirst();
  return row;
}

/**
 * Forgets the owner's linked chat (and any pending code).
 * @returns the chat that was linked, or undefined when none was.
 */
export async function unlinkOwnerPhone(
  db: ConversationsDb,
  chatbotId: string,
): Promise<{ channel: string; chatId: string } | undefined> {
  const row = await db
    .deleteFrom('conversation_owner_phones')
    .where('chatbot_id', '=', chatbotId)
    .returning(['channel', 'chat_id'])
    .executeTakeFirst();
  return row?.channel && row.chat_id ? { channel: row.channel, chatId: row.chat_id } : undefined;
}

/** Remembers which follower the forwarded messages `messageIds` came from. */
export async function recordForwards(
  db: ConversationsDb,
  chatbotId: string,
  messageIds: string[],
  from: { channel: string; userId: string },
): Promise<void> {
  if (messageIds.length === 0) return;
  await db
    .insertInto('conversation_forwards')
    .values(
      messageIds.map((id) => ({
        chatbot_id: chatbotId,
        message_id: id,
        channel: from.channel,
        user_id: from.userId,
      })),
    )
    .onConflict((oc) => oc.columns(['chatbot_id', 'message_id']).doNothing())
    .execute();
}

/** The follower a forwarded message came from. */
export async function findForward(db: ConversationsDb, chatbotId: string, messageId: string) {
  return db
    .selectFrom('conversation_forwards')
    .select(['channel', 'user_id'])
    .where('chatbot_id', '=', chatbotId)
    .where('message_id', '=', messageId)
    .executeTakeFirst();
}

/** Deletes forwards older than {@link FORWARD_RETENTION_DAYS} (a daily job). */
export async function pruneForwards(db: ConversationsDb, now: Date): Promise<number> {
  const r = await db
    .deleteFrom('conversation_forwards')
    .where('created_at', '<', new Date(now.getTime() - FORWARD_RETENTION_DAYS * 86_400_000))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** What the owner's phone is told, in the bot's language. */
export interface PhoneTexts {
  linked: (business: string) => string;
  badCode: string;
  help: string;
  /** A reply with a photo, a file or a sticker: only text and voice notes go (issue 27 §3). */
  textOnly: string;
  failed: (why: string) => string;
  forwarded: (name: string, channel: string, text: string) => string;
  media: string;
}

const TEXTS: Record<LangCode, PhoneTexts> = {
  es: {
    linked: (b) =>
      `✅ Listo: recibirás aquí los mensajes de los seguidores de ${b}. Para contestar a uno, responde a su mensaje (desliza a la izquierda); el bot se pausa para esa persona.`,
    badCode: 'Este enlace ya no vale (caduca a los 15 minutos y sirve una vez). Pide uno nuevo en el panel.',
    help: 'Para contestar a un seguidor, responde a uno de los mensajes que te reenvío (desliza a la izquierda sobre él).',
    textOnly: 'Desde aquí solo puedo enviar a tus seguidores texto y notas de voz.',
    failed: (w) => `No se pudo enviar tu respuesta: ${w}`,
    forwarded: (n, c, t) => `💬 ${n} · ${c}\n${t}`,
    media: '[archivo o nota de voz]',
  },
  en: {
    linked: (b) =>
      `✅ Done: you will get the messages of ${b}'s followers here. To answer one, reply to their message (swipe left); the bot pauses for that person.`,
    badCode:
      'This link no longer works (it lasts 15 minutes and works once). Ask for a new one in the dashboard.',
    help: 'To answer a follower, reply to one of the messages I forward to you (swipe left on it).',
    textOnly: 'From here I can only send your followers text and voice notes.',
    failed: (w) => `Your reply could not be sent: ${w}`,
    forwarded: (n, c, t) => `💬 ${n} · ${c}\n${t}`,
    media: '[file or voice note]',
  },
  fr: {
    linked: (b) =>
      `✅ C’est fait : vous recevrez ici les messages des abonnés de ${b}. Pour répondre à l’un d’eux, répondez à son message (glissez vers la gauche) ; le bot se met en pause pour cette personne.`,
    badCode:
      'Ce lien ne fonctionne plus (il dure 15 minutes et ne sert qu’une fois). Demandez-en un nouveau dans le tableau de bord.',
    help: 'Pour répondre à un abonné, répondez à l’un des messages que je vous transfère (glissez vers la gauche dessus).',
    textOnly: 'D’ici, je ne peux envoyer à vos abonnés que du texte et des notes vocales.',
    failed: (w) => `Votre réponse n’a pas pu être envoyée : ${w}`,
    forwarded: (n, c, t) => `💬 ${n} · ${c}\n${t}`,
    media: '[fichier ou note vocale]',
  },
  de: {
    linked: (b) =>
      `✅ Fertig: Hier bekommst du die Nachrichten der Follower von ${b}. Um einem zu antworten, antworte auf seine Nachricht (nach links wischen); der Bot pausiert für diese Person.`,
    badCode:
      'Dieser Link gilt nicht mehr (15 Minuten gültig, nur einmal nutzbar). Fordere im Dashboard einen neuen an.',
    help: 'Um einem Follower zu antworten, antworte auf eine der Nachrichten, die ich dir weiterleite (nach links wischen).',
    textOnly: 'Von hier aus kann ich deinen Followern nur Text und Sprachnachrichten senden.',
    failed: (w) => `Deine Antwort konnte nicht gesendet werden: ${w}`,
    forwarded: (n, c, t) => `💬 ${n} · ${c}\n${t}`,
    media: '[Datei oder Sprachnachricht]',
  },
  it: {
    linked: (b) =>
      `✅ Fatto: riceverai qui i messaggi dei follower di ${b}. Per rispondere a uno, rispondi al suo messaggio (scorri a sinistra); il bot si mette in pausa per quella persona.`,
    badCode:
      'Questo link non è più valido (dura 15 minuti e si usa una volta). Chiedine uno nuovo nel pannello.',
    help: 'Per rispondere a un follower, rispondi a uno dei messaggi che ti inoltro (scorri a sinistra).',
    textOnly: 'Da qui posso inviare ai tuoi follower solo testo e note vocali.',
    failed: (w) => `Non è stato possibile inviare la tua risposta: ${w}`,
    forwarded: (n, c, t) => `💬 ${n} · ${c}\n${t}`,
    media: '[file o nota vocale]',
  },
  ru: {
    linked: (b) =>
      `✅ Готово: сюда будут приходить сообщения подписчиков ${b}. Чтобы ответить, ответьте на пересланное сообщение (свайп влево); бот для этого человека встанет на паузу.`,
    badCode: 'Эта ссылка больше не действует (15 минут, один раз). Получите новую в панели.',
    help: 'Чтобы ответить подписчику, ответьте на одно из пересланных мной сообщений (свайп влево).',
    textOnly: 'Отсюда я могу отправлять подписчикам только текст и голосовые сообщения.',
    failed: (w) => `Не удалось отправить ответ: ${w}`,
    forwarded: (n, c, t) => `💬 ${n} · ${c}\n${t}`,
    media: '[файл или голосовое]',
  },
  hi: {
    linked: (b) =>
      `✅ हो गया: ${b} के फ़ॉलोअर्स के संदेश अब यहाँ आएँगे। किसी को जवाब देने के लिए उसके संदेश पर रिप्लाई करें (बाएँ स्वाइप करें); उस व्यक्ति के लिए बॉट रुक जाएगा।`,
    badCode: 'यह लिंक अब काम नहीं करता (15 मिनट तक, एक बार)। डैशबोर्ड से नया लिंक लें।',
    help: 'किसी फ़ॉलोअर को जवाब देने के लिए मेरे भेजे किसी संदेश पर रिप्लाई करें (बाएँ स्वाइप करें)।',
    textOnly: 'यहाँ से मैं आपके फ़ॉलोअर्स को केवल टेक्स्ट और वॉइस नोट भेज सकता हूँ।',
    failed: (w) => `आपका जवाब नहीं भेजा जा सका: ${w}`,
    forwarded: (n, c, t) => `💬 ${n} · ${c}\n${t}`,
    media: '[फ़ाइल या वॉइस नोट]',
  },
};

/** The phone texts in a bot's language (`idioma`). */
export function phoneTexts(idioma: string | null | undefined): PhoneTexts {
  return TEXTS[languageCode(idioma)];
}

/** Channel names as the owner reads them in a forwarded message. */
const CHANNEL_NAMES: Record<string, string> = {
  telegram: 'Telegram',
  whatsapp: 'WhatsApp',
  web: 'Web',
  ialanding: 'IALanding',
};

/** The text forwarded to the owner's chat for one follower message. */
export function forwardText(texts: PhoneTexts, inbound: InboundMessage): string {
  const name = inbound.follower.username ?? inbound.follower.id;
  const words = inbound.text.trim() || texts.media;
  return texts.forwarded(name, CHANNEL_NAMES[inbound.channel] ?? inbound.channel, words);
}
