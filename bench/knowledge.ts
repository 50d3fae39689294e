/**
 * The files' knowledge section of `npm run bench` (issue 30 §4): how well and how fast a bot finds,
 * in its files, the passage that answers a follower's question.
 *
 * For each store of BENCH_STORES it opens a new database and stores the real documents of
 * bench/knowledge-data cut into passages (bench/knowledge-corpus.ts): each business's documents in
 * its own small bot, as an owner's bot holds them (`businessOf`), and every document of a language
 * in one big bot among filler, then:
 * - recall@3 (and the same at the big bots): share of the labelled questions (Spanish and English)
 *   whose answering sentence is in one of the 3 passages engine/knowledge/retrieve.ts returns
 *   (full-text search); beside it, hybrid
 *   (text fused with embeddings, engine/knowledge/vectors.ts) when CHARLA_EMBEDDINGS_BASE_URL and
 *   CHARLA_EMBEDDINGS_MODEL are set (every passage is embedded through that server first, and the
 *   hybrid retrieval's p95 at 10,000 passages, the message's embedding included, and whether
 *   pgvector scored the vectors are a note), else "not configured";
 * - offline accuracy: share whose offline answer (engine/knowledge/answer.ts, no LLM) contains it;
 * - latency: p50/p95 of one retrieval at BENCH_KNOWLEDGE_PASSAGES (10,000) passages per bot (the
 *   documents plus passages made of their sentences shuffled), BENCH_KNOWLEDGE_ROUNDS (5) rounds of
 *   every question, with whether the plan uses the GIN index over bot and text; with
 *   BENCH_KNOWLEDGE_VERBOSE, the misses and the five slowest questions.
 * Goals: recall@3 ≥ 0.9 with text search alone; retrieval adds < 20 ms p95 to a turn.
 *
 * Alone: `BENCH_ONLY=knowledge node bin/run-ts.js bench/knowledge.ts` (or `npm run bench`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../engine/config.ts';
import { answerFromPassages } from '../engine/knowledge/answer.ts';
import type { Chunk } from '../engine/knowledge/chunk.ts';
import { createEmbedder, type Embedder, embedFilePassages } from '../engine/knowledge/embeddings.ts';
import { ensureVectorColumn } from '../engine/knowledge/pgvector.ts';
import { type PassagesIndex, passagesIndex, retrievePassages } from '../engine/knowledge/retrieve.ts';
import { openStore, type Store } from '../engine/store/connect.ts';
import { migrateToLatest } from '../engine/store/migrate.ts';
import {
  addFile,
  businessOf,
  CONFIGS,
  chunkDocument,
  createBotWithFile,
  documentText,
  holdsAnswer,
  insertPassages,
  type Question,
  questions,
} from './knowledge-corpus.ts';
import { freshPostgresDb } from './procs.ts';
import { fmtMs, mark, runAlone, table } from './report.ts';
import { LABEL, STORES, type StoreName } from './settings.ts';

const PASSAGES = Number(process.env.BENCH_KNOWLEDGE_PASSAGES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_KNOWLEDGE_ROUNDS ?? 5);
const GOAL = { recall: 0.9, p95Ms: 20 };
const PG_DB = 'charla_bench_knowledge';
const log = (line: string) => process.stderr.write(`  · ${line}\n`);

/** A deterministic shuffle source (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Passages of 2–5 sentences drawn from the documents' sentences, to fill a bot to `count`. */
function filler(chunks: readonly Chunk[], count: number, seed: number): Chunk[] {
  const sentences = chunks.flatMap((c) => c.text.split(/(?<=[.!?])\s+|\n/).filter((s) => s.length > 20));
  const next = random(seed);
  return Array.from({ length: count }, (_, i) => {
    const n = 2 + Math.floor(next() * 4);
    const text = Array.from({ length: n }, () => sentences[Math.floor(next() * sentences.length)]!).join(' ');
    return { page: 1 + Math.floor(i / 8), position: i, heading: '', text };
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

interface Figures {
  recall: number;
  /** recall@3 at the big bots: the same documents among PASSAGES passages made of their sentences. */
  recallBig: number;
  offline: number;
  p50: number;
  p95: number;
  gin: boolean;
  misses: string[];
  /** With embeddings configured: hybrid recall@3, p95 at PASSAGES (ms) and who scored the vectors; else null. */
  hybrid: { recall: number; p95: number; pgvector: boolean } | null;
}

/** Stores the bots and measures (see the module comment). */
async function measure(store: Store): Promise<Figures> {
  const db = store.db;
  await migrateToLatest(db);
  const qs = questions();
  const bots = new Map<'es' | 'en', { big: string }>();
  /** The small bots: one per business (./knowledge-corpus.ts `businessOf`), as owners have them. */
  const small = new Map<string, { botId: string; ownerId: string }>();
  const indexes = new Map<string, PassagesIndex>();
  for (const lang of ['es', 'en'] as const) {
    const config = CONFIGS[lang];
    const idioma = lang === 'es' ? 'Español' : 'English';
    const docs = [...new Set(qs.filter((q) => q.lang === lang).map((q) => q.doc))];
    const big = await createBotWithFile(db, {
      email: `k-${lang}-big@bench.example.com`,
      idioma,
      fileName: docs[0]!,
    });
    const all: Chunk[] = [];
    for (const [i, doc] of docs.entries()) {
      const chunks = chunkDocument(documentText(doc));
      all.push(...chunks);
      const business = businessOf(doc);
      let bot = small.get(business);
      let fileId: string;
      if (bot) fileId = await addFile(db, bot.ownerId, bot.botId, doc);
      else {
        const made = await createBotWithFile(db, {
          email: `k-${business}@bench.example.com`,
          idioma,
          fileName: doc,
        });
        bot = { botId: made.botId, ownerId: made.ownerId };
        small.set(business, bot);
        fileId = made.fileId;
      }
      await insertPassages(db, { botId: bot.botId, fileId, config }, chunks);
      const bigFile = i === 0 ? big.fileId : await addFile(db, big.ownerId, big.botId, doc);
      await insertPassages(db, { botId: big.botId, fileId: bigFile, config }, chunks);
    }
    await insertPassages(
      db,
      { botId: big.botId, fileId: big.fileId, config },
      filler(all, Math.max(0, PASSAGES - all.length), lang === 'es' ? 1 : 2),
    );
    bots.set(lang, { big: big.botId });
  }
  for (const id of [...[...small.values()].map((b) => b.botId), ...[...bots.values()].map((b) => b.big)])
    indexes.set(id, (await passagesIndex(db, id))!);
  await sql`ANALYZE chatbot_file_passages`.execute(db);
  const embedder = createEmbedder(loadConfig(process.env).embeddings);
  const smallOf = (q: Question) => small.get(businessOf(q.doc))!.botId;
  const hybrid = embedder ? await measureHybrid(db, embedder, qs, { bots, smallOf }, indexes) : null;

  let found = 0;
  let answered = 0;
  const misses: string[] = [];
  for (const q of qs) {
    const chatbotId = smallOf(q);
    const top = await retrievePassages(db, { chatbotId, message: q.q, k: 3, index: indexes.get(chatbotId)! });
    if (top.some((p) => holdsAnswer(p.text, q))) found++;
    else misses.push(`recall: ${q.q}`);
    const reply = answerFromPassages(q.q, top, q.lang);
    if (reply && holdsAnswer(reply, q)) answered++;
    else misses.push(`offline: ${q.q} → ${reply?.slice(0, 90) ?? '(none)'}`);
  }

  const times: number[] = [];
  /** Slowest time of each question at the big bots, ms (printed with BENCH_KNOWLEDGE_VERBOSE). */
  const slowest = new Map<string, number>();
  let foundBig = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const q of qs) {
      const started = performance.now();
      const chatbotId = bots.get(q.lang)!.big;
      const top = await retrievePassages(db, { chatbotId, message: q.q, index: indexes.get(chatbotId)! });
      const ms = performance.now() - started;
      if (round > 0) times.push(ms);
      if (round > 0) slowest.set(q.q, Math.max(ms, slowest.get(q.q) ?? 0));
      else if (top.slice(0, 3).some((p) => holdsAnswer(p.text, q))) foundBig++;
    }
  }
  times.sort((a, b) => a - b);
  const probe = qs[0]!;
  const plan = await sql<Record<string, string>>`EXPLAIN SELECT id FROM chatbot_file_passages
    WHERE chatbot_id = ${bots.get(probe.lang)!.big}
      AND tsv @@ ${"('monthli' & 'plan') | ('monthli' & 'cost') | ('plan' & 'cost')"}::tsquery`.execute(db);
  const gin = plan.rows.some((r) => Object.values(r).join(' ').includes('chatbot_file_passages_bot_tsv'));
  return {
    recall: found / qs.length,
    recallBig: foundBig / qs.length,
    offline: answered / qs.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    gin,
    misses: [
      ...misses,
      ...[...slowest]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([q, ms]) => `slowest at ${PASSAGES}: ${fmtMs(ms)} ${q}`),
    ],
    hybrid,
  };
}

