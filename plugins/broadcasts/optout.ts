/**
 * Opting out of broadcasts (issue 28 §1): a WhatsApp follower (Cloud API or a linked number) whose
 * whole message is a short stop command in one of the seven languages (STOP, BAJA, "darme de
 * baja", ARRÊT, STOPP, BASTA, СТОП, रोकें; case and accents ignored, trailing punctuation too) is
 * recorded in `broadcast_optouts` and answered in the bot's language; ALTA / START (or the
 * language's own word) brings them back. Opted-out followers are skipped in every broadcast
 * (audience.ts, reason `optedOut`). A middleware of the broadcasts plugin: the turn ends with the
 * confirmation, the LLM never sees the command.
 */
import { sql } from 'kysely';
import type { MiddlewareOutcome, TurnContext } from '../../engine/registry/index.ts';
import { type LangCode, languageCode } from '../../engine/schemas.ts';
import type { BroadcastsDb } from './tables.ts';

/** Channels the stop commands are read on (WhatsApp: Meta asks marketing senders to honour them). */
export const OPTOUT_CHANNELS: ReadonlySet<string> = new Set(['whatsapp']);

/** A message folded for comparison: lower case, accents and marks off, punctuation and spaces squeezed. */
export function foldCommand(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The stop commands, any language (folded when compared). */
const STOP_WORDS = [
  'stop',
  'baja',
  'darme de baja',
  'dar de baja',
  'unsubscribe',
  'arrêt',
  'arret',
  'stopp',
  'abmelden',
  'basta',
  'стоп',
  'रोकें',
  'रोको',
];
/** The commands that bring an opted-out follower back. */
const START_WORDS = ['alta', 'darme de alta', 'start', 'subscribe', 'старт', 'शुरू'];

const STOP = new Set(STOP_WORDS.map(foldCommand));
const START = new Set(START_WORDS.map(foldCommand));

/** What a whole message asks: `stop`, `start`, or nothing. */
export function optCommand(text: string): 'stop' | 'start' | null {
  const folded = foldCommand(text);
  if (!folded || folded.length > 20) return null;
  if (STOP.has(folded)) return 'stop';
  if (START.has(folded)) return 'start';
  return null;
}

/** The follower's confirmations, per bot language (issue 28 §1). */
export const OPTOUT_REPLIES: Record<'stopped' | 'started', Record<LangCode, string>> = {
  stopped: {
    es: 'Hecho: no recibirás más difusiones. Escribe ALTA para volver a recibirlas.',
    en: 'Done: you will not receive any more broadcasts. Write START to receive them again.',
    fr: 'C’est fait : vous ne recevrez plus de diffusions. Écrivez START pour les recevoir à nouveau.',
    de: 'Erledigt: Du erhältst keine Rundsendungen mehr. Schreib START, um sie wieder zu erhalten.',
    it: 'Fatto: non riceverai più diffusioni. Scrivi START per riceverle di nuovo.',
    ru: 'Готово: вы больше не будете получать рассылки. Напишите START, чтобы снова их получать.',
    hi: 'हो गया: अब आपको प्रसारण संदेश नहीं मिलेंगे। दोबारा पाने के लिए START लिखें।',
  },
  started: {
    es: 'Listo: volverás a recibir difusiones. Escribe BAJA para dejar de recibirlas.',
    en: 'Done: you will receive broadcasts again. Write STOP to stop them.',
    fr: 'C’est fait : vous recevrez de nouveau les diffusions. Écrivez STOP pour les arrêter.',
    de: 'Erledigt: Du erhältst wieder Rundsendungen. Schreib STOPP, um sie abzubestellen.',
    it: 'Fatto: riceverai di nuovo le diffusioni. Scrivi BASTA per non riceverle più.',
    ru: 'Готово: вы снова будете получать рассылки. Напишите СТОП, чтобы отказаться.',
    hi: 'हो गया: आपको फिर से प्रसारण संदेश मिलेंगे। बंद करने के लिए STOP लिखें।',
  },
};

/** Records a follower's opt-out (idempotent: the first moment is kept). */
export async function optOut(db: BroadcastsDb, chatbotId: string, channel: string, chatId: string) {
  await db
    .insertInto('broadcast_optouts')
    .values({ chatbot_id: chatbotId, channel, chat_id: chatId })
    .onConflict((oc) => oc.columns(['chatbot_id', 'channel', 'chat_id']).doNothing())
    .execute();
}

/** Removes a follower's opt-out; true when there was one. */
export async function optIn(db: BroadcastsDb, chatbotId: string, channel: string, chatId: string) {
  const res = await db
    .deleteFrom('broadcast_optouts')
    .where('chatbot_id', '=', chatbotId)
    .where('channel', '=', channel)
    .where('chat_id', '=', chatId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Whether the follower row `f` opted out of broadcasts (SQL, for audience.ts). */
export const OPTED_OUT = sql<boolean>`exists (
  select 1 from broadcast_optouts o
  where o.chatbot_id = f.chatbot_id and o.channel = f.channel and o.chat_id = f.external_id)`;

/**
 * The broadcasts plugin's turn middleware: a stop command opts the follower out and is answered;
 * a start command of an opted-out follower opts them back in; anything else goes on unchanged
 * (a START from someone who never opted out is a normal message).
 */
export function optoutMiddleware(db: BroadcastsDb) {
  return async (turn: TurnContext): Promise<MiddlewareOutcome> => {
    const { inbound, bot } = turn;
    if (!OPTOUT_CHANNELS.has(inbound.channel)) return undefined;
    const command = optCommand(inbound.text ?? '');
    if (!command) return undefined;
    const lang = languageCode(bot.idioma);
    if (command === 'stop') {
      await optOut(db, bot.id, inbound.channel, inbound.follower.id);
      return { reply: OPTOUT_REPLIES.stopped[lang] };
    }
    if (!(await optIn(db, bot.id, inbound.channel, inbound.follower.id))) return undefined;
    return { reply: OPTOUT_REPLIES.started[lang] };
  };
}
