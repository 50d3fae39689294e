/**
 * A local server that speaks the Telegram Bot API's documented wire format
 * (https://core.telegram.org/bots/api): `POST|GET /bot<token>/<method>` with JSON, form or
 * multipart bodies, answered `{"ok":true,"result":…}` or `{"ok":false,"error_code":…,
 * "description":…,"parameters":{"retry_after":N}}`. It covers what `telegram-test-api` lacks:
 * media methods (multipart uploads are parsed and kept, bytes included), `sendChatAction`,
 * `setWebhook` with `secret_token` (updates are then POSTed with `X-Telegram-Bot-Api-Secret-Token`),
 * `getWebhookInfo`, long-polling `getUpdates` honouring `offset` and `timeout`, and injected
 * failures (a 429 with `retry_after`). Tests and benchmarks drive followers through it.
 */
import type { AddressInfo } from 'node:net';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';

/** One call a bot made. */
export interface BotCall {
  token: string;
  method: string;
  /** JSON or form fields (multipart text fields included). */
  params: Record<string, unknown>;
  /** Uploaded files of a multipart call, by field name. */
  files: Record<string, { filename: string; bytes: Buffer; mimetype: string }>;
  at: number;
  /** Set when the call was answered with an error (an injected failure, a blocked chat). */
  failed?: number;
  /** The message a successful `sendMessage` created (its `message_id`, for a follower's reply). */
  result?: { message_id: number };
}

/** A bot the server knows. */
interface FakeBot {
  token: string;
  id: number;
  username: string;
  webhook: { url: string; secret: string | undefined } | null;
  queue: Array<Record<string, unknown>>;
  waiters: Array<() => void>;
  /** Ends the long poll under way, if any, as Telegram does when another one arrives (409). */
  terminatePoll: (() => void) | null;
  lastErrorDate: number | undefined;
  lastErrorMessage: string | undefined;
}

