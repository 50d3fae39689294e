/**
 * The system prompt of a bot: its business fields (spec 000 §3), its style, its language, its file
 * catalogue (keyword and context of each file, so the LLM can offer them), the plugins' prompt
 * fragments, and this turn's reading from the empathy container.
 */
import {
  CATEGORY_PROMPT_NAMES,
  type Category,
  type ChatbotStyle,
  type ContenedorEmpatico,
  type HistoryItem,
  type LangCode,
} from '../schemas.ts';

/** How each communication style (spec 000 §1) should sound. */
export const STYLE_GUIDES: Record<ChatbotStyle, string> = {
  formal:
    'Formal and courteous: address the follower politely (usted/vous/Sie where the language has it), no slang, no emoji.',
  casual: 'Casual and warm: friendly, close, simple words, at most one emoji.',
  divertido: 'Fun and playful: light humour and a few emoji, while staying helpful and accurate.',
  técnico: 'Technical and precise: exact terms, figures and steps, no filler.',
};

/** Language names as the LLM should read them. */
const LANGUAGE_NAMES: Record<LangCode, string> = {
  es: 'Spanish (Español)',
  en: 'English',
  fr: 'French (Français)',
  de: 'German (Deutsch)',
  it: 'Italian (Italiano)',
  ru: 'Russian (Русский)',
  hi: 'Hindi (हिंदी)',
};

/** The bot fields the prompt reads. */
export interface PromptBot {
  business_name: string;
  business_description: string;
  chatbot_style: string;
  expectations: string;
  category: string;
  system_prompt: string | null;
}

/** A file as the catalogue lists it. */
export interface CatalogueFile {
  file_name: string;
  file_type: string;
  keyword: string;
  context: string;
}

/** What {@link buildSystemPrompt} reads. */
export interface PromptInput {
  bot: PromptBot;
  lang: LangCode;
  files: readonly CatalogueFile[];
  /** Plugins' prompt fragments (registry contributions). */
  fragments: readonly string[];
  container: ContenedorEmpatico;
  /** This turn's passages of the bot's files (engine/knowledge/answer.ts `knowledgePrompt`), or ''. */
  knowledge?: string;
}

/**
 * The part of the system prompt that depends only on the bot, its language and its files (the
 * business, the owner's instructions, the style, the file catalogue): the same on every turn until
 * the bot or its files change, so the engine builds it once per loaded bot (turn/bot-parts.ts).
 */
export function buildPromptHead(bot: PromptBot, lang: LangCode, files: readonly CatalogueFile[]): string {
  const style = STYLE_GUIDES[bot.chatbot_style as ChatbotStyle] ?? STYLE_GUIDES.casual;
  const lines: string[] = [
    `You are the AI assistant of "${bot.business_name}" (${CATEGORY_PROMPT_NAMES[bot.category as Category] ?? bot.category}), answering its followers in a chat.`,
    '',
    '## The business',
    bot.business_description.trim(),
  ];
  if (bot.expectations.trim()) lines.push('', '## What the owner expects from you', bot.expectations.trim());
  if (bot.system_prompt?.trim())
    lines.push('', '## Extra instructions from the owner', bot.system_prompt.trim());
  lines.push(
    '',
    '## How you speak',
    `Style: ${bot.chatbot_style}. ${style}`,
    `Always answer in ${LANGUAGE_NAMES[lang]}, whatever language the follower writes in.`,
    'Keep answers short (a few sentences) unless the follower asks for detail. Never invent prices, hours or facts the business did not give you; say you will check instead.',
  );
  if (files.length > 0) {
    lines.push(
      '',
      '## Files you can send',
      'The system sends a file automatically when the follower asks for it by one of its keywords. Offer a file by naming its keyword; never paste links or make up file names.',
      ...files.map(
        (f, i) =>
          `${i + 1}. ${f.file_name} (${f.file_type}); keywords: ${f.keyword || '(none)'}${f.context ? `; about: ${f.context}` : ''}`,
      ),
    );
  }
  return lines.join('\n');
}

/**
 * Builds the system prompt of one turn: {@link buildPromptHead} (or `input.head` when the caller
 * has it already), the plugins' fragments, then this turn's reading of the empathy container.
 */
export function buildSystemPrompt(input: PromptInput & { head?: string }): string {
  const { container } = input;
  const lines: string[] = [input.head ?? buildPromptHead(input.bot, input.lang, input.files)];
  for (const fragment of input.fragments) if (fragment.trim()) lines.push('', fragment.trim());
  if (input.knowledge) lines.push('', input.knowledge);

  const a = container.analisisInterno;
  lines.push(
    '',
    '## This turn',
    `Local time of the business: ${a.reloj.texto} (${a.reloj.zonaHoraria}).`,
    `Follower's state: ${container.estadoEmpatico.estado} (score ${container.estadoEmpatico.puntuacion}).`,
    `Tone guidance: ${a.recomendacionAsistente}`,
  );
  if (container.archivos.action === 'SEND' && a.archivoMencionado) {
    lines.push(
      `The system is sending the file "${a.archivoMencionado.file_name}" with your reply: introduce it in one short sentence.`,
    );
  } else if (container.archivos.action === 'LIST') {
    lines.push(
      `Several files match (${container.archivos.lista.map((f) => f.file_name).join(', ')}). The system lists them after your reply: say in one sentence that the follower can choose one by number or name.`,
    );
  }
  if (a.alertas.length > 0) lines.push(`Alerts: ${a.alertas.join(' ')}`);
  return lines.join('\n');
}

/** One message of the Chat Completions request. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The request messages: system prompt, history as role/content, then the follower's message. */
export function buildMessages(
  system: string,
  history: readonly HistoryItem[],
  message: string,
): ChatMessage[] {
  return [
    { role: 'system', content: system },
    ...history.map((h) => ({ role: h.role, content: h.content })),
    { role: 'user', content: message },
  ];
}
