/**
 * Writing what was read from a file into the index (issue 30 §1, §2): the page texts
 * (`chatbot_file_pages`), the passages with their full-text vectors (`chatbot_file_passages`) and
 * the reading's state (`chatbot_file_texts`); migrations/202611291200_file_passages.ts.
 *
 * - One transaction per file: its old pages and passages are deleted first, so indexing the same
 *   file twice (a retried job, a corrected page) leaves one copy.
 * - `tsv = to_tsvector(lang_config, heading || ' ' || text)` with the bot's language
 *   configuration ({@link langConfig}); retrieval (./retrieve.ts) reads `lang_config` back so the
 *   query is normalised the same way.
 * - Limits: {@link MAX_CHARS_PER_BOT} characters of text per bot (all its files together); a file
 *   that would pass it keeps the pages that fit and ends `too_large` / `too_many_chars`. A PDF
 *   longer than extract.ts `MAX_PAGES_PER_FILE` keeps its first pages and ends `too_large` /
 *   `too_many_pages`. Either way the kept pages are searchable.
 */
import { type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import type { LangCode } from '../schemas.ts';
import type { ChatbotFileTextsTable, Database, FileTextState } from '../store/database.ts';
import { chunkPages } from './chunk.ts';
import type { PageText, ReadErrorCode } from './extract.ts';

export { MAX_PAGES_PER_FILE, type PageText, type ReadErrorCode } from './extract.ts';

/** Most characters of text kept per bot, all its files together (about 400 pages of prose). */
export const MAX_CHARS_PER_BOT = 1_000_000;
/** Longest text of one page the owner may save, characters. */
export const MAX_PAGE_CHARS = 50_000;

/**
 * PostgreSQL text search configuration of each bot language. Every one exists on PostgreSQL 14+
 * and on PGlite (checked with `pg_ts_config`). Hindi uses `simple` (lower-casing, no stemming):
 * the `hindi` snowball configuration only exists from PostgreSQL 17.
 */
const LANG_CONFIGS: Record<LangCode, string> = {
  es: 'spanish',
  en: 'english',
  fr: 'french',
  de: 'german',
  it: 'italian',
  ru: 'russian',
  hi: 'simple',
};

/**
 * The `regconfig` name passages of a bot in `lang` are indexed with (issue 30 §2): es→spanish,
 * en→english, fr→french, de→german, it→italian, ru→russian, hi→simple; anything else→simple.
 */
export function langConfig(lang: LangCode): string {
  return LANG_CONFIGS[lang] ?? 'simple';
}

/** The language whose configuration {@link langConfig} gives `config` (`simple` is Hindi's). */
export function langOfConfig(config: string): LangCode | undefined {
  return (Object.keys(LANG_CONFIGS) as LangCode[]).find((l) => LANG_CONFIGS[l] === config);
}

/** What {@link indexPages} writes for one file. */
export interface IndexInput {
  fileId: string;
  chatbotId: string;
  lang: LangCode;
  pages: readonly PageText[];
  /** The file's page count (a PDF's, even when not all were read). */
  pagesTotal: number;
  /** Set when the reading stopped early (too many pages); the state is then `too_large`. */
  truncatedCode?: ReadErrorCode | null;
  /** True when the owner corrected a page: `edited_at` is set to now. */
  edited?: boolean;
}

/** Characters of text the bot's other files already hold. */
async function otherChars(trx: Transaction<Database>, chatbotId: string, fileId: string): Promise<number> {
  const row = await trx
    .selectFrom('chatbot_file_texts')
    .select(sql<number>`coalesce(sum(chars), 0)::int`.as('chars'))
    .where('chatbot_id', '=', chatbotId)
    .where('file_id', '<>', fileId)
    .executeTakeFirst();
  return Number(row?.chars ?? 0);
}

/** The pages that fit in `room` characters (the last one cut at a word), and whether any was cut. */
function fitPages(pages: readonly PageText[], room: number): { kept: PageText[]; cut: boolean } {
  const kept: PageText[] = [];
  let left = Math.max(0, room);
  for (const p of pages) {
    if (p.text.length <= left) {
      kept.push(p);
      left -= p.text.length;
      continue;
    }
    const part = p.text.slice(0, left).replace(/\s+\S*$/, '');
    if (part) kept.push({ page: p.page, text: part });
    return { kept, cut: true };
  }
  return { kept, cut: false };
}

/**
 * Replaces a file's pages and passages and records its state, in one transaction. Nothing happens
 * when the file was deleted meanwhile (its row is gone: the job's work is moot).
 * @returns the state written (`ready`, `too_large`, or `no_text` when every page is empty).
 */
export async function indexPages(db: Kysely<Database>, input: IndexInput): Promise<FileTextState | null> {
  const config = langConfig(input.lang);
  return db.transaction().execute(async (trx) => {
    const file = await trx
      .selectFrom('chatbot_files')
      .select('id')
      .where('id', '=', input.fileId)
      .forUpdate()
      .executeTakeFirst();
    if (!file) return null;
    await trx.deleteFrom('chatbot_file_passages').where('file_id', '=', input.fileId).execute();
    await trx.deleteFrom('chatbot_file_pages').where('file_id', '=', input.fileId).execute();
    const room = MAX_CHARS_PER_BOT - (await otherChars(trx, input.chatbotId, input.fileId));
    const { kept, cut } = fitPages(input.pages, room);
    if (kept.length > 0)
      await trx
        .insertInto('chatbot_file_pages')
        .values(kept.map((p) => ({ file_id: input.fileId, page: p.page, text: p.text })))
        .execute();
    const chunks = chunkPages(kept);
    for (let i = 0; i < chunks.length; i += 200) {
      await trx
        .insertInto('chatbot_file_passages')
        .values(
          chunks.slice(i, i + 200).map((c) => ({
            chatbot_id: input.chatbotId,
            file_id: input.fileId,
            page: c.page,
            position: c.position,
            heading: c.heading,
            text: c.text,
            lang_config: config,
            tsv: sql<string>`to_tsvector(${config}::regconfig, ${`${c.heading} ${c.text}`})`,
          })),
        )
        .execute();
    }
    const chars = kept.reduce((n, p) => n + p.text.length, 0);
    const code: ReadErrorCode | null = cut ? 'too_many_chars' : (input.truncatedCode ?? null);
    const state: FileTextState = code ? 'too_large' : chars === 0 ? 'no_text' : 'ready';
    await writeState(trx, {
      fileId: input.fileId,
      chatbotId: input.chatbotId,
      state,
      pagesDone: kept.length === 0 ? input.pages.length : kept.at(-1)!.page,
      pagesTotal: input.pagesTotal,
      chars,
      errorCode: code ?? (state === 'no_text' ? 'scanned' : null),
      ...(input.edited ? { editedAt: new Date() } : {}),
    });
    return state;
  });
}

/**
 * Re-indexes a bot's passages with the configuration of its (new) language (issue 30 §2: a bot
 * whose language changed searches with the new stemmer). One statement; passages already in that
 * configuration are left alone, so calling it again writes nothing.
 * @returns the passages rewritten.
 */
export async function relanguageBot(
  db: Kysely<Database>,
  chatbotId: string,
  lang: LangCode,
): Promise<number> {
  const config = langConfig(lang);
  const result = await db
    .updateTable('chatbot_file_passages')
    .set({
      lang_config: config,
      tsv: sql<string>`to_tsvector(${config}::regconfig, heading || ' ' || text)`,
    })
    .where('chatbot_id', '=', chatbotId)
    .where('lang_config', '<>', config)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A reading state to record (fields left out keep their value; a new row gets the defaults). */
export interface StatePatch {
  fileId: string;
  chatbotId: string;
  state: FileTextState;
  pagesDone?: number;
  pagesTotal?: number | null;
  chars?: number;
  errorCode?: string | null;
  editedAt?: Date | null;
}

/** Inserts or updates a file's `chatbot_file_texts` row. */
export async function writeState(db: Kysely<Database>, patch: StatePatch): Promise<void> {
  const values: Omit<Updateable<ChatbotFileTextsTable>, 'updated_at'> = { state: patch.state };
  if (patch.pagesDone !== undefined) values.pages_done = patch.pagesDone;
  if (patch.pagesTotal !== undefined) values.pages_total = patch.pagesTotal;
  if (patch.chars !== undefined) values.chars = patch.chars;
  if (patch.errorCode !== undefined) values.error_code = patch.errorCode;
  if (patch.editedAt !== undefined) values.edited_at = patch.editedAt;
  await db
    .insertInto('chatbot_file_texts')
    .values({ file_id: patch.fileId, chatbot_id: patch.chatbotId, pages_total: null, ...values })
    .onConflict((oc) => oc.column('file_id').doUpdateSet({ ...values, updated_at: sql<Date>`now()` }))
    .execute();
}

/**
 * Records a state without pages (`no_text`, `unsupported`, `failed`): the file's pages and passages
 * are removed, so nothing stale is searched. Nothing happens when the file was deleted meanwhile.
 */
export async function clearWithState(
  db: Kysely<Database>,
  patch: StatePatch & { state: 'no_text' | 'unsupported' | 'failed' },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const file = await trx
      .selectFrom('chatbot_files')
      .select('id')
      .where('id', '=', patch.fileId)
      .executeTakeFirst();
    if (!file) return;
    await trx.deleteFrom('chatbot_file_passages').where('file_id', '=', patch.fileId).execute();
    await trx.deleteFrom('chatbot_file_pages').where('file_id', '=', patch.fileId).execute();
    await writeState(trx, { chars: 0, ...patch });
  });
}

/** A file's reading state, as the owner routes show it. */
export interface FileTextStatus {
  fileId: string;
  state: FileTextState;
  pagesDone: number;
  pagesTotal: number | null;
  chars: number;
  errorCode: string | null;
  editedAt: string | null;
}

/** The reading states of a bot's files (files never read have no entry). */
export async function textStates(db: Kysely<Database>, chatbotId: string): Promise<FileTextStatus[]> {
  const rows = await db
    .selectFrom('chatbot_file_texts')
    .selectAll()
    .where('chatbot_id', '=', chatbotId)
    .execute();
  return rows.map((r) => ({
    fileId: r.file_id,
    state: r.state,
    pagesDone: r.pages_done,
    pagesTotal: r.pages_total,
    chars: r.chars,
    errorCode: r.error_code,
    editedAt: r.edited_at ? new Date(r.edited_at).toISOString() : null,
  }));
}

/** The page texts of one file, in order. */
export async function pageTexts(db: Kysely<Database>, fileId: string): Promise<PageText[]> {
  return db
    .selectFrom('chatbot_file_pages')
    .select(['page', 'text'])
    .where('file_id', '=', fileId)
    .orderBy('page')
    .execute();
}
