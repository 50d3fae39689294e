/**
 * The labelled documents of bench/knowledge-data, cut into pages and passages and stored for a bot
 * as the extraction job stores them (issue 30 §2: `chatbot_file_passages` with their tsvector), so
 * the bench (bench/knowledge.ts) and the retrieval test (test/knowledge-retrieval.test.ts) search
 * real text without the job: pages of about {@link PAGE_CHARS} characters of whole paragraphs, cut
 * into passages by the indexer's cutter (engine/knowledge/chunk.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { type Chunk, chunkPages } from '../engine/knowledge/chunk.ts';
import type { PageText } from '../engine/knowledge/extract.ts';
import { langConfig } from '../engine/knowledge/index.ts';
import type { Database } from '../engine/store/database.ts';

/** Folder of the documents and questions. */
export const DATA_DIR = join(import.meta.dirname, 'knowledge-data');
/** Characters of a page. */
export const PAGE_CHARS = 2_500;

/** The text search configuration of each language of the set (the bot's language). */
export const CONFIGS = { es: langConfig('es'), en: langConfig('en') } as const;

/** One labelled question. */
export interface Question {
  lang: 'es' | 'en';
  /** File name in {@link DATA_DIR}. */
  doc: string;
  q: string;
  /** An exact excerpt of the answering sentence. */
  answer: string;
  /** The same fact where the documents state it again (either counts). */
  also?: string[];
}

/**
 * The business a document belongs to: the bench's small bots hold one business's files each, as an
 * owner's bot does (the product's two spec documents are one; every other document is its own: a
 * clinic's leaflet, a club's rules, a pool's regulation). The big bots hold every document of their
 * language among the filler.
 */
export const businessOf = (doc: string) => (doc.startsWith('spec-') ? 'spec' : doc.replace(/\.[a-z.]+$/, ''));

/** True when a text holds the question's answer (or one of its restatements). */
export function holdsAnswer(text: string, q: Question): boolean {
  const have = squash(text);
  return [q.answer, ...(q.also ?? [])].some((a) => have.includes(squash(a)));
}

/** Whitespace collapsed, for comparing excerpts. */
export const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The questions of the set. */
export function questions(): Question[] {
  return JSON.parse(readFileSync(join(DATA_DIR, 'questions.json'), 'utf8')) as Question[];
}

/** A document of the set. */
export function documentText(name: string): string {
  return readFileSync(join(DATA_DIR, name), 'utf8');
}

/** Paragraphs of a text: blank lines and list items start one; indented lines continue one. */
function paragraphs(text: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    if (!line.trim()) {
      if (current) out.push(current);
      current = '';
    } else if (/^\s{2,}\S/.test(line) && current) current += ` ${line.trim()}`;
    else if (/^(\*|-|\d+\.|#|\|)\s/.test(line.trim()) || !current) {
      if (current) out.push(current);
      current = line.trim();
    } else current += `\n${line.trim()}`;
  }
  if (current) out.push(current);
  return out;
}

/**
 * Cuts a document into pages of whole paragraphs (about {@link PAGE_CHARS} characters, as a PDF's
 * pages would come out of extraction) and those into passages with the indexer's own cutter
 * (engine/knowledge/chunk.ts).
 */
export function chunkDocument(text: string): Chunk[] {
  const pages: PageText[] = [];
  let current: string[] = [];
  let chars = 0;
  for (const para of paragraphs(text)) {
    if (chars + para.length > PAGE_CHARS && chars > 0) {
      pages.push({ page: pages.length + 1, text: current.join('\n\n') });
      current = [];
      chars = 0;
    }
    current.push(para);
    chars += para.length;
  }
  if (current.length) pages.push({ page: pages.length + 1, text: current.join('\n\n') });
  return chunkPages(pages);
}

/** Stores an owner, its bot and one PDF-like file row; returns their ids. */
export async function createBotWithFile(
  db: Kysely<Database>,
  options: { email: string; idioma: string; fileName: string },
): Promise<{ ownerId: string; botId: string; fileId: string }> {
  const owner = await db
    .insertInto('owners')
    .values({ email: options.email, email_verified: true, image: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('user_profiles')
    .values({ user_id: owner.id, plan: 'free', expires_at: new Date(Date.now() + 30 * 86_400_000) })
    .execute();
  const bot = await db
    .insertInto('chatbots')
    .values({
      user_id: owner.id,
      business_name: 'Comunidad Abierta',
      business_description: 'Comunidad de software libre.',
      idioma: options.idioma,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const fileId = await addFile(db, owner.id, bot.id, options.fileName);
  return { ownerId: owner.id, botId: bot.id, fileId };
}

/** Stores one more file row of a bot (a PDF with no keyword); returns its id. */
export async function addFile(db: Kysely<Database>, userId: string, botId: string, fileName: string) {
  const file = await db
    .insertInto('chatbot_files')
    .values({
      user_id: userId,
      chatbot_id: botId,
      file_name: fileName,
      file_type: 'pdf',
      file_purpose: null,
      file_url: `${userId}/1_${fileName}`,
      mime_type: 'application/pdf',
      size_bytes: 1000,
      video_duration: null,
      video_width: null,
      video_height: null,
      video_codec: null,
      created_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return file.id;
}

/** Stores passages of a file with their tsvector (500 a statement). */
export async function insertPassages(
  db: Kysely<Database>,
  target: { botId: string; fileId: string; config: string },
  chunks: readonly Chunk[],
): Promise<void> {
  for (let i = 0; i < chunks.length; i += 500) {
    await db
      .insertInto('chatbot_file_passages')
      .values(
        chunks.slice(i, i + 500).map((c) => ({
          chatbot_id: target.botId,
          file_id: target.fileId,
          page: c.page,
          position: c.position,
          heading: c.heading,
          text: c.text,
          lang_config: target.config,
          tsv: sql<string>`to_tsvector(${target.config}::regconfig, ${`${c.heading} ${c.text}`})`,
        })),
      )
      .execute();
  }
}
