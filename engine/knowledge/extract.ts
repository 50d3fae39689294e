/**
 * Reading the text inside an owner's file (issue 30 §1 "Extraction"), page by page.
 *
 * - **PDF**: `unpdf` 1.7 (MIT; the serverless build of Mozilla's pdf.js 5, Apache-2.0), chosen over
 *   `pdfjs-dist` and `mupdf` after reading the same real PDFs with the three (a two-column paper,
 *   a tax form full of table cells, the freedesktop MIME spec with its tables): pdf.js and mupdf
 *   both follow columns correctly; pdf.js keeps a table's row on one line ("2 A) rémunérations
 *   brutes 2) H) désignation…") where mupdf breaks every cell onto its own line, which is what a
 *   menu's "Pizza margarita … 9,50 €" needs to stay one passage. unpdf ships pdf.js without a worker
 *   or canvas (2 MB, pure JS, no native build) and is kept by the unjs project; `pdfjs-dist` is the
 *   same engine with 40 MB of browser builds around it; `mupdf` is 14 MB of WebAssembly under the
 *   AGPL. A page with no text items gives ''; a PDF whose pages all give '' has no text layer
 *   (scanned): state `no_text`.
 * - **Documents** (issue 30 §1 "plain text and Markdown, DOCX if cheap"): .txt and .md as they are
 *   (UTF-8; Markdown's `#` headings make the passages' headings, ./chunk.ts); .docx through `mammoth`
 *   1.13 (BSD-2, pure JS, its `extractRawText`: the paragraphs' text, no layout), as page 1; a
 *   document with no words is `no_text` / `empty`.
 * - **Audio and video**: the transcript of the configured speech-to-text server (the voice plugin's
 *   `CHARLA_STT_BASE_URL` client, reached through the registry's `transcriber()`), as page 1;
 *   without one, `unsupported` / `no_speech_server`.
 * - **Images**: no OCR. tesseract.js downloads its language data at run time, which a self-hosted
 *   server may not be allowed to do: `unsupported` / `image_no_ocr`.
 */
import type { FileType } from '../schemas.ts';

/** Most pages read from one file; a longer PDF keeps its first pages and ends `too_large`. */
export const MAX_PAGES_PER_FILE = 300;

/** The text of one page (1-based). */
export interface PageText {
  page: number;
  text: string;
}

/** Why a file's text could not be read: the codes the dashboard translates (`knowledge.errors.*`). */
export type ReadErrorCode =
  | 'scanned'
  | 'image_no_ocr'
  | 'no_speech_server'
  | 'transcription_failed'
  | 'silent'
  | 'unreadable'
  | 'missing'
  | 'too_many_pages'
  | 'too_many_chars'
  | 'empty';

/**
 * Transcribes a recording (the voice plugin's OpenAI-format `/audio/transcriptions` client).
 * @param audio the file's bytes; `mime` its type; `language` a two-letter hint.
 * @returns the words heard (may be empty).
 */
export type Transcribe = (audio: Buffer, mime: string | null, language?: string) => Promise<string>;

/** What reading a file gave: pages, or a state with its code. */
export type ReadOutcome =
  | { kind: 'pages'; pages: PageText[]; pagesTotal: number; truncated: boolean }
  | { kind: 'unsupported' | 'no_text'; code: ReadErrorCode };

/**
 * A text without leader dots, the rows of dots (or underscores) menus and price lists put between
 * a dish and its price: four or more in a row become a space before a price ("Arroz con pato
 * ...... 14,50 €") and a line break elsewhere ("Arroz con pato 14,50 €...... Merluza…": the row
 * ended an entry); an ellipsis stays.
 */
export function dropLeaders(text: string): string {
  return text.replace(LEADERS_BEFORE_PRICE, ' ').replace(LEADERS, '\n');
}
const LEADERS = / ?(?:[.·…_] ?){4,}/g;
const LEADERS_BEFORE_PRICE = / ?(?:[.·…_] ?){4,}(?=\s*[\d€$£₹₽])/g;