/** Hybrid recall@3 over the small bots and p95 at the big ones, after embedding every passage. */
async function measureHybrid(
  db: Store['db'],
  embedder: Embedder,
  qs: Question[],
  { bots, smallOf }: { bots: Map<string, { big: string }>; smallOf: (q: Question) => string },
  indexes: Map<string, PassagesIndex>,
): Promise<{ recall: number; p95: number; pgvector: boolean }> {
  // As a node's start does with an embeddings server (engine/knowledge/job.ts backfillKnowledge).
  const pgvector = await ensureVectorColumn(db);
  const files = await db.selectFrom('chatbot_file_passages').select('file_id').distinct().execute();
  for (const f of files) await embedFilePassages(db, embedder, f.file_id);
  let found = 0;
  const times: number[] = [];
  for (const [round, q] of [...qs, ...qs].entries()) {
    const chatbotId = round < qs.length ? smallOf(q) : bots.get(q.lang)!.big;
    const started = performance.now();
    const query = { chatbotId, message: q.q, k: 3, index: indexes.get(chatbotId)!, embedder, embedded: true };
    const top = await retrievePassages(db, query);
    if (round >= qs.length) times.push(performance.now() - started);
    else if (top.some((p) => holdsAnswer(p.text, q))) found++;
  }
  return {
    recall: found / qs.length,
    pgvector,
    p95: percentile(
      times.sort((a, b) => a - b),
      95,
    ),
  };
}

