/**
 * The five stages of a turn (engine/conversation/turn/, issue 25 §4), each on its own, asserting
 * what a follower would notice: load answers a retried message from the store and reads what was
 * sent or offered; middleware stores a transcript with the original text and silences a taken-over
 * turn; match sends one file or lists several (and picks from a list by number); respond appends
 * the numbered list offer and gives the failure text, without a list, when the LLM fails; persist
 * stores a message id once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotCache, type LoadedBot } from '../engine/conversation/cache.ts';
import type { LlmClient } from '../engine/conversation/llm.ts';
import { listOffer } from '../engine/conversation/texts.ts';
import { botParts, turnBotOf } from '../engine/conversation/turn/bot-parts.ts';
import { ANONYMOUS_FOLLOWER, loadTurn } from '../engine/conversation/turn/load.ts';
import { matchStage } from '../engine/conversation/turn/match.ts';
import { buildTurnContext, runMiddlewareStage } from '../engine/conversation/turn/middleware.ts';
import { EMPTY_META, persist } from '../engine/conversation/turn/persist.ts';
import { respond, withListOffer } from '../engine/conversation/turn/respond.ts';
import { createLogger } from '../engine/logger.ts';
import type { InboundMessage, MiddlewareDecision } from '../engine/registry/index.ts';
import type { StoredTurnMeta } from '../engine/store/database.ts';
import { insertFile } from '../engine/store/queries/files.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';

const log = createLogger({ level: 'silent' });

describe.each(dialectsOf(import.meta.url))('the stages of a turn on %s', (kind) => {
  let app: TestApp;
  let botId: string;
  let loaded: LoadedBot;
  const message = (text: string, over: Partial<InboundMessage> = {}): InboundMessage => ({
    chatbotId: botId,
    channel: 'telegram',
    follower: { id: '900' },
    text,
    messageId: `900:${text}`,
    ...over,
  });
  const fileNamed = (name: string) => loaded.files.find((f) => f.file_name === name)!;
  const noEffects = { record: () => {} };

  beforeAll(async () => {
    app = await createTestApp(kind, { llm: null });
    const owner = await app.owner('etapas@example.com');
    const bot = await app.store.db
      .insertInto('chatbots')
      .values({
        user_id: owner.id,
        business_name: 'Etapas',
        business_description: 'Panadería en Bilbao. Abrimos de lunes a sábado de 7:00 a 14:00.',
        idioma: 'Español',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    botId = bot.id;
    for (const [file_name, keyword] of [
      ['carta.pdf', 'carta,menu'],
      ['precios.pdf', 'precios,menu'],
      ['local.jpg', 'local'],
    ] as const)
      await insertFile(app.store.db, {
        user_id: owner.id,
        chatbot_id: botId,
        file_name,
        file_type: file_name.endsWith('.pdf') ? 'pdf' : 'image',
        file_purpose: null,
        file_url: `${owner.id}/1732000000_${file_name}`,
        keyword,
        context: '',
        mime_type: file_name.endsWith('.pdf') ? 'application/pdf' : 'image/jpeg',
        size_bytes: 100,
        video_duration: null,
        video_width: null,
        video_height: null,
        video_codec: null,
      });
    loaded = (await app.engine.cache.get(botId))!;
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('load', () => {
    it('reads the history, the files sent and the list offered, and a retried message’s stored answer', async () => {
      const deps = { db: app.store.db, cache: app.engine.cache };
      const first = await loadTurn(deps, message('hola'), true);
      expect(first).toMatchObject({ stored: undefined, history: [], sentBefore: [], offered: [] });

      const meta: StoredTurnMeta = {
        ...EMPTY_META,
        archivosEnviados: [fileNamed('local.jpg').id],
        archivos: {
          action: 'LIST',
          lista: ['carta.pdf', 'precios.pdf'].map((n) => ({ ...fileNamed(n), keyword: '' })),
        },
      };
      await persist(
        { db: app.store.db, effects: noEffects },
        {
          chatbotId: botId,
          channel: 'telegram',
          userId: '900',
          username: null,
          messageId: '900:menu',
          userText: 'menu',
          botText: 'Tengo varios archivos…',
          meta,
        },
      );
      const next = await loadTurn(deps, message('el 2'), true);
      expect(next.history).toEqual([
        { role: 'user', content: 'menu' },
        { role: 'assistant', content: 'Tengo varios archivos…' },
      ]);
      expect(next.sentBefore).toEqual([fileNamed('local.jpg').id]);
      expect(next.offered).toEqual([fileNamed('carta.pdf').id, fileNamed('precios.pdf').id]);

      const retried = await loadTurn(deps, message('menu'), true);
      expect(retried.stored).toMatchObject({ userText: 'menu', botText: 'Tengo varios archivos…' });
      // Without a channel id the message cannot have been answered before.
      expect((await loadTurn(deps, message('menu'), false)).stored).toBeUndefined();
      // An anonymous visitor gets no stored history: theirs is the client's.
      const anonymous = await loadTurn(
        deps,
        message('hola', { follower: { id: ANONYMOUS_FOLLOWER }, history: [{ role: 'user', content: 'x' }] }),
        false,
      );
      expect(anonymous.history).toEqual([{ role: 'user', content: 'x' }]);
    });

    it('reloads a bot another process changed, once the cache listens (NOTIFY)', async () => {
      const here = new BotCache(app.store.db, 60_000);
      const there = new BotCache(app.store.db, 60_000);
      const stops = [await here.listen(app.store.listen), await there.listen(app.store.listen)];
      const before = await here.get(botId);
      expect(await here.get(botId)).toBe(before);
      there.invalidate(botId);
      await expect.poll(async () => (await here.get(botId)) !== before, { timeout: 3_000 }).toBe(true);
      for (const stop of stops) await stop();
    });

    it('gives plugins the bot’s row as settings, without its credentials, built once per row', () => {
      const { turnBot } = botParts(loaded);
      expect(turnBot).toMatchObject({ id: botId, idioma: loaded.bot.idioma, timezone: loaded.bot.timezone });
      expect(turnBot.settings).toMatchObject({
        enable_reservations: loaded.bot.enable_reservations,
        enable_audio: loaded.bot.enable_audio,
        selected_voice_id: loaded.bot.selected_voice_id,
      });
      expect(Object.keys(turnBot.settings)).not.toContain('telegram_token');
      expect(Object.keys(turnBot.settings)).not.toContain('meta_token');
      // A delivery of the same cached row (engine/channels/outbound.ts) shares it: no copy per turn.
      expect(turnBotOf(loaded.bot)).toBe(turnBot);
    });

    it('refuses an unknown bot with the spec’s not-found error', async () => {
      await expect(
        loadTurn(
          { db: app.store.db, cache: app.engine.cache },
          message('hola', { chatbotId: randomUUID() }),
          true,
        ),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('middleware', () => {
    const stage = (inbound: InboundMessage, decide: (text: string) => MiddlewareDecision) => {
      const turn = buildTurnContext(inbound, botParts(loaded), [], {
        adapter: undefined,
        offline: true,
        now: new Date('2026-11-26T10:00:00Z'),
      });
      return {
        turn,
        run: runMiddlewareStage({ runMiddleware: async (t) => decide(t.inbound.text) }, turn, 'es'),
      };
    };

    it('stores a transcript as the follower’s words and keeps what they sent', async () => {
      const { turn, run } = stage(
        message('', { attachments: [{ type: 'voice', channelFileId: 'f1', mime: 'audio/ogg' }] }),
        () => ({ text: ' ¿Abrís el sábado? ' }),
      );
      const out = await run;
      expect(out.userText).toBe('¿Abrís el sábado?');
      expect(out.userMeta).toEqual({ received: [{ kind: 'voice', channelFileId: 'f1', mime: 'audio/ogg' }] });
      // Later stages and the plugins' tools see the transcript.
      expect(turn.inbound.text).toBe('¿Abrís el sábado?');
    });

    it('stores media nobody read as its kind, a rewrite with the original, and a silence with its reason', async () => {
      const media = await stage(
        message('', { attachments: [{ type: 'photo', channelFileId: 'p' }] }),
        (t) => ({
          text: t,
        }),
      ).run;
      expect(media.userText).toBe('[foto]');
      expect(media.mediaName).toBe('foto');

      const rewritten = await stage(message('hla'), () => ({ text: 'hola' })).run;
      expect(rewritten.userMeta).toEqual({ originalText: 'hla' });

      const silent = await stage(message('¿hola?'), (t) => ({
        text: t,
        stop: { kind: 'silent', reason: 'the owner took over', plugin: 'conversations' },
      })).run;
      expect(silent.userMeta).toEqual({ silent: { plugin: 'conversations', reason: 'the owner took over' } });
      expect(silent.stop?.kind).toBe('silent');
    });
  });

  describe('match', () => {
    const match = (text: string, over: { offered?: string[]; sentBefore?: string[]; skip?: boolean } = {}) =>
      matchStage({ text, files: loaded.files, offered: [], sentBefore: [], skip: false, ...over });

    it('sends the one file a keyword names and lists the files a shared keyword names', () => {
      const send = match('carta');
      expect(send.archivos.action).toBe('SEND');
      expect(send.sending?.file_name).toBe('carta.pdf');
      expect(send.sentIds).toEqual([fileNamed('carta.pdf').id]);

      const list = match('menu');
      expect(list.archivos.action).toBe('LIST');
      // In the bot's display order (newest first), the order the offer numbers them.
      const order = loaded.files.map((f) => f.file_name).filter((n) => n !== 'local.jpg');
      expect(list.archivos.lista.map((f) => f.file_name)).toEqual(order);
      expect(list.sending).toBeNull();
      expect(list.sentIds).toEqual([]);
    });

    it('picks from the offered list by number, does not resend a sent file, and skips when told', () => {
      const offered = ['carta.pdf', 'precios.pdf'].map((n) => fileNamed(n).id);
      expect(match('el 2', { offered }).sending?.file_name).toBe('precios.pdf');
      const again = match('menu local', { sentBefore: [fileNamed('local.jpg').id] });
      expect(again.sentIds).toContain(fileNamed('local.jpg').id);
      expect(match('carta', { skip: true })).toMatchObject({ sending: null, archivos: { action: 'NONE' } });
    });
  });

  describe('respond', () => {
    const run = async (text: string, llm: LlmClient | null) => {
      const parts = botParts(loaded);
      const inbound = message(text);
      const turn = buildTurnContext(inbound, parts, [], {
        adapter: undefined,
        offline: llm === null,
        now: new Date('2026-11-26T10:00:00Z'),
      });
      const tokens: string[] = [];
      const response = await respond(
        {
          registry: {
            toolRunner: () => ({ available: [], run: async () => ({ ok: false, error: 'none' }) }),
            promptFragments: async () => [],
            offlineHandlers: () => [],
          },
          llm,
          log,
          baseUrl: () => 'https://charla.example',
        },
        {
          turn,
          loaded,
          parts,
          history: [],
          middleware: { inbound, stop: undefined, userText: text, userMeta: null, mediaName: null },
          match: matchStage({ text, files: loaded.files, offered: [], sentBefore: [], skip: false }),
          onToken: (t) => tokens.push(t),
        },
      );
      return { response, streamed: tokens.join('') };
    };
    const llm = (complete: LlmClient['complete']): LlmClient => ({ model: 'fake', complete }) as LlmClient;

    it('appends the numbered list offer to the reply, streamed too', async () => {
      const { response, streamed } = await run(
        'menu',
        llm(async () => 'Claro.'),
      );
      const offer = listOffer(
        'es',
        response.container.archivos.lista.map((f) => f.file_name),
      );
      expect(response.reply).toBe(`Claro.\n\n${offer}`);
      expect(streamed).toBe(`\n\n${offer}`);
      expect(withListOffer('', response.container.archivos, 'es')).toBe(offer);
    });

    it('attaches the file it sends and gives the failure text, without a list, when the LLM fails', async () => {
      const sent = await run('carta', null);
      expect(sent.response.attachment).toMatchObject({ name: 'carta.pdf', type: 'pdf' });
      expect(sent.response.attachment?.url.startsWith('https://charla.example/')).toBe(true);
      expect(sent.response.offline).toBe(true);

      const failed = await run(
        'menu',
        llm(async () => {
          throw new Error('down');
        }),
      );
      expect(failed.response.failed).toBe(true);
      expect(failed.response.reply).toBe(
        'No pudimos responder en este momento. Por favor, intenta de nuevo más tarde.',
      );
    });
  });

  describe('persist', () => {
    it('stores a message id once: the second time gets the first answer, marked duplicate, and is not counted', async () => {
      const recorded: unknown[] = [];
      const deps = { db: app.store.db, effects: { record: (e: unknown) => recorded.push(e) } };
      const turn = {
        chatbotId: botId,
        channel: 'telegram',
        userId: '901',
        username: 'ane',
        messageId: '901:1',
        userText: '¿Abrís hoy?',
        botText: 'Sí, de 7:00 a 14:00.',
        meta: EMPTY_META,
      };
      const first = await persist(deps, turn);
      const second = await persist(deps, { ...turn, botText: 'otra respuesta' });
      expect(first).toMatchObject({ duplicate: false, stored: { botText: 'Sí, de 7:00 a 14:00.' } });
      expect(second).toMatchObject({ duplicate: true, stored: { botText: 'Sí, de 7:00 a 14:00.' } });
      expect(recorded).toEqual([{ chatbotId: botId, channel: 'telegram', userId: '901' }]);
      const rows = await app.store.db
        .selectFrom('conversation_messages')
        .select('sender')
        .where('chatbot_id', '=', botId)
        .where('user_id', '=', '901')
        .execute();
      expect(rows.map((r) => r.sender).sort()).toEqual(['bot', 'user']);

      // A silent turn stores only the follower's message and counts no reply.
      const silent = await persist(deps, {
        ...turn,
        messageId: '901:2',
        userMeta: { silent: { plugin: 'conversations', reason: 'taken over' } },
        botText: null,
      });
      expect(silent.stored).toMatchObject({ botText: '', silent: { plugin: 'conversations' } });
      expect(recorded.at(-1)).toMatchObject({ userId: '901', replies: 0 });
    });
  });
});
