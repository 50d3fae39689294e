/**
 * Keyword matching: which of a bot's files a follower's message asks for.
 *
 * Rules (spec 001 §5, web chat; the issue fixes the 3-character floor of pass 2):
 *  0. When the previous turn offered a list (`archivosMostrados`), a message that picks one by its
 *     number ("2", "el 2", "#2") or by its name sends that file.
 *  1. Exact: the message, trimmed and case-folded, equals one whole keyword of the file.
 *  2. Partial: a comma-separated keyword part is contained in the message, or contains the
 *     message when the message has at least 3 characters.
 *  3. Fuzzy: with spaces, punctuation and accents removed, a keyword part or the file's context
 *     contains or is contained in the message, the shorter side at least 3 characters.
 * The first pass with results wins. One file gives SEND; several give LIST (offer them).
 * A file already sent in this conversation is not sent again unless asked for by name
 * (pass 1, or the message names the file).
 */

/** The fields of a file matching reads. */
export interface MatchableFile {
  id: string;
  file_name: string;
  keyword: string;
  context: string;
}

/** Which rule found the files. */
export type MatchPass = 'pick' | 'exact' | 'partial' | 'fuzzy' | 'none';

/** Result of {@link matchFiles}. */
export interface MatchResult<F extends MatchableFile> {
  /** SEND one file, LIST several, or NONE. */
  action: 'SEND' | 'LIST' | 'NONE';
  /** The file to send (SEND) or the files to offer (LIST), in the bot's file order. */
  files: F[];
  pass: MatchPass;
  /** Files the message asked for that were already sent and are not sent again. */
  alreadySent: F[];
}

/** Minimum length of the shorter side for "the keyword contains the message" and fuzzy matches. */
export const FUZZY_MIN_LENGTH = 3;

const QUOTES = /["'`´‘’‚‛“”„‟«»‹›]/g;

/**
 * A keyword list as the owner types it (spec 000 §5: quotes stripped, one word per keyword): quotes
 * dropped and every run of spaces and commas turned into one comma, so "taza grande" reads
 * "taza,grande" (two keywords) instead of being glued into "tazagrande". Case and a trailing comma
 * are kept, so typing can go on; {@link normalizeKeywords} gives the stored form. The dashboard's
 * keyword field uses this, so the owner sees what will be stored.
 */
export function keywordInput(value: string): string {
  return value
    .replace(QUOTES, '')
    .replace(/[\s,]*,[\s,]*|\s+/g, ',')
    .replace(/^,+/, '');
}

/**
 * The keywords of a list as stored (spec 000 §5): quotes stripped, split on commas and on
 * whitespace (each word is one keyword; a multi-word entry is never glued into one word),
 * lowercase, without empty or repeated parts, in the order given.
 * `' "Menú", Carta ,, precios '` → `['menú', 'carta', 'precios']`; `'taza grande'` → `['taza', 'grande']`.
 */
export function splitKeywords(input: string): string[] {
  const seen = new Set<string>();
  for (const part of input.replace(QUOTES, '').split(/[\s,]+/)) {
    const word = part.toLowerCase();
    if (word) seen.add(word);
  }
  return [...seen];
}

/**
 * Normalises a keyword list on save: {@link splitKeywords} joined with commas.
 * `' "Menú", Carta ,, precios '` → `'menú,carta,precios'`; `'taza grande'` → `'taza,grande'`.
 */
export function normalizeKeywords(input: string): string {
  return splitKeywords(input).join(',');
}

/** Splits a stored keyword list into trimmed, lowercase parts (empty parts dropped). */
export function keywordParts(keyword: string): string[] {
  return keyword
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
}

/** Lowercases and strips accents (NFD, combining marks removed): "Menú" → "menu". */
export function foldAccents(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Letters NFD does not decompose, spelled in ASCII. */
const ASCII_LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  þ: 'th',
  ı: 'i',
};

/**
 * {@link foldAccents}, then the Latin letters NFD leaves whole spelled in ASCII ("Straße" →
 * "strasse", "Łódź" → "lodz"). Other scripts stay as they are.
 */
export function foldToAscii(text: string): string {
  return foldAccents(text).replace(/[ßæœøłđþı]/g, (c) => ASCII_LETTERS[c] ?? c);
}

/** The fuzzy form of pass 3: accents, spaces and punctuation removed. "¿La Carta?" → "lacarta". */
export function fuzzyForm(text: string): string {
  return foldAccents(text).replace(/[^\p{L}\p{N}]/gu, '');
}

/** The message as pass 1 compares it: trimmed, lowercase, surrounding punctuation removed. */
function exactForm(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu, '');
}

/** The file name without its upload timestamp and extension, in fuzzy form: "1732_menu_del_dia.pdf" → "menudeldia". */
function nameStem(fileName: string): string {
  return fuzzyForm(fileName.replace(/^\d{10,}_/, '').replace(/\.[a-z0-9]{2,5}$/i, ''));
}

/** A message in the forms the passes compare. */
interface MessageForms {
  raw: string;
  exact: string;
  lower: string;
  fuzzy: string;
}

/** A file's keyword, context and name in the forms the passes compare (memoised: files change rarely). */
interface FileForms {
  exactKeyword: string;
  parts: string[];
  fuzzy: string[];
  stem: string;
}

const fileFormsMemo = new Map<string, FileForms>();
/**
 * The forms by file object: the engine's files come from the bot cache and stay the same objects
 * until the bot or its files change, so a turn finds each file's forms without building its key.
 */
const fileFormsByObject = new WeakMap<
  MatchableFile,
  { keyword: string; context: string; file_name: string; forms: FileForms }
>();

function messageForms(message: string): MessageForms {
  return {
    raw: message,
    exact: exactForm(message),
    lower: message.trim().toLowerCase(),
    fuzzy: fuzzyForm(message),
  };
}

