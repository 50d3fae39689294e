/**
 * The offline responder: with no LLM configured, a bot still answers, deterministically, from its
 * own description and files, in its language (issue 10 §6), its own sentences in the follower's
 * language when that can be told (issue 29, ./language.ts). Replies say nothing false:
 * - a question the description answers gets the description's most relevant sentences (BM25 over
 *   sentences, engine/ranking), e.g. the opening hours for "¿A qué hora abrís el sábado?";
 * - files are offered by their context text ("La carta completa…"), those that fit the question
 *   first, never by their keywords (owners' triggers such as "foto10" are not for followers);
 * - a question it cannot answer gets "No encuentro ese dato…"; small talk gets who the bot is
 *   (with the first sentences of the description on a first turn); then the files, or a question
 *   about what the follower needs.
 * Sentences that instruct the bot ("Atiende con cercanía…") are never quoted.
 */
import {
  answersAsked,
  askedOf,
  fileDescription,
  givenOf,
  publicSummary,
  relevantFiles,
  relevantSentences,
  terms,
} from '../ranking/index.ts';
import type { ContenedorEmpatico, LangCode } from '../schemas.ts';
import { fill, greeting, OFFLINE_OPENERS, OFFLINE_TEXTS } from './texts.ts';

/** Most files listed in one offline offer. */
export const OFFLINE_MAX_OFFERED = 5;
/** Longest business summary on a first turn, in characters. */
const SUMMARY_CHARS = 240;

/** An answer from the bot's files' passages (engine/knowledge/answer.ts `offlineAnswer`). */
export interface FilesAnswer {
  /** The reply: the quote with its source ("Según carta.pdf (p. 2): …"). */
  text: string;
  /** The quoted sentences alone. */
  quote: string;
  /** Called when the reply uses it (the turn then reports and offers its passage's file). */
  take: () => void;
}

/** What the offline responder reads. */
export interface OfflineInput {
  lang: LangCode;
  businessName: string;
  businessDescription: string;
  /** The follower's message. */
  message: string;
  /** The bot's files in display order. */
  files: ReadonlyArray<{ id: string; file_name: string; keyword: string; context: string }>;
  container: ContenedorEmpatico;
  /** True on the follower's first message. */
  firstTurn: boolean;
  /**
   * The answer from the bot's file passages (issue 30 §3), or null when none fits well enough;
   * asked only when the description does not answer, or answers without what the question asks
   * for (a price, an hour…), so a turn it answers searches nothing.
   */
  fromFiles?: () => Promise<FilesAnswer | null>;
  /** The follower's language, for the reply's own sentences (issue 29); `lang` when not given. */
  replyLang?: LangCode;
  /** True when the message is only a greeting: it gets a greeting, not a file offer (issue 29). */
  greeting?: boolean;
}

/**
 * Answers one turn without an LLM. When a file is sent or listed, the engine adds the file's
 * sentence or the list itself and this returns ''; otherwise it returns the whole reply.
 */
export async function offlineReply(input: OfflineInput): Promise<string> {
  const { lang } = input;
  const say = input.replyLang ?? lang;
  const t = OFFLINE_TEXTS[say];
  const a = input.container.analisisInterno;
  const action = input.container.archivos.action;
  if (action === 'SEND' || action === 'LIST') return '';
  const state = input.container.estadoEmpatico.estado;
  const opener = state === 'neutral' ? [] : [OFFLINE_OPENERS[say][state]];
  const alreadySent =
    a.alertas.length > 0 && a.archivoMencionado && a.archivosEnviados.includes(a.archivoMencionado.id);
  if (alreadySent && a.archivoMencionado)
    return [...opener, fill(t.already, { file: a.archivoMencionado.file_name })].join(' ');

  if (input.greeting) return greetingReply(input, t, opener);
  const answer = relevantSentences(input.message, input.businessDescription, lang, { questionLang: say });
  // What the owner wrote in the description answers first; the files' passages when it does not,
  // or when it lacks what the question asks for and a file gives it: "¿Cuánto cuesta el arroz con
  // pato?" finds the dish in the description and its price only in the menu.
  const fromFiles = await filesAnswer(input, answer, say);
  if (fromFiles) return [...opener, fromFiles].join(' ');
  const business = { business: input.businessName };
  const unsent = input.files.filter((f) => !a.archivosEnviados.includes(f.id));
  const fitting = relevantFiles(input.message, unsent, lang, say);
  const lead = [...opener];
  let offer: { heading: string; files: typeof unsent } | null = null;

  if (answer.length > 0) {
    if (input.firstTurn) lead.push(fill(t.intro, business));
    lead.push(answer.join(' '));
    if (fitting.length > 0) offer = { heading: t.alsoFiles, files: fitting };
  } else {
    const asked = state === 'neutral' && terms(input.message, say).length > 0;
    const about = input.firstTurn ? publicSummary(input.businessDescription, lang, SUMMARY_CHARS) : '';
    if (asked) lead.push(fill(t.notFound, business));
    else if (about) lead.push(fill(t.intro, business), about);
    else if (input.firstTurn && opener.length === 0) lead.push(greeting(say, input.businessName));
    else lead.push(fill(t.intro, business));
    const files = fitting.length > 0 ? fitting : unsent;
    if (files.length > 0) offer = { heading: t.files, files };
    else lead.push(input.firstTurn ? t.contact : t.noFiles);
  }
  const text = lead.join(' ');
  if (!offer) return text;
  const lines = offer.files.slice(0, OFFLINE_MAX_OFFERED).map((f) => `• ${fileDescription(f, lang)}`);
  return [text, offer.heading, ...lines, t.ask].join('\n');
}

/**
 * The files' answer when the description gives none, or gives none of what the question asks for
 * (a price, an hour or a day, a place, a contact, a booking, a count: engine/ranking/asked.ts) and
 * the files' answer gives it; else null (the description's answer stands).
 */
async function filesAnswer(
  input: OfflineInput,
  answer: readonly string[],
  say: LangCode,
): Promise<string | null> {
  if (!input.fromFiles) return null;
  const use = (found: FilesAnswer) => {
    found.take();
    return found.text;
  };
  if (answer.length === 0) {
    const found = await input.fromFiles();
    return found ? use(found) : null;
  }
  const asked = askedOf(input.message, say);
  if (asked.length === 0 || answersAsked(asked, givenOf(answer.join(' '), input.lang))) return null;
  const found = await input.fromFiles();
  return found && answersAsked(asked, givenOf(found.quote, input.lang)) ? use(found) : null;
}

/**
 * The reply to a message that is only a greeting (issue 29): a greeting back, on a first turn who
 * the bot is and the first sentences of the description, then an invitation to say what the
 * follower needs; no file offer.
 */
function greetingReply(input: OfflineInput, t: (typeof OFFLINE_TEXTS)[LangCode], opener: string[]): string {
  const about = input.firstTurn ? publicSummary(input.businessDescription, input.lang, SUMMARY_CHARS) : '';
  const who = input.firstTurn ? [fill(t.intro, { business: input.businessName }), about] : [];
  return [...opener, t.hello, ...who, t.contact].filter(Boolean).join(' ');
}
