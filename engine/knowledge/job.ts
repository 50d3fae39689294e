/**
 * The durable job that reads a bot file's text (issue 30 §1): sent when a file is uploaded
 * ({@link queueReading}), run by engine/jobs in whichever process claims it, so a reading survives
 * a restart (its lease ends and another attempt starts over). Idempotent: each attempt reads the
 * whole file again and replaces its pages and passages (./index.ts `indexPages`).
 *
 * Progress: `pages_done` / `pages_total` after each page, and a file change notified on the files'
 * NOTIFY channel at most every {@link NOTIFY_EVERY_MS}, so every open files screen reloads and the
 * card shows "Leyendo… 12/40 páginas".
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { defineJob, type Job, type JobHandler, type JobQueue } from '../jobs/index.ts';
import type { Logger } from '../logger.ts';
import { languageCode } from '../schemas.ts';
import type { Storage } from '../storage/index.ts';
import type { ChatbotFile, Database } from '../store/database.ts';
import { findFile, notifyFileChange } from '../store/queries/files.ts';
import { type Embedder, embedFilePassages } from './embeddings.ts';
import { readFile, type Transcribe } from './extract.ts';
import { clearWithState, indexPages, writeState } from './index.ts';
import { ensureVectorColumn } from './pgvector.ts';

/** Least time between two progress notices of one reading, ms. */
export const NOTIFY_EVERY_MS = 500;

/**
 * `knowledge.read-file` `{fileId}`: read the file's text and index it. 15 minutes a attempt (a
 * 300-page PDF or a long transcript), two retries.
 */
export const readFileJob = defineJob({
  name: 'knowledge.read-file',
  data: z.object({ fileId: z.string().min(1).max(100) }),
  leaseSeconds: 900,
  retryLimit: 2,
  retryDelaySeconds: 5,
  concurrency: 2,
});

/** What the handler needs. */
export interface ReadJobDeps {
  db: Kysely<Database>;
  storage: Storage;
  log: Logger;
  /** The registry: its `transcriber()` is the voice plugin's speech-to-text server, or null. */
  registry: { transcriber(): Transcribe | null };
  /** The queue, to send the embedding of the passages read ({@link queueEmbedding}). */
  jobs?: Pick<JobQueue, 'send'>;
}