function fileForms(file: MatchableFile): FileForms {
  const known = fileFormsByObject.get(file);
  // The fields are compared (the same strings: a pointer check), not trusted: a caller may edit
  // a file object it passed before.
  if (
    known &&
    known.keyword === file.keyword &&
    known.context === file.context &&
    known.file_name === file.file_name
  )
    return known.forms;
  const key = `${file.keyword}\u0000${file.context}\u0000${file.file_name}`;
  let forms = fileFormsMemo.get(key);
  if (!forms) {
    const parts = keywordParts(file.keyword);
    forms = {
      exactKeyword: exactForm(file.keyword),
      parts,
      fuzzy: [...parts, file.context].map(fuzzyForm).filter(Boolean),
      stem: nameStem(file.file_name),
    };
    if (fileFormsMemo.size >= 5000) fileFormsMemo.clear();
    fileFormsMemo.set(key, forms);
  }
  fileFormsByObject.set(file, {
    keyword: file.keyword,
    context: file.context,
    file_name: file.file_name,
    forms,
  });
  return forms;
}

/** True when the message names the file (its name stem, at least 3 characters, appears in it). */
function namesFile(m: MessageForms, file: MatchableFile): boolean {
  const { stem } = fileForms(file);
  return stem.length >= FUZZY_MIN_LENGTH && m.fuzzy.includes(stem);
}

function exactMatch(m: MessageForms, file: MatchableFile): boolean {
  if (!m.exact) return false;
  const f = fileForms(file);
  return f.exactKeyword === m.exact || f.parts.some((p) => p === m.exact);
}

function partialMatch(m: MessageForms, file: MatchableFile): boolean {
  if (!m.lower) return false;
  return fileForms(file).parts.some(
    (part) => m.lower.includes(part) || (m.lower.length >= FUZZY_MIN_LENGTH && part.includes(m.lower)),
  );
}

function fuzzyMatch(m: MessageForms, file: MatchableFile): boolean {
  if (!m.fuzzy) return false;
  return fileForms(file).fuzzy.some(
    (c) =>
      Math.min(c.length, m.fuzzy.length) >= FUZZY_MIN_LENGTH && (c.includes(m.fuzzy) || m.fuzzy.includes(c)),
  );
}

/**
 * Reads a pick from an offered list: a number from 1 to `count` alone or with a few words
 * ("2", "el 2", "número 2", "nº 2", "el 2º", "#2", "2."). Returns the 0-based index or -1.
 */
export function pickIndex(message: string, count: number): number {
  // Ordinal indicators are letters to Unicode; drop them so "nº 2", "n.º 2", "el 2º", "la 2ª" read as 2.
  const text = foldAccents(message.trim()).replace(/[ºª]/g, '');
  if (text.length > 24) return -1;
  const numbers = text.match(/\d+/g);
  if (numbers?.length !== 1) return -1;
  const n = Number(numbers[0]);
  const rest = text
    .replace(/\d+/, '')
    .replace(/[^\p{L}]+/gu, ' ')
    .trim();
  const fillers = new Set([
    '',
    'el',
    'la',
    'numero',
    'opcion',
    'num',
    'no',
    'n',
    'quiero',
    'the',
    'number',
    'option',
    'le',
    'il',
    'nummer',
    'option',
    'der',
    'die',
    'das',
  ]);
  const words = rest.split(/\s+/).filter(Boolean);
  if (!words.every((w) => fillers.has(w))) return -1;
  return n >= 1 && n <= count ? n - 1 : -1;
}

/**
 * Finds the files a message asks for.
 * @param files the bot's files, in display order (the order LIST numbers them).
 * @param options.offered files offered by the previous LIST (`archivosMostrados`), by id.
 * @param options.sent ids or file names already sent in this conversation (`archivosEnviados`).
 */
export function matchFiles<F extends MatchableFile>(
  message: string,
  files: readonly F[],
  options: { offered?: readonly string[]; sent?: readonly string[] } = {},
): MatchResult<F> {
  const m = messageForms(message);
  const sent = new Set(options.sent ?? []);
  const wasSent = (f: F) => sent.has(f.id) || sent.has(f.file_name);

  const offered = (options.offered ?? [])
    .map((id) => files.find((f) => f.id === id || f.file_name === id))
    .filter((f): f is F => Boolean(f));
  if (offered.length > 0) {
    const index = pickIndex(message, offered.length);
    const picked =
      index >= 0
        ? offered[index]
        : (offered.find((f) => namesFile(m, f) || exactMatch(m, f)) ??
          (() => {
            const partial = offered.filter((f) => partialMatch(m, f));
            return partial.length === 1 ? partial[0] : undefined;
          })());
    if (picked) return { action: 'SEND', files: [picked], pass: 'pick', alreadySent: [] };
  }

  const passes: Array<[MatchPass, (f: F) => boolean]> = [
    ['exact', (f) => exactMatch(m, f)],
    ['partial', (f) => partialMatch(m, f)],
    ['fuzzy', (f) => fuzzyMatch(m, f)],
  ];
  for (const [pass, test] of passes) {
    const found = files.filter(test);
    if (found.length === 0) continue;
    const askedByName = (f: F) => pass === 'exact' || namesFile(m, f);
    const fresh = found.filter((f) => !wasSent(f) || askedByName(f));
    const alreadySent = found.filter((f) => !fresh.includes(f));
    if (fresh.length === 0) return { action: 'NONE', files: [], pass, alreadySent };
    return { action: fresh.length === 1 ? 'SEND' : 'LIST', files: fresh, pass, alreadySent };
  }
  return { action: 'NONE', files: [], pass: 'none', alreadySent: [] };
}
