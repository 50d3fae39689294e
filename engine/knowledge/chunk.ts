/**
 * Cutting a file's pages into the passages the bot searches (issue 30 §2): by page and heading,
 * {@link TARGET_WORDS}–{@link MAX_WORDS} words each, the last {@link OVERLAP_SENTENCES} sentence(s)
 * of a passage repeated at the start of the next one of the same section, so an answer that
 * straddles a cut is still whole in one passage. Works on plain text only (what the owner sees and
 * corrects), so a corrected page is cut exactly like a read one.
 *
 * A heading is a Markdown heading (`# Carta`), or a short line (at most {@link HEADING_MAX_WORDS}
 * words, no final `.`, `:`, `;` or `,`) that is no list item and is followed by body text:
 * "Postres", "2. Horarios". List items ("* El acoso en público o privado") stay in the body.
 */
import type { PageText } from './extract.ts';

/** A passage is closed once it reaches this many words (at a sentence's end). */
export const TARGET_WORDS = 80;
/** A passage never grows past this many words: a longer sentence is cut at a word. */
export const MAX_WORDS = 160;
/** Sentences carried from the end of one passage to the start of the next (same page and heading). */
export const OVERLAP_SENTENCES = 1;
/** Longest line taken for a heading, words. */
const HEADING_MAX_WORDS = 8;

/** One passage, in reading order (`position` from 0 within the file). */
export interface Chunk {
  page: number;
  position: number;
  /** The section's heading ('' before the first one). */
  heading: string;
  text: string;
}

/** Words of a string (split on whitespace). */
function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** A list item: a line starting with a bullet (`•`, `-`, `*`, `–`, `·`, `●`, `▪`) or `1)`. */
const LIST_ITEM = /^([•\-*–·●▪◦]|\d+\))\s*/u;

/**
 * True when `line` is body text a heading can stand over: not a list item, and a sentence (ends in
 * `.`, `!`, `?`, `…`, `:` or `;`), a line longer than a heading, or a table row ending in a number
 * or price ("Margarita 9,50 €"). A short line without punctuation is a list item whose bullet the PDF
 * lost ("El acoso en público o privado"), so the line above it is no heading either (issue 30 §2).
 */
function isBody(line: string): boolean {
  if (LIST_ITEM.test(line)) return false;
  return /[.!?…։।:;]$/u.test(line) || wordCount(line) > HEADING_MAX_WORDS || /\d\s*[€$£%]?$/u.test(line);
}

/** True when `line` reads as a heading, given the line after it: see {@link isBody}. */
function isHeading(line: string, next: string | undefined): boolean {
  if (/^#{1,6}\s+\S/.test(line)) return true;
  const words = wordCount(line);
  if (words === 0 || words > HEADING_MAX_WORDS || /[.:;,]$/.test(line) || LIST_ITEM.test(line)) return false;
  // Letters needed; a price or a number at the end is a table row ("Pizza margarita 9,50 €").
  if (!/\p{L}/u.test(line) || /\d\s*[€$£%]?$/u.test(line)) return false;
  // Starts like a title ("Postres", "2.1. Horarios"), not like a path or a wrapped line.
  if (!/^[\p{Lu}\p{Lo}\d]/u.test(line)) return false;
  return next !== undefined && isBody(next);
}

/** Fewest words of a line that a PDF wrapped in the middle of a sentence (shorter: a row, a list item). */
const WRAPPED_LINE_WORDS = 6;

/**
 * Splits a section's lines into sentences: at end punctuation followed by a space, and at a line
 * break that ends something (a short line such as a menu row, a line ending in punctuation, a line
 * before a bullet or a number). Other line breaks are a PDF wrapping a sentence: joined with a space.
 */
export function sentences(lines: readonly string[]): string[] {
  const out: string[] = [];
  let run = '';
  lines.forEach((line, i) => {
    run = run ? `${run} ${line}` : line;
    const next = lines[i + 1];
    const ends =
      next === undefined ||
      wordCount(line) < WRAPPED_LINE_WORDS ||
      /[.!?…։।:;]$/u.test(line) ||
      /^([•\-*–·]|\d+[.)]\s)/u.test(next);
    if (!ends) return;
    out.push(...run.split(/(?<=[.!?…։।])\s+/u));
    run = '';
  });
  return out.map((s) => s.trim()).filter(Boolean);
}

/** A sentence longer than {@link MAX_WORDS} cut into pieces of that many words. */
function pieces(sentence: string): string[] {
  const words = sentence.split(/\s+/).filter(Boolean);
  if (words.length <= MAX_WORDS) return [sentence];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += MAX_WORDS) out.push(words.slice(i, i + MAX_WORDS).join(' '));
  return out;
}

/** The sections of one page: each heading with the lines under it. */
function sections(text: string, carried: string): Array<{ heading: string; body: string[] }> {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const out: Array<{ heading: string; body: string[] }> = [{ heading: carried, body: [] }];
  lines.forEach((line, i) => {
    if (isHeading(line, lines[i + 1])) out.push({ heading: line.replace(/^#{1,6}\s+/, ''), body: [] });
    else out[out.length - 1]!.body.push(line);
  });
  return out.filter((s) => s.body.length > 0);
}

/**
 * Cuts pages into passages. A page's first section keeps the heading the previous page ended under
 * (a menu's "Pizzas" continues on page 3).
 * @returns the passages in reading order, `position` 0, 1, 2… across the whole file.
 */
export function chunkPages(pages: readonly PageText[]): Chunk[] {
  const out: Chunk[] = [];
  let heading = '';
  for (const { page, text } of pages) {
    const found = sections(text, heading);
    for (const section of found) {
      heading = section.heading;
      const all = sentences(section.body).flatMap(pieces);
      let current: string[] = [];
      let words = 0;
      let fresh = 0; // sentences in `current` not carried over from the passage before
      const close = () => {
        if (fresh === 0) return;
        out.push({ page, position: out.length, heading, text: current.join(' ') });
        current = current.slice(-OVERLAP_SENTENCES);
        words = wordCount(current.join(' '));
        fresh = 0;
      };
      for (const sentence of all) {
        const n = wordCount(sentence);
        if (words + n > MAX_WORDS && fresh > 0) close();
        if (words + n > MAX_WORDS) {
          current = [];
          words = 0;
        }
        current.push(sentence);
        words += n;
        fresh += 1;
        if (words >= TARGET_WORDS) close();
      }
      close();
    }
    const last = found.at(-1);
    if (last) heading = last.heading;
  }
  return out;
}