/** Reads a stored object whole. */
async function bytesOf(storage: Storage, key: string): Promise<Buffer | null> {
  const found = await storage.get(key);
  if (!found) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of found.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Sends the reading job of a file that was just stored (keyed by the file, so a double send reads it
 * once) after recording it `pending`. A failure to queue is logged and leaves the file `pending`:
 * the upload itself has succeeded. `key` defaults to `read:<fileId>`; a re-reading the owner asks
 * for passes its own (the first key stays taken for hours after its job ends).
 */
export async function queueReading(
  deps: { db: Kysely<Database>; jobs: Pick<JobQueue, 'send'>; log: Pick<Logger, 'warn'> },
  file: Pick<ChatbotFile, 'id' | 'chatbot_id'>,
  key = `read:${file.id}`,
): Promise<void> {
  try {
    await writeState(deps.db, { fileId: file.id, chatbotId: file.chatbot_id, state: 'pending' });
    await deps.jobs.send(readFileJob, { fileId: file.id }, { key });
  } catch (err) {
    deps.log.warn({ err, fileId: file.id }, 'could not queue the reading of a file');
  }
}

/**
 * Backfill (issue 30 §1): queues the reading of every file that has no `chatbot_file_texts` row
 * (uploaded before reading existed, or whose queueing failed), in pages of 500. Called once per node
 * start; idempotent across nodes: the state upsert and the job key `read:<fileId>` make a second
 * node's pass a no-op for files already queued.
 * Never throws (a failure is logged; the next start tries again).
 * @returns how many files were queued.
 */
export async function backfillReading(deps: {
  db: Kysely<Database>;
  jobs: Pick<JobQueue, 'send'>;
  log: Pick<Logger, 'warn' | 'info'>;
}): Promise<number> {
  let queued = 0;
  try {
    queued = await backfillPages(deps);
  } catch (err) {
    deps.log.warn({ err }, 'knowledge: could not queue the reading of unread files');
  }
  if (queued > 0) deps.log.info({ files: queued }, 'knowledge: queued the reading of unread files');
  return queued;
}

/** The pages of {@link backfillReading}: 500 unread files at a time, by id. */
async function backfillPages(deps: Parameters<typeof backfillReading>[0]): Promise<number> {
  let queued = 0;
  let after = '';
  for (;;) {
    const rows = await deps.db
      .selectFrom('chatbot_files as f')
      .leftJoin('chatbot_file_texts as t', 't.file_id', 'f.id')
      .select(['f.id', 'f.chatbot_id'])
      .where('t.file_id', 'is', null)
      .$if(after !== '', (q) => q.where('f.id', '>', after))
      .orderBy('f.id')
      .limit(500)
      .execute();
    for (const row of rows) await queueReading(deps, row);
    queued += rows.length;
    after = rows.at(-1)?.id ?? after; // a file whose queueing failed is not fetched again
    if (rows.length < 500) break;
  }
  return queued;
}

/** The handler of {@link readFileJob}. */
export function readFileHandler(deps: ReadJobDeps): JobHandler<{ fileId: string }> {
  return async (job: Job<{ fileId: string }>) => {
    const file = await findFile(deps.db, job.data.fileId);
    if (!file) return; // deleted meanwhile: its rows went with it
    const bot = await deps.db
      .selectFrom('chatbots')
      .select('idioma')
      .where('id', '=', file.chatbot_id)
      .executeTakeFirst();
    const lang = languageCode(bot?.idioma);
    const base = { fileId: file.id, chatbotId: file.chatbot_id };
    let lastNotice = 0;
    const notify = async (force = false) => {
      if (!force && Date.now() - lastNotice < NOTIFY_EVERY_MS) return;
      lastNotice = Date.now();
      await notifyFileChange(deps.db, { chatbotId: file.chatbot_id, op: 'update', fileId: file.id });
    };
    try {
      // A new reading replaces any correction: `edited_at` goes with it.
      await writeState(deps.db, { ...base, state: 'reading', pagesDone: 0, errorCode: null, editedAt: null });
      await notify(true);
      const bytes = /^https?:\/\//i.test(file.file_url) ? null : await bytesOf(deps.storage, file.file_url);
      if (!bytes) {
        await clearWithState(deps.db, { ...base, state: 'failed', errorCode: 'missing' });
        return;
      }
      const outcome = await readFile({
        fileType: file.file_type,
        mime: file.mime_type,
        bytes,
        language: lang,
        transcribe: deps.registry.transcriber(),
        signal: job.signal,
        onPage: async (done, total) => {
          await writeState(deps.db, { ...base, state: 'reading', pagesDone: done, pagesTotal: total });
          await notify();
        },
      });
      if (outcome.kind === 'pages') {
        await indexPages(deps.db, {
          ...base,
          lang,
          pages: outcome.pages,
          pagesTotal: outcome.pagesTotal,
          truncatedCode: outcome.truncated ? 'too_many_pages' : null,
        });
        if (deps.jobs) await queueEmbedding({ jobs: deps.jobs, log: deps.log }, file.id);
      } else await clearWithState(deps.db, { ...base, state: outcome.kind, errorCode: outcome.code });
    } catch (err) {
      // Retried by the queue; after the last attempt the owner sees "failed" with a code.
      const last = job.attempt > readFileJob.retryLimit;
      deps.log.warn(
        { err, fileId: file.id, attempt: job.attempt },
        'knowledge: could not read a file’s text',
      );
      if (!last) throw err;
      const heard = file.file_type === 'audio' || file.file_type === 'video';
      const code = heard ? 'transcription_failed' : 'unreadable';
      await clearWithState(deps.db, { ...base, state: 'failed', errorCode: code });
    } finally {
      await notify(true).catch(() => {});
    }
  };
}

/**
 * `knowledge.embed-file` `{fileId}` (issue 30 §2, optional): embeds the file's passages that have no
 * embedding of the configured model (./embeddings.ts). Registered only when an embeddings server is
 * configured; idempotent (a retry embeds what is still missing).
 */
export const embedFileJob = defineJob({
  name: 'knowledge.embed-file',
  data: z.object({ fileId: z.string().min(1).max(100) }),
  leaseSeconds: 900,
  retryLimit: 3,
  retryDelaySeconds: 30,
  concurrency: 1,
});

/** Queues on which {@link embedFileJob} is registered (an embeddings server is configured). */
const embedding = new WeakSet<object>();

/**
 * Sends the embedding of a file's passages just (re)indexed, when the queue embeds (else nothing).
 * Never throws: a failure is logged (the passages stay searchable by text).
 */
export async function queueEmbedding(
  deps: { jobs: Pick<JobQueue, 'send'>; log: Pick<Logger, 'warn'> },
  fileId: string,
): Promise<void> {
  if (!embedding.has(deps.jobs)) return;
  try {
    await deps.jobs.send(embedFileJob, { fileId });
  } catch (err) {
    deps.log.warn({ err, fileId }, 'knowledge: could not queue the embedding of a file');
  }
}

/**
 * Backfill of embeddings (issue 30 §2): when an embeddings server is configured (or its model
 * changed), queues the embedding of every file that has passages without a vector of `model` —
 * files indexed before the server was set keep working by text until then. Called once per node
 * start after the queue starts; the job key `embed:<fileId>:<model>` makes a second node's pass a
 * no-op, and the job embeds only what is still missing. Never throws (logged; the next start tries
 * again).
 * @returns how many files were queued.
 */
export async function backfillEmbeddings(deps: {
  db: Kysely<Database>;
  jobs: Pick<JobQueue, 'send'>;
  log: Pick<Logger, 'warn' | 'info'>;
  model: string;
}): Promise<number> {
  if (!embedding.has(deps.jobs)) return 0;
  try {
    const files = await deps.db
      .selectFrom('chatbot_file_passages as p')
      .leftJoin('chatbot_file_passage_embeddings as e', (j) =>
        j.onRef('e.passage_id', '=', 'p.id').on('e.model', '=', deps.model),
      )
      .select('p.file_id')
      .distinct()
      .where('e.passage_id', 'is', null)
      .execute();
    for (const f of files)
      await deps.jobs.send(embedFileJob, { fileId: f.file_id }, { key: `embed:${f.file_id}:${deps.model}` });
    if (files.length > 0) deps.log.info({ files: files.length }, 'knowledge: queued the embedding of files');
    return files.length;
  } catch (err) {
    deps.log.warn({ err }, 'knowledge: could not queue the embedding of files');
    return 0;
  }
}

/**
 * What a node's start queues in the background (cli/app.ts, not awaited): the reading of unread
 * files, then, with an embeddings server, pgvector's column where the database has the extension
 * (./pgvector.ts) and the embedding of passages without a vector. Never throws.
 */
export async function backfillKnowledge(deps: {
  db: Kysely<Database>;
  jobs: Pick<JobQueue, 'send'>;
  log: Pick<Logger, 'warn' | 'info'>;
  embedder: Embedder | null;
}): Promise<void> {
  await backfillReading(deps);
  if (!deps.embedder) return;
  if (deps.embedder.pgvector)
    await ensureVectorColumn(deps.db).then(
      (on) =>
        deps.log.info(
          { pgvector: on },
          'knowledge: embeddings searched by %s',
          on ? 'pgvector' : 'this process',
        ),
      (err) =>
        deps.log.warn({ err }, 'knowledge: could not set up pgvector; embeddings searched by this process'),
    );
  await backfillEmbeddings({ ...deps, model: deps.embedder.model });
}

/**
 * Registers the knowledge jobs on `jobs` (cli/app.ts): the reading (issue 30 §1) and, when `embedder`
 * is set, the embedding of passages (§2).
 */
export function registerKnowledgeJobs(
  jobs: Pick<JobQueue, 'register' | 'send'>,
  deps: ReadJobDeps & { embedder: Embedder | null },
): void {
  jobs.register(readFileJob, readFileHandler({ ...deps, jobs }));
  const embedder = deps.embedder;
  if (!embedder) return;
  embedding.add(jobs);
  jobs.register(embedFileJob, async (job: Job<{ fileId: string }>) => {
    const n = await embedFilePassages(deps.db, embedder, job.data.fileId, job.signal);
    if (n > 0) deps.log.info({ fileId: job.data.fileId, passages: n }, 'knowledge: passages embedded');
  });
}