/** Runs the section; returns its printed text and summary lines. */
export async function knowledgeBench(): Promise<{ text: string; summaries: string[]; failed: boolean }> {
  const qs = questions();
  const rows: string[][] = [
    [
      '',
      'recall@3 (text)',
      `recall@3 at ${PASSAGES}`,
      'recall@3 (hybrid)',
      'offline answer',
      'p50',
      'p95',
      'GIN',
      `goal recall ≥ ${GOAL.recall}, p95 < ${GOAL.p95Ms} ms`,
    ],
  ];
  const summaries: string[] = [];
  const notes: string[] = [];
  let failed = false;
  for (const name of STORES as StoreName[]) {
    const dir = mkdtempSync(join(tmpdir(), 'charla-bench-knowledge-'));
    let store: Store | undefined;
    try {
      log(`knowledge: ${LABEL[name]}: ${qs.length} questions, ${PASSAGES} passages per bot`);
      store =
        name === 'pglite'
          ? await openStore({ dataDir: dir })
          : await openStore({ databaseUrl: await freshPostgresDb(PG_DB) });
      const r = await measure(store);
      const ok = r.recall >= GOAL.recall && r.p95 < GOAL.p95Ms;
      rows.push([
        LABEL[name],
        r.recall.toFixed(2),
        r.recallBig.toFixed(2),
        r.hybrid ? r.hybrid.recall.toFixed(2) : 'not configured',
        r.offline.toFixed(2),
        fmtMs(r.p50),
        fmtMs(r.p95),
        r.gin ? 'yes' : 'no',
        mark(ok),
      ]);
      summaries.push(
        `knowledge (${name}): recall@3 ${r.recall.toFixed(2)} (goal ≥ ${GOAL.recall}), offline answers ${r.offline.toFixed(2)}, retrieval p95 ${fmtMs(r.p95)} at ${PASSAGES} passages (goal < ${GOAL.p95Ms} ms)`,
      );
      if (r.hybrid)
        notes.push(
          `  ${LABEL[name]}: hybrid retrieval p95 ${fmtMs(r.hybrid.p95)} at ${PASSAGES} passages, embedding the message included; vectors scored by ${r.hybrid.pgvector ? 'pgvector' : 'the process (no pgvector)'}`,
        );
      if (process.env.BENCH_KNOWLEDGE_VERBOSE) notes.push(...r.misses.map((m) => `    ${name}: ${m}`));
    } catch (err) {
      failed = true;
      rows.push([LABEL[name], 'FAILED', (err as Error).message]);
    } finally {
      await store?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const text =
    `\nFiles' knowledge — ${qs.length} labelled questions (${qs.filter((q) => q.lang === 'es').length} Spanish, ${qs.filter((q) => q.lang === 'en').length} English) over ${new Set(qs.map((q) => q.doc)).size} real documents; latency of one retrieval at ${PASSAGES} passages per bot\n` +
    `${table(rows)}\n${notes.length ? `${notes.join('\n')}\n` : ''}`;
  return { text, summaries, failed };
}

if (process.env.BENCH_ONLY === 'knowledge') await runAlone("Files' knowledge", knowledgeBench);
