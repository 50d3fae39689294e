/**
 * The SQL of WhatsApp message templates and waiting messages (issue 28; tables in
 * migrations/202611271600_whatsapp_templates.ts, typed in ../tables.ts).
 */
import { sql } from 'kysely';
import { fold, stopwords } from '../../../engine/ranking/terms.ts';
import { LANG_CODES, type LangCode } from '../../../engine/schemas.ts';
import type { WaDb, WaitingMessage } from '../tables.ts';

/** One template row as the owner's route shows it. */
export interface TemplateRow {
  name: string;
  language: string;
  status: string;
  reason: string | null;
  meta_id: string | null;
  updated_at: Date | string | undefined;
}

/** Every template row of a bot. */
export async function templatesOf(db: WaDb, chatbotId: string): Promise<TemplateRow[]> {
  return db
    .selectFrom('whatsapp_templates')
    .select(['name', 'language', 'status', 'reason', 'meta_id', 'updated_at'])
    .where('chatbot_id', '=', chatbotId)
    .execute();
}

/**
 * Stores a template's status (a submission, the webhook, the periodic check). `reason` `NONE` (what
 * Meta sends on approval) is stored as null.
 */
export async function saveTemplate(
  db: WaDb,
  t: {
    chatbotId: string;
    name: string;
    language: string;
    status: string;
    reason?: string | null;
    metaId?: string | null;
  },
): Promise<void> {
  const reason = t.reason && t.reason.toUpperCase() !== 'NONE' ? t.reason : null;
  await db
    .insertInto('whatsapp_templates')
    .values({
      chatbot_id: t.chatbotId,
      name: t.name,
      language: t.language,
      status: t.status.toUpperCase(),
      reason,
      meta_id: t.metaId ?? null,
      updated_at: new Date(),
    })
    .onConflict((oc) =>
      oc.columns(['chatbot_id', 'name', 'language']).doUpdateSet({
        status: (eb) => eb.ref('excluded.status'),
        reason: (eb) => eb.ref('excluded.reason'),
        meta_id: (eb) => eb.fn.coalesce(eb.ref('excluded.meta_id'), eb.ref('whatsapp_templates.meta_id')),
        updated_at: (eb) => eb.ref('excluded.updated_at'),
      }),
    )
    .execute();
}

/** The languages in which a template is approved for a bot. */
export async function approvedLanguages(db: WaDb, chatbotId: string, name: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('whatsapp_templates')
    .select('language')
    .where('chatbot_id', '=', chatbotId)
    .where('name', '=', name)
    .where('status', '=', 'APPROVED')
    .execute();
  return new Set(rows.map((r) => r.language));
}

/** Cloud API bots with a template still under review (the periodic check asks Meta about these). */
export async function botsWithPendingTemplates(db: WaDb): Promise<string[]> {
  const rows = await db
    .selectFrom('whatsapp_templates')
    .select('chatbot_id')
    .distinct()
    .where('status', 'in', ['PENDING', 'IN_APPEAL'])
    .execute();
  return rows.map((r) => r.chatbot_id);
}

/**
 * The Cloud API phone number id of a WhatsApp Business Account (the template webhook is keyed by
 * the account; its signature is checked with that number's app secret), or undefined.
 */
export async function phoneOfBusinessAccount(db: WaDb, wabaId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('chatbots as c')
    .innerJoin('whatsapp_connections as w', 'w.chatbot_id', 'c.id')
    .select('w.phone_number_id')
    .where('c.meta_business_account_id', '=', wabaId)
    .where('w.backend', '=', 'cloud')
    .where('w.status', '=', 'active')
    .executeTakeFirst();
  return row?.phone_number_id ?? undefined;
}