/** Collapses a page's runs of spaces and blank lines, keeping paragraph breaks; drops leader dots. */
export function tidyText(text: string): string {
  return dropLeaders(text)
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Reads a PDF's pages with unpdf, calling `onPage(done, total)` after each one (the file card's
 * "Leyendo… 12/40 páginas").
 * @param bytes the whole PDF.
 * @returns the pages read (at most {@link MAX_PAGES_PER_FILE}), the PDF's page count, and whether
 *   pages were left out.
 * @throws pdf.js's error when the bytes are no readable PDF (damaged, encrypted).
 */
export async function readPdf(
  bytes: Uint8Array,
  onPage?: (done: number, total: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<{ pages: PageText[]; pagesTotal: number; truncated: boolean }> {
  const { getDocumentProxy } = await import('unpdf');
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const total = pdf.numPages;
    const count = Math.min(total, MAX_PAGES_PER_FILE);
    const pages: PageText[] = [];
    for (let n = 1; n <= count; n++) {
      signal?.throwIfAborted();
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const raw = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
        .join('');
      pages.push({ page: n, text: tidyText(raw) });
      page.cleanup();
      await onPage?.(n, total);
    }
    return { pages, pagesTotal: total, truncated: total > count };
  } finally {
    await pdf.destroy();
  }
}

/** What {@link readFile} needs besides the bytes. */
export interface ReadFileInput {
  fileType: FileType;
  mime: string | null;
  bytes: Buffer;
  /** The bot's language code, a hint for the transcription. */
  language: string;
  /** The speech-to-text server, or null when none is configured. */
  transcribe: Transcribe | null;
  onPage?: (done: number, total: number) => Promise<void>;
  signal?: AbortSignal;
}

/**
 * The text of a document: a .docx's paragraphs through mammoth, a text file's bytes as UTF-8.
 * @throws mammoth's error when a .docx is damaged (the job records `failed` / `unreadable`).
 */
export async function readDocument(bytes: Buffer, mime: string | null): Promise<string> {
  if (mime?.includes('officedocument.wordprocessingml')) {
    // A CommonJS module: its functions are on `default` in the bundle (dist/charla.mjs), on the
    // namespace under tsx and vitest.
    const loaded = await import('mammoth');
    const mammoth = (
      'extractRawText' in loaded ? loaded : (loaded as { default: typeof loaded }).default
    ) as typeof loaded;
    return (await mammoth.extractRawText({ buffer: bytes })).value;
  }
  return new TextDecoder('utf-8').decode(bytes);
}

/**
 * Reads the text of any bot file (see the module's notes per type).
 * @throws the library's or the server's error when a PDF is unreadable or a transcription failed
 *   (the job records `failed` with a code after its last attempt).
 */
export async function readFile(input: ReadFileInput): Promise<ReadOutcome> {
  if (input.fileType === 'pdf') {
    const read = await readPdf(input.bytes, input.onPage, input.signal);
    if (read.pages.every((p) => p.text === '')) return { kind: 'no_text', code: 'scanned' };
    return { kind: 'pages', ...read };
  }
  if (input.fileType === 'document') {
    await input.onPage?.(0, 1);
    const text = tidyText(await readDocument(input.bytes, input.mime));
    await input.onPage?.(1, 1);
    if (!text) return { kind: 'no_text', code: 'empty' };
    return { kind: 'pages', pages: [{ page: 1, text }], pagesTotal: 1, truncated: false };
  }
  if (input.fileType === 'image') return { kind: 'unsupported', code: 'image_no_ocr' };
  if (!input.transcribe) return { kind: 'unsupported', code: 'no_speech_server' };
  await input.onPage?.(0, 1);
  const text = tidyText(await input.transcribe(input.bytes, input.mime, input.language));
  await input.onPage?.(1, 1);
  if (!text) return { kind: 'no_text', code: 'silent' };
  return { kind: 'pages', pages: [{ page: 1, text }], pagesTotal: 1, truncated: false };
}
