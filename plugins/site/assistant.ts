/**
 * The site assistant's answers (spec 001 §2 "Marketing assistant chat widget", §7 `POST /api/chat`,
 * §8 Marketing assistant; issue 16 §5). The server writes the product context itself (the spec's
 * client-sent `context` is ignored, so a page cannot turn the assistant into a free LLM proxy): the
 * real prices from the billing plans, the trial length, the channels and features, and the style
 * rules (short numbered lists, one emoji per point) in the page's language.
 *
 * With no LLM configured, or when it fails, the answer is the closest FAQ item of the page's
 * language by BM25 (engine/ranking), or a short summary when nothing matches.
 */
import { bm25, terms } from '../../engine/ranking/index.ts';
import type { LlmMessage, LlmPort } from '../../engine/registry/index.ts';
import { CUSTOM_PLAN, MONTHLY_PLAN } from '../billing/api.ts';
import { CONTENT, fill, formatPrice, placeholders, type SiteLanguage } from './content/index.ts';

/** Spec 001 §8 Marketing assistant: the bot message shown on a non-OK reply or a network failure. */
export const ASSISTANT_ERROR =
  'Lo siento, estoy teniendo problemas técnicos. ¿Puedes intentar de nuevo en un momento? 😅';

/** Longest question accepted, characters. */
export const MAX_QUESTION = 1000;

/** Messages of the visitor's conversation sent back as history (the latest ones). */
export const MAX_HISTORY = 8;

/** The product facts the assistant may state, in Spanish (the model answers in the page's language). */
export function productContext(trialDays: number): string {
  const eur = (cents: number) => formatPrice('es', cents);
  return [
    'Eres el asistente de Charla, una plataforma de código abierto (AGPL-3.0) y autoalojable para crear el chatbot con IA de un negocio.',
    'Hechos que puedes afirmar (no inventes otros, ni cifras de disponibilidad):',
    `- Prueba gratis de ${trialDays} días, sin tarjeta.`,
    `- Day Pass: ${eur(CUSTOM_PLAN.dayCents)} por día, de ${CUSTOM_PLAN.minDays} a ${CUSTOM_PLAN.maxDays} días, pago único.`,
    `- Plan Mensual ("Más popular"): ${eur(MONTHLY_PLAN.amountCents)} cada 30 días, con ${MONTHLY_PLAN.days} días de uso por periodo (unos ${eur(Math.round(MONTHLY_PLAN.amountCents / MONTHLY_PLAN.days))} al día); se cancela cuando se quiera.`,
    '- Canales: Telegram, WhatsApp (API de Meta o vinculando el teléfono), chat para la web del negocio y una IALanding (página pública con chat).',
    '- El dueño describe su negocio (nombre, descripción, estilo, expectativas, idioma, categoría) y sube hasta 10 archivos (imagen, PDF, audio, vídeo; 10 MB cada uno) con palabras clave; el bot los envía cuando el mensaje coincide.',
    '- Reservas dentro del chat con calendario, sin dobles reservas y recordatorios 24 h y 2 h antes.',
    '- Búsqueda web, respuestas con notas de voz y efectos de voz.',
    '- El dueño lee las conversaciones, toma el control a mano y envía difusiones a todos sus seguidores.',
    '- Directorio público Facebots con "me gusta".',
    '- Interfaz en español, inglés, francés, alemán, italiano, ruso e hindi.',
    '- Configuración en menos de 5 minutos, sin código.',
    'Compárate con otras plataformas con honestidad: Charla es de código abierto y se paga por días.',
    'Si te preguntan algo que no sea sobre Charla, reconduce con amabilidad hacia el producto.',
  ].join('\n');
}

/** The messages of one completion: the context and style, the recent history, the question. */
export function assistantMessages(
  lang: SiteLanguage,
  trialDays: number,
  question: string,
  history: LlmMessage[],
): LlmMessage[] {
  return [
    { role: 'system', content: `${productContext(trialDays)}\n\n${CONTENT[lang].assistantStyle}` },
    ...history.slice(-MAX_HISTORY),
    { role: 'user', content: question },
  ];
}

/**
 * The answer without a model: the FAQ item of the page's language that best matches the question
 * (BM25 over question and answer), or the first FAQ item's answer about prices when nothing matches.
 */
export function offlineAnswer(lang: SiteLanguage, trialDays: number, question: string): string {
  const items = CONTENT[lang].faq.items;
  const values = placeholders(lang, trialDays);
  const docs = items.map((item) => terms(`${item.q} ${item.q} ${item.a}`, lang));
  const scored = bm25(terms(question, lang), docs).sort((a, b) => b.score - a.score);
  const best = scored[0];
  const item = best && best.score > 0 ? items[best.index] : undefined;
  if (item) return `1. 💡 ${fill(item.a, values)}`;
  const t = CONTENT[lang];
  return [`1. 🤖 ${fill(t.meta.description, values)}`, `2. 💶 ${fill(t.faq.items[1]?.a ?? '', values)}`].join(
    '\n',
  );
}

/**
 * Answers a visitor's question: the LLM when configured, else (or when it fails) the FAQ.
 * @returns the text and whether the model wrote it.
 */
export async function answer(
  llm: LlmPort | null,
  input: {
    lang: SiteLanguage;
    trialDays: number;
    question: string;
    history: LlmMessage[];
    signal?: AbortSignal;
  },
  onError: (err: unknown) => void,
): Promise<{ response: string; model: boolean }> {
  if (llm) {
    try {
      const text = await llm.complete(
        assistantMessages(input.lang, input.trialDays, input.question, input.history),
        input.signal ? { signal: input.signal } : {},
      );
      if (text.trim()) return { response: text.trim(), model: true };
    } catch (err) {
      onError(err);
    }
  }
  return { response: offlineAnswer(input.lang, input.trialDays, input.question), model: false };
}
