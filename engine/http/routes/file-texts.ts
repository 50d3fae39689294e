/**
 * Owner routes for the text read from a bot's files (issue 30 §1 "the owner can open the extracted
 * text of each file and correct it"): the reading states of a bot's files (the cards' "Leyendo…
 * 12/40 páginas"), one file's state and page texts, and a corrected page, which re-indexes the file.
 * Owner-scoped like engine/http/routes/files.ts (`config.owner`: session and Origin checked by the
 * server's hook); another owner's ids answer 404. Error texts are Spanish; the dashboard shows its
 * own translation by status.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import {
  type FileTextStatus,
  indexPages,
  MAX_PAGE_CHARS,
  pageTexts,
  textStates,
} from '../../knowledge/index.ts';
import { queueEmbedding, queueReading } from '../../knowledge/job.ts';
import { admit } from '../../rate-limits.ts';
import { languageCode } from '../../schemas.ts';
import { findOwnedChatbot } from '../../store/queries/chatbots.ts';
import { findOwnedFile, notifyFileChange } from '../../store/queries/files.ts';
import { requireOwner } from '../auth.ts';
import type { RouteDeps } from './deps.ts';

const ErrorBody = z.object({ error: z.string(), title: z.string().optional() });
const STATES = ['pending', 'reading', 'ready', 'no_text', 'unsupported', 'failed', 'too_large'] as const;

/** One file's reading state (issue 30 §1). */
const TextStatus = z.object({
  fileId: z.string(),
  state: z.enum(STATES),
  pagesDone: z.number().int(),
  pagesTotal: z.number().int().nullable(),
  chars: z.number().int(),
  errorCode: z
    .string()
    .nullable()
    .describe('Why, as a code the dashboard translates (`scanned`, `image_no_ocr`…).'),
  editedAt: z.string().nullable().describe('When the owner last corrected the text (ISO 8601), or null.'),
});

/** A file's state with its page texts. */
const FileText = TextStatus.extend({
  pages: z.array(z.object({ page: z.number().int().min(1), text: z.string() })),
});

const NO_FILE = 'No se encontró el archivo.';
const NO_PAGE = 'Esa página no existe en el texto de este archivo.';
const TOO_MANY = 'Demasiadas lecturas seguidas. Inténtalo más tarde.';

/** The state of a file with no reading recorded yet. */
const unread = (fileId: string): FileTextStatus => ({
  fileId,
  state: 'pending',
  pagesDone: 0,
  pagesTotal: null,
  chars: 0,
  errorCode: null,
  editedAt: null,
});