/** Keeps a message that could not go out free-form (held for the follower's next message). */
export async function addWaiting(
  db: WaDb,
  w: {
    chatbotId: string;
    chatId: string;
    sender: 'bot' | 'owner';
    state: 'held' | 'waiting';
    template: string | null;
    message: WaitingMessage;
    reason: string | null;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('whatsapp_waiting')
    .values({
      chatbot_id: w.chatbotId,
      chat_id: w.chatId,
      sender: w.sender,
      state: w.state,
      template: w.template,
      message: JSON.stringify(w.message),
      reason: w.reason,
      expires_at: w.expiresAt,
    })
    .execute();
}

/** One waiting message as the owner's route lists it. */
export interface WaitingRow {
  id: string;
  chat_id: string;
  sender: 'bot' | 'owner';
  state: 'held' | 'waiting' | 'delivered' | 'expired';
  template: string | null;
  message: WaitingMessage;
  reason: string | null;
  expires_at: Date | string;
  created_at: Date | string | undefined;
}

const WAITING_COLUMNS = [
  'id',
  'chat_id',
  'sender',
  'state',
  'template',
  'message',
  'reason',
  'expires_at',
  'created_at',
] as const;

/** A bot's open waiting messages (held or waiting), oldest first, at most `limit`. */
export async function openWaitingOf(db: WaDb, chatbotId: string, limit = 200): Promise<WaitingRow[]> {
  const rows = await db
    .selectFrom('whatsapp_waiting')
    .select([...WAITING_COLUMNS])
    .where('chatbot_id', '=', chatbotId)
    .where('state', 'in', ['held', 'waiting'])
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(normalize);
}

/**
 * Claims a follower's open waiting messages for delivery (oldest first), in one statement (it runs
 * on every Cloud API message): they are marked `delivered`, so two processes never deliver one
 * twice; those past `expires_at` are marked `expired` and not returned.
 */
export async function claimWaiting(
  db: WaDb,
  chatbotId: string,
  chatId: string,
  now: Date,
): Promise<WaitingRow[]> {
  const rows = await db
    .updateTable('whatsapp_waiting')
    .set({
      state: sql<'delivered' | 'expired'>`CASE WHEN expires_at <= ${now} THEN 'expired' ELSE 'delivered' END`,
      delivered_at: now,
    })
    .where('chatbot_id', '=', chatbotId)
    .where('chat_id', '=', chatId)
    .where('state', 'in', ['held', 'waiting'])
    .returning([...WAITING_COLUMNS])
    .execute();
  return rows
    .filter((r) => r.state === 'delivered')
    .map(normalize)
    .sort((a, b) => Number(a.id) - Number(b.id));
}

/** True when a follower already has a held message (the "team has answered" template went out). */
export async function hasHeld(db: WaDb, chatbotId: string, chatId: string): Promise<boolean> {
  const row = await db
    .selectFrom('whatsapp_waiting')
    .select('id')
    .where('chatbot_id', '=', chatbotId)
    .where('chat_id', '=', chatId)
    .where('state', '=', 'held')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Puts a claimed message back (its delivery failed in a way a retry may fix). */
export async function unclaimWaiting(db: WaDb, id: string, state: 'held' | 'waiting'): Promise<void> {
  await db.updateTable('whatsapp_waiting').set({ state, delivered_at: null }).where('id', '=', id).execute();
}

function normalize<T extends { id: string | undefined; message: unknown }>(r: T) {
  const message = typeof r.message === 'string' ? (JSON.parse(r.message) as WaitingMessage) : r.message;
  return { ...r, id: String(r.id), message } as unknown as WaitingRow;
}

/**
 * The language a follower writes in, from their last messages to the bot: Devanagari is Hindi,
 * Cyrillic Russian, otherwise the language whose stop words are most frequent (at least two);
 * undefined when it cannot be told (the bot's language is used then).
 */
export async function followerLanguage(
  db: WaDb,
  chatbotId: string,
  chatId: string,
): Promise<LangCode | undefined> {
  const rows = await db
    .selectFrom('conversation_messages')
    .select('text')
    .where('chatbot_id', '=', chatbotId)
    .where('user_id', '=', chatId)
    .where('sender', '=', 'user')
    .orderBy('created_at', 'desc')
    .limit(5)
    .execute();
  return guessLanguage(rows.map((r) => r.text).join(' '));
}

/** {@link followerLanguage}'s guess from a text. */
export function guessLanguage(text: string): LangCode | undefined {
  if (/[\u0900-\u097F]/.test(text)) return 'hi';
  if (/[\u0400-\u04FF]/.test(text)) return 'ru';
  const words = text
    .split(/[^\p{L}']+/u)
    .filter(Boolean)
    .map((w) => fold(w));
  let best: { lang: LangCode; score: number } | undefined;
  let tie = false;
  for (const lang of LANG_CODES) {
    if (lang === 'hi' || lang === 'ru') continue;
    const set = stopwords(lang);
    const score = words.filter((w) => set.has(w)).length;
    if (!best || score > best.score) {
      best = { lang, score };
      tie = false;
    } else if (score === best.score) tie = true;
  }
  return best && best.score >= 2 && !tie ? best.lang : undefined;
}