/** A running fake Bot API. */
export interface FakeTelegram {
  /** Give it to grammY / Charla as `TELEGRAM_API_ROOT`. */
  apiRoot: string;
  calls: BotCall[];
  /** Registers a bot; its token is `<id>:<secret part>`. */
  addBot(username: string, id?: number): { token: string; id: number; username: string };
  /** Delivers an update: POSTed to the bot's webhook when one is set, else queued for getUpdates. */
  deliver(token: string, update: Record<string, unknown>): Promise<{ status: number } | null>;
  /** Builds and delivers a text message from a follower; returns its update. */
  sendText(
    token: string,
    from: { id: number; username?: string; first_name?: string },
    text: string,
    replyTo?: number,
  ): Promise<Record<string, unknown>>;
  /** A new update id (shared counter). */
  nextUpdateId(): number;
  /** Calls of one bot (and method). */
  callsOf(token: string, method?: string): BotCall[];
  /** Waits until `predicate` holds for the calls, polling every 20 ms. */
  waitFor(predicate: (calls: BotCall[]) => boolean, timeoutMs?: number): Promise<BotCall[]>;
  /** The follower `chatId` blocks the bot (every later send* to them answers 403), or unblocks it. */
  block(token: string, chatId: number | string, blocks?: boolean): void;
  /** The next `times` calls of `method` fail with this error (e.g. 429 + retry_after). */
  failNext(
    method: string,
    error: { code: number; description: string; retryAfter?: number },
    times?: number,
  ): void;
  webhookOf(token: string): { url: string; secret: string | undefined } | null;
  /**
   * Stores media a follower "sent" under `fileId`: `getFile` answers its `file_path`, and
   * `GET /file/bot<token>/<file_path>` serves the bytes (Bot API: downloading files).
   */
  addFile(fileId: string, bytes: Buffer, mime: string): void;
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1 (a free port unless `port` is given). */
export async function startFakeTelegram(
  options: { port?: number; record?: boolean } = {},
): Promise<FakeTelegram> {
  const bots = new Map<string, FakeBot>();
  const calls: BotCall[] = [];
  const failures: Array<{ method: string; code: number; description: string; retryAfter?: number }> = [];
  const media = new Map<string, { bytes: Buffer; mime: string; path: string }>();
  const blocked = new Set<string>();
  let updateCounter = 1000;
  let messageCounter = 1;
  const record = options.record ?? true;

  const app: FastifyInstance = Fastify({ logger: false, bodyLimit: 60 * 1024 * 1024 });
  await app.register(multipart, { limits: { fileSize: 60 * 1024 * 1024 } });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  const ok = (result: unknown) => ({ ok: true, result });
  const error = (code: number, description: string, retryAfter?: number) => ({
    ok: false,
    error_code: code,
    description,
    ...(retryAfter !== undefined ? { parameters: { retry_after: retryAfter } } : {}),
  });

  const message = (bot: FakeBot, chatId: unknown, extra: Record<string, unknown>) => ({
    message_id: messageCounter++,
    date: Math.floor(Date.now() / 1000),
    chat: { id: Number(chatId), type: 'private' },
    from: { id: bot.id, is_bot: true, first_name: bot.username, username: bot.username },
    ...extra,
  });

  const handler = async (
    req: import('fastify').FastifyRequest<{ Params: { token: string; method: string } }>,
    reply: import('fastify').FastifyReply,
  ) => {
    const { token, method } = req.params;
    const params: Record<string, unknown> = { ...((req.query as object) ?? {}) };
    const files: BotCall['files'] = {};
    if (req.isMultipart()) {
      for await (const part of req.parts()) {
        if (part.type === 'file')
          files[part.fieldname] = {
            filename: part.filename,
            bytes: await part.toBuffer(),
            mimetype: part.mimetype,
          };
        else params[part.fieldname] = part.value;
      }
    } else if (req.body && typeof req.body === 'object') Object.assign(params, req.body);
    for (const [k, v] of Object.entries(params)) {
      if (typeof v === 'string' && /^[[{]/.test(v)) {
        try {
          params[k] = JSON.parse(v);
        } catch {
          // a plain string that starts with a bracket
        }
      }
    }
    // Bot API: a file uploaded with multipart is referenced from its field as attach://<part name>.
    for (const [k, v] of Object.entries(params)) {
      if (typeof v === 'string' && v.startsWith('attach://') && files[v.slice(9)])
        files[k] = files[v.slice(9)]!;
    }
    const bot = bots.get(token);
    if (!bot) return reply.code(401).send(error(401, 'Unauthorized'));
    const call: BotCall = { token, method, params, files, at: Date.now() };
    if (record) calls.push(call);
    const failure = failures.findIndex((f) => f.method === method);
    if (failure >= 0) {
      const [f] = failures.splice(failure, 1);
      call.failed = f!.code;
      return reply.code(f!.code).send(error(f!.code, f!.description, f!.retryAfter));
    }
    if (method.startsWith('send') && blocked.has(`${token}:${String(params.chat_id)}`)) {
      call.failed = 403;
      return reply.code(403).send(error(403, 'Forbidden: bot was blocked by the user'));
    }
    switch (method) {
      case 'getMe':
        return ok({
          id: bot.id,
          is_bot: true,
          first_name: bot.username,
          username: bot.username,
          can_join_groups: true,
        });
      case 'setWebhook':
        bot.webhook = { url: String(params.url), secret: params.secret_token as string | undefined };
        return ok(true);
      case 'deleteWebhook':
        bot.webhook = null;
        if (params.drop_pending_updates) bot.queue = [];
        return ok(true);
      case 'getWebhookInfo':
        return ok({
          url: bot.webhook?.url ?? '',
          has_custom_certificate: false,
          pending_update_count: bot.queue.length,
          ...(bot.lastErrorDate
            ? { last_error_date: bot.lastErrorDate, last_error_message: bot.lastErrorMessage }
            : {}),
        });
      case 'getUpdates': {
        if (bot.webhook)
          return reply
            .code(409)
            .send(error(409, "Conflict: can't use getUpdates method while webhook is active"));
        const offset = Number(params.offset ?? 0);
        if (offset) bot.queue = bot.queue.filter((u) => Number(u.update_id) >= offset);
        const timeout = Math.min(Number(params.timeout ?? 0), 50);
        // Telegram serves one getUpdates per bot at a time: a second one ends the first with 409.
        bot.terminatePoll?.();
        let terminated = false;
        if (bot.queue.length === 0 && timeout > 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(done, timeout * 1000);
            function done() {
              clearTimeout(timer);
              bot!.waiters = bot!.waiters.filter((w) => w !== done);
              if (bot!.terminatePoll === terminate) bot!.terminatePoll = null;
              resolve();
            }
            function terminate() {
              terminated = true;
              done();
            }
            bot.terminatePoll = terminate;
            bot.waiters.push(done);
            req.raw.on('close', done);
          });
        }
        if (terminated) {
          call.failed = 409;
          return reply
            .code(409)
            .send(
              error(
                409,
                'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
              ),
            );
        }
        return ok(bot.queue.slice(0, Number(params.limit ?? 100)));
      }
      case 'sendMessage': {
        const sent = message(bot, params.chat_id, { text: params.text });
        call.result = sent;
        return ok(sent);
      }
      case 'getFile': {
        const file = media.get(String(params.file_id));
        if (!file) return reply.code(400).send(error(400, 'Bad Request: invalid file_id'));
        return ok({
          file_id: params.file_id,
          file_unique_id: `u${params.file_id}`,
          file_size: file.bytes.length,
          file_path: file.path,
        });
      }
      case 'sendChatAction':
      case 'answerCallbackQuery':
        return ok(true);
      case 'sendPhoto':
        return ok(
          message(bot, params.chat_id, {
            photo: [{ file_id: `photo-${messageCounter}`, width: 1, height: 1 }],
          }),
        );
      case 'sendDocument':
        return ok(message(bot, params.chat_id, { document: { file_id: `doc-${messageCounter}` } }));
      case 'sendVoice':
        return ok(
          message(bot, params.chat_id, { voice: { file_id: `voice-${messageCounter}`, duration: 1 } }),
        );
      case 'sendAudio':
        return ok(
          message(bot, params.chat_id, { audio: { file_id: `audio-${messageCounter}`, duration: 1 } }),
        );
      case 'sendVideo':
        return ok(
          message(bot, params.chat_id, {
            video: { file_id: `video-${messageCounter}`, width: 1, height: 1, duration: 1 },
          }),
        );
      default:
        return reply.code(404).send(error(404, 'Not Found: method not found'));
    }
  };
  app.post('/bot:token/:method', handler);
  app.get('/bot:token/:method', handler);
  app.get<{ Params: { token: string; '*': string } }>('/file/bot:token/*', async (req, reply) => {
    if (!bots.has(req.params.token)) return reply.code(401).send(error(401, 'Unauthorized'));
    const file = [...media.values()].find((f) => f.path === req.params['*']);
    if (!file) return reply.code(404).send(error(404, 'Not Found'));
    return reply.type(file.mime).send(file.bytes);
  });
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const apiRoot = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const fake: FakeTelegram = {
    apiRoot,
    calls,
    addBot(username, id) {
      const botId = id ?? 100000 + bots.size * 7 + Math.floor(Math.random() * 1000) * 1000;
      const token = `${botId}:AAH${username.replace(/\W/g, '').padEnd(32, 'x').slice(0, 32)}`;
      bots.set(token, {
        token,
        id: botId,
        username,
        webhook: null,
        queue: [],
        waiters: [],
        terminatePoll: null,
        lastErrorDate: undefined,
        lastErrorMessage: undefined,
      });
      return { token, id: botId, username };
    },
    async deliver(token, update) {
      const bot = bots.get(token);
      if (!bot) throw new Error('unknown bot');
      if (bot.webhook) {
        const res = await fetch(bot.webhook.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(bot.webhook.secret ? { 'x-telegram-bot-api-secret-token': bot.webhook.secret } : {}),
          },
          body: JSON.stringify(update),
        });
        if (!res.ok) {
          bot.lastErrorDate = Math.floor(Date.now() / 1000);
          bot.lastErrorMessage = `Wrong response from the webhook: ${res.status}`;
        }
        return { status: res.status };
      }
      bot.queue.push(update);
      for (const w of [...bot.waiters]) w();
      return null;
    },
    async sendText(token, from, text, replyTo) {
      const update = {
        update_id: fake.nextUpdateId(),
        message: {
          message_id: messageCounter++,
          date: Math.floor(Date.now() / 1000),
          chat: { id: from.id, type: 'private', first_name: from.first_name ?? 'Follower' },
          from: {
            id: from.id,
            is_bot: false,
            first_name: from.first_name ?? 'Follower',
            ...(from.username ? { username: from.username } : {}),
          },
          text,
          ...(replyTo !== undefined
            ? { reply_to_message: { message_id: replyTo, date: 0, chat: { id: from.id, type: 'private' } } }
            : {}),
          ...(text.startsWith('/')
            ? { entities: [{ type: 'bot_command', offset: 0, length: text.split(' ')[0]!.length }] }
            : {}),
        },
      };
      await fake.deliver(token, update);
      return update;
    },
    nextUpdateId: () => ++updateCounter,
    callsOf: (token, method) => calls.filter((c) => c.token === token && (!method || c.method === method)),
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(calls)) {
        if (Date.now() > deadline)
          throw new Error(
            `timed out waiting for Bot API calls; got ${calls.map((c) => c.method).join(', ')}`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
      return calls;
    },
    block(token, chatId, blocks = true) {
      if (blocks) blocked.add(`${token}:${String(chatId)}`);
      else blocked.delete(`${token}:${String(chatId)}`);
    },
    failNext(method, err, times = 1) {
      for (let i = 0; i < times; i++)
        failures.push({
          method,
          code: err.code,
          description: err.description,
          ...(err.retryAfter !== undefined ? { retryAfter: err.retryAfter } : {}),
        });
    },
    webhookOf: (token) => bots.get(token)?.webhook ?? null,
    addFile(fileId, bytes, mime) {
      media.set(fileId, { bytes, mime, path: `media/file_${media.size + 1}.${mime.split('/')[1] ?? 'bin'}` });
    },
    async close() {
      for (const bot of bots.values()) for (const w of [...bot.waiters]) w();
      await app.close();
    },
  };
  return fake;
}
