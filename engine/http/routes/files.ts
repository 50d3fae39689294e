/**
 * Owner routes for a bot's attached files (spec 000 §5, §7): upload (multipart), live changes (SSE),
 * keyword and context edit, delete. Every route is owner-scoped (config.owner); another owner's
 * ids answer 404.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { addFile, FILE_MESSAGES, removeFile, updateFileKeywords } from '../../files.ts';
import { queueReading } from '../../knowledge/job.ts';
import { FILE_LIMITS } from '../../schemas.ts';
import type { ChatbotFile } from '../../store/database.ts';
import { findOwnedChatbot } from '../../store/queries/chatbots.ts';
import { FILES_CHANNEL, type FilesChannelMessage, notifyStreamClose } from '../../store/queries/files.ts';
import { requireOwner } from '../auth.ts';
import { readSingleFileUpload } from '../multipart.ts';
import { openSse } from '../sse.ts';
import { FileRecord, fileRecord, UploadedFile } from '../views.ts';
import type { RouteDeps } from './deps.ts';

const ErrorBody = z.object({ error: z.string(), title: z.string().optional() });

export const fileRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const owner = (req: Parameters<typeof requireOwner>[0]) => requireOwner(req, deps);
  const fileView = (f: ChatbotFile) => fileRecord(f, deps.baseUrl());

  app.post(
    '/api/chatbot-files',
    {
      config: {
        owner: {
          probe: (a) => ({ method: 'POST', url: '/api/chatbot-files', upload: { chatbotId: a.botId } }),
        },
      },
      schema: {
        summary: 'Upload a file to the owner’s bot',
        description:
          'multipart/form-data with fields `chatbotId`, optional `keyword` and `context`, then one `file` part. Spec 000 §5: formats checked by magic bytes; 10 MB a file (413), 10 files and 100 MB a bot (422), other formats 415, each with the spec’s Spanish text. A rejected upload stores nothing. Audio (mp3, wav, aac, m4a) is stored as OGG/Opus and video other than WebM as WebM (VP9); when that conversion fails the original is stored and `conversionFailed` is true (spec 000 §8).',
        tags: ['owner'],
        consumes: ['multipart/form-data'],
        response: {
          201: UploadedFile,
          400: ErrorBody,
          401: ErrorBody,
          404: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
          422: ErrorBody,
        },
      },
    },
    async (req, reply) => {
      const me = await owner(req);
      const form = await readSingleFileUpload(req, {
        maxBytes: FILE_LIMITS.maxFileBytes,
        tooLarge: FILE_MESSAGES.tooBig,
        notMultipart: 'Envía el archivo como multipart/form-data.',
      });
      try {
        const { fields, file } = form;
        if (!file) throw new AppError('BAD_REQUEST', 'Falta el archivo.');
        const chatbotId = fields.chatbotId ?? fields.chatbot_id;
        if (!chatbotId) throw new AppError('BAD_REQUEST', 'Falta chatbotId.');
        let conversionFailed = false;
        const row = await addFile(deps.db, deps.storage, {
          ownerId: me.id,
          chatbotId,
          originalName: file.name,
          data: file.data,
          ...(fields.keyword !== undefined ? { keyword: fields.keyword } : {}),
          ...(fields.context !== undefined ? { context: fields.context } : {}),
          purpose: fields.file_purpose ?? null,
          onChange: (id) => deps.engine.cache.invalidate(id),
          onConversionError: (err) => {
            conversionFailed = true;
            req.log.warn({ err, file: file.name }, 'conversion failed; the original is stored');
          },
        });
        await queueReading({ db: deps.db, jobs: deps.jobs, log: req.log }, row);
        return reply.code(201).send({ ...fileView(row), conversionFailed });
      } finally {
        await form.dispose();
      }
    },
  );

  app.get(
    '/api/chatbot-files/events',
    {
      config: {
        owner: { probe: (a) => ({ method: 'GET', url: `/api/chatbot-files/events?chatbotId=${a.botId}` }) },
      },
      schema: {
        summary: 'Live changes of a bot’s files',
        description:
          'Server-Sent Events: first `ready` `{stream}` (this stream’s id), then a `change` event `{op, fileId}` whenever a file of the owner’s bot is uploaded, edited or deleted, from any Charla process (Postgres NOTIFY). After the server lost its database connection and got it back, a `resync` event `{}` says changes may have been missed: the page reloads the list (issue 24 §1); the stream stays open through the outage. A comment line every 25 s keeps proxies from closing the stream. `POST /api/chatbot-files/events/close` `{stream}` ends it from the server, so a page that stops listening closes it without aborting a request (issue 10). 404 for another owner’s bot; 503 with `Retry-After` while the database is unreachable.',
        tags: ['owner'],
        querystring: z.object({ chatbotId: z.string().min(1).max(100) }),
      },
    },
    async (req, reply) => {
      const me = await owner(req);
      const bot = await findOwnedChatbot(deps.db, me.id, req.query.chatbotId);
      if (!bot)
        throw new AppError(
          'NOT_FOUND',
          'No existe configuración para tu bot. ¡Configúralo y vuelve a intentarlo!',
        );
      const stream = randomUUID();
      const sse = openSse(reply, {}, { live: true });
      let heartbeat: ReturnType<typeof setInterval> | undefined;
      let unlisten: (() => Promise<void>) | undefined;
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        void unlisten?.();
        sse.end();
      };
      try {
        unlisten = await deps.listen(
          FILES_CHANNEL,
          (payload) => {
            try {
              const msg = JSON.parse(payload) as FilesChannelMessage;
              if ('closeStream' in msg) {
                if (msg.closeStream === stream && msg.ownerId === me.id) end();
              } else if (msg.chatbotId === bot.id) {
                // Another process may have made the change: the list the page now asks for must not
                // come from this process's bot cache (engine/conversation/cache.ts, 5 s).
                deps.engine.cache.invalidate(bot.id);
                sse.send('change', { op: msg.op, fileId: msg.fileId });
              }
            } catch {
              // not ours
            }
          },
          // The LISTEN connection was lost and is back: changes may have been missed (issue 24 §1).
          {
            onResume: () => {
              deps.engine.cache.invalidate(bot.id);
              sse.send('resync', {});
            },
          },
        );
      } catch (err) {
        // The stream is open already (no status to send): end it, and the page opens a new one.
        req.log.warn({ err }, 'file changes stream could not listen');
        end();
        return reply;
      }
      if (ended) void unlisten();
      // A page that opens a stream (again, after a drop) reloads its list next: from the database.
      deps.engine.cache.invalidate(bot.id);
      sse.send('ready', { stream });
      heartbeat = setInterval(() => reply.raw.write(': keep-alive\n\n'), 25_000);
      req.raw.on('close', end);
      return reply;
    },
  );

  app.post(
    '/api/chatbot-files/events/close',
    {
      config: { owner: { self: true } },
      schema: {
        summary: 'End a live file-changes stream',
        description:
          'Ends the caller’s `GET /api/chatbot-files/events` stream whose `ready` event gave this `stream` id, in whichever Charla process holds it (Postgres NOTIFY). The page then sees the stream end normally instead of aborting it (issue 10: closed streams close quietly). 204 whether or not the stream was still open.',
        tags: ['owner'],
        body: z.object({ stream: z.string().uuid() }),
        response: { 204: z.null(), 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (req, reply) => {
      const me = await owner(req);
      await notifyStreamClose(deps.db, { ownerId: me.id, stream: req.body.stream });
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/api/chatbot-files/:id',
    {
      config: {
        owner: {
          probe: (a) => ({
            method: 'PATCH',
            url: `/api/chatbot-files/${a.fileId}`,
            json: { keyword: 'x', context: 'y' },
          }),
        },
      },
      schema: {
        summary: 'Set a file’s keywords and context',
        description:
          'Spec 000 §5: keywords normalised (quotes stripped, one word each, comma-separated); both required ("Campo requerido").',
        tags: ['owner'],
        params: z.object({ id: z.string().min(1).max(100) }),
        body: z.object({ keyword: z.string().max(500), context: z.string().max(5000) }),
        response: { 200: FileRecord, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => {
      const me = await owner(req);
      const row = await updateFileKeywords(deps.db, me.id, req.params.id, req.body, (id) =>
        deps.engine.cache.invalidate(id),
      );
      return fileView(row);
    },
  );

  app.delete(
    '/api/chatbot-files/:id',
    {
      config: { owner: { probe: (a) => ({ method: 'DELETE', url: `/api/chatbot-files/${a.fileId}` }) } },
      schema: {
        summary: 'Delete a file',
        description:
          'Removes the row, then the stored bytes (a storage failure is only logged, spec 000 §8).',
        tags: ['owner'],
        params: z.object({ id: z.string().min(1).max(100) }),
        response: { 204: z.null(), 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (req, reply) => {
      const me = await owner(req);
      await removeFile(
        deps.db,
        deps.storage,
        me.id,
        req.params.id,
        (err) => req.log.warn({ err, fileId: req.params.id }, 'stored file could not be removed'),
        (id) => deps.engine.cache.invalidate(id),
      );
      return reply.code(204).send(null);
    },
  );
};