/** The routes (registered by engine/http/server.ts). */
export const fileTextRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const owner = (req: Parameters<typeof requireOwner>[0]) => requireOwner(req, deps);

  /** The owner's file and its reading state. @throws AppError NOT_FOUND otherwise. */
  const ownedText = async (ownerId: string, fileId: string) => {
    const file = await findOwnedFile(deps.db, ownerId, fileId);
    if (!file) throw new AppError('NOT_FOUND', NO_FILE);
    const status = (await textStates(deps.db, file.chatbot_id)).find((s) => s.fileId === file.id);
    return { file, status };
  };

  app.get(
    '/api/chatbot-files/texts',
    {
      config: {
        owner: { probe: (a) => ({ method: 'GET', url: `/api/chatbot-files/texts?chatbotId=${a.botId}` }) },
      },
      schema: {
        summary: 'Reading states of a bot’s files',
        description:
          'Issue 30 §1: for each file whose text was (or is being) read, its state (`pending`, `reading`, `ready`, `no_text` for a scanned PDF, `unsupported`, `failed`, `too_large`), pages read of the total, characters kept and an error code. Files never read are absent. The files events stream (`GET /api/chatbot-files/events`) sends a `change` as reading progresses. 404 for another owner’s bot.',
        tags: ['owner'],
        querystring: z.object({ chatbotId: z.string().min(1).max(100) }),
        response: { 200: z.array(TextStatus), 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => {
      const me = await owner(req);
      const bot = await findOwnedChatbot(deps.db, me.id, req.query.chatbotId);
      if (!bot) throw new AppError('NOT_FOUND', NO_FILE);
      return textStates(deps.db, bot.id);
    },
  );

  app.get(
    '/api/chatbot-files/:id/text',
    {
      config: { owner: { probe: (a) => ({ method: 'GET', url: `/api/chatbot-files/${a.fileId}/text` }) } },
      schema: {
        summary: 'A file’s extracted text, page by page',
        description:
          'Issue 30 §1: the reading state and the text of each page (1-based; a transcript is page 1), as read or as the owner corrected it. A file not read yet answers state `pending` and no pages. 404 for another owner’s file.',
        tags: ['owner'],
        params: z.object({ id: z.string().min(1).max(100) }),
        response: { 200: FileText, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => {
      const me = await owner(req);
      const { file, status } = await ownedText(me.id, req.params.id);
      return { ...(status ?? unread(file.id)), pages: await pageTexts(deps.db, file.id) };
    },
  );

  app.put(
    '/api/chatbot-files/:id/text/pages/:page',
    {
      config: {
        owner: {
          probe: (a) => ({
            method: 'PUT',
            url: `/api/chatbot-files/${a.fileId}/text/pages/1`,
            json: { text: 'x' },
          }),
        },
      },
      schema: {
        summary: 'Correct one page of a file’s extracted text',
        description: `Issue 30 §1: replaces the text of an existing page (at most ${MAX_PAGE_CHARS} characters; a file with no pages — a scanned PDF, an image — accepts page 1, the text the owner types in) and re-indexes the whole file at once (its passages and their full-text vectors, with the bot’s language); sets \`editedAt\`. Every open files screen is told (files events stream). 404 for another owner’s file or a page the text does not have.`,
        tags: ['owner'],
        params: z.object({
          id: z.string().min(1).max(100),
          page: z.coerce.number().int().min(1).max(100_000),
        }),
        body: z.object({ text: z.string().max(MAX_PAGE_CHARS) }),
        response: { 200: FileText, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => {
      const me = await owner(req);
      const { file, status } = await ownedText(me.id, req.params.id);
      const pages = await pageTexts(deps.db, file.id);
      const text = req.body.text.replace(/\r\n?/g, '\n').trim();
      // A file with no text (a scanned PDF, an image): the owner types it in as page 1.
      if (pages.length === 0 && req.params.page === 1) pages.push({ page: 1, text });
      const at = pages.findIndex((p) => p.page === req.params.page);
      if (at < 0) throw new AppError('NOT_FOUND', NO_PAGE);
      pages[at] = { page: req.params.page, text };
      const bot = await findOwnedChatbot(deps.db, me.id, file.chatbot_id);
      await indexPages(deps.db, {
        fileId: file.id,
        chatbotId: file.chatbot_id,
        lang: languageCode(bot?.idioma),
        pages,
        pagesTotal: status?.pagesTotal ?? pages.length,
        truncatedCode: status?.errorCode === 'too_many_pages' ? 'too_many_pages' : null,
        edited: true,
      });
      await queueEmbedding({ jobs: deps.jobs, log: req.log }, file.id); // issue 30 §2
      await notifyFileChange(deps.db, { chatbotId: file.chatbot_id, op: 'update', fileId: file.id });
      const after = await ownedText(me.id, file.id);
      return { ...after.status!, pages: await pageTexts(deps.db, file.id) };
    },
  );

  app.post(
    '/api/chatbot-files/:id/text/read',
    {
      config: {
        owner: { probe: (a) => ({ method: 'POST', url: `/api/chatbot-files/${a.fileId}/text/read` }) },
      },
      schema: {
        summary: 'Read a file’s text again',
        description:
          'Issue 30 §1 ("Volver a leer"): queues a new reading of the file; its pages, passages and any correction the owner made are replaced when it ends. Answers the state (`pending`) at once; the files events stream follows the progress. 404 for another owner’s file; 429 past `CHARLA_LIMIT_REREAD_OWNER`.',
        tags: ['owner'],
        params: z.object({ id: z.string().min(1).max(100) }),
        response: { 202: TextStatus, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody },
      },
    },
    async (req, reply) => {
      const me = await owner(req);
      const { file } = await ownedText(me.id, req.params.id);
      if (!(await admit(deps.limits, reply, [{ limit: 'rereadOwner', key: me.id }])))
        return reply.code(429).send({ error: TOO_MANY });
      await queueReading(
        { db: deps.db, jobs: deps.jobs, log: req.log },
        file,
        `reread:${file.id}:${Date.now()}`,
      );
      await notifyFileChange(deps.db, { chatbotId: file.chatbot_id, op: 'update', fileId: file.id });
      const after = await ownedText(me.id, file.id);
      return reply.code(202).send(after.status ?? unread(file.id));
    },
  );
};
