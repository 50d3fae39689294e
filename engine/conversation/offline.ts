/**
 * The offline responder: with no LLM configured, a bot still answers, deterministically, from its
 * own fields and files, in its language. Replies say nothing false: they introduce the business,
 * point at the files by keyword, and ask what the follower needs.
 */
import type { ContenedorEmpatico, LangCode } from '../schemas.ts';
import { fill, greeting, OFFLINE_OPENERS, OFFLINE_TEXTS } from './texts.ts';

/** The first sentence of a text (at most 240 characters). */
function firstSentence(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const match = clean.match(/^.{1,240}?[.!?](\s|$)/);
  return (match ? match[0] : clean.slice(0, 240)).trim();
}

/** What the offline responder reads. */
export interface OfflineInput {
  lang: LangCode;
  businessName: string;
  businessDescription: string;
  files: ReadonlyArray<{ file_name: string; keyword: string }>;
  container: ContenedorEmpatico;
  /** True on the follower's first message. */
  firstTurn: boolean;
}

/**
 * Answers one turn without an LLM. When a file is sent or listed, the engine adds the file's
 * sentence or the list itself; this reply covers the rest.
 */
export function offlineReply(input: OfflineInput): string {
  const t = OFFLINE_TEXTS[input.lang];
  const a = input.container.analisisInterno;
  const action = input.container.archivos.action;
  if (action === 'SEND' || action === 'LIST') return '';
  const alreadySent =
    a.alertas.length > 0 && a.archivoMencionado && a.archivosEnviados.includes(a.archivoMencionado.id);
  if (alreadySent && a.archivoMencionado) {
    const state = input.container.estadoEmpatico.estado;
    const opener = state === 'neutral' ? '' : `${OFFLINE_OPENERS[input.lang][state]} `;
    return opener + fill(t.already, { file: a.archivoMencionado.file_name });
  }
  const parts: string[] = [];
  const state = input.container.estadoEmpatico.estado;
  if (state !== 'neutral') parts.push(OFFLINE_OPENERS[input.lang][state]);
  if (input.firstTurn) {
    parts.push(greeting(input.lang, input.businessName));
    const about = firstSentence(input.businessDescription);
    if (about) parts.push(about);
  } else {
    parts.push(fill(t.intro, { business: input.businessName }));
  }
  const keywords = input.files
    .map((f) => f.keyword.split(',')[0]?.trim())
    .filter((k): k is string => Boolean(k));
  parts.push(
    keywords.length > 0
      ? fill(t.files, { list: keywords.join(', ') })
      : input.firstTurn
        ? t.contact
        : t.noFiles,
  );
  return parts.join(' ');
}
