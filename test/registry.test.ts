/**
 * The typed registry on its own (engine/registry): boot checks, the order plugins are set up in,
 * the middleware chain's rules, tool offering and validation, and the error boundaries around
 * every contribution. The same contracts through a running Charla are in plugin-runtime.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../engine/logger.ts';
import {
  type ChannelAdapter,
  definePlugin,
  type FeaturePlugin,
  type PluginContext,
  Registry,
  RegistryError,
  type ToolCallRecord,
  type TurnBot,
  type TurnContext,
  toolDefinitions,
} from '../engine/registry/index.ts';

const log = createLogger({ level: 'silent' });

const BOT: TurnBot = {
  id: 'bot-1',
  user_id: 'owner-1',
  business_name: 'El Pato Pepe',
  idioma: 'Español',
  timezone: 'Europe/Madrid',
  settings: {
    business_description: 'Cocina de pato.',
    public_description: '',
    chatbot_style: 'friendly',
    expectations: '',
    system_prompt: null,
    files_list: null,
    enable_audio: false,
    enable_web_search: false,
    enable_reservations: true,
    telegram_username: null,
    telegram_bot_id: null,
    phone_number: null,
    meta_verified: false,
    meta_business_account_id: null,
    whatsapp_number: null,
    is_public: false,
    published_at: null,
    category: 'Restaurante',
    selected_voice_id: null,
    responses_count: 0,
    likes_count: 0,
    charla_key: null,
    web_enabled: true,
    widget_origin: null,
    widget_seen_at: null,
    created_at: new Date(0),
    updated_at: new Date(0),
  },
};

function turn(text: string, bot: TurnBot = BOT): TurnContext {
  return {
    inbound: {
      chatbotId: bot.id,
      channel: 'test',
      follower: { id: 'f1' },
      text,
      messageId: 'm1',
    },
    bot,
    files: [],
    history: [],
    offline: false,
    turnKey: `${bot.id}:test:m1`,
    now: new Date('2026-11-22T12:00:00Z'),
    capabilities: null,
    media: async () => {
      throw new Error('no media');
    },
  };
}

/** A plugin context good enough for setup (the registry never calls these in this file). */
const context = (env: Record<string, string> = {}): Omit<PluginContext, 'settings' | 'events'> => {
  const unused = async () => {
    throw new Error('not used here');
  };
  return {
    db: undefined as never,
    log,
    publicUrl: undefined,
    offline: false,
    dispatch: unused,
    env,
    now: () => new Date(),
    secrets: { encrypt: (s) => s, decrypt: (s) => s, derive: (_p, v) => v },
    requireOwner: unused,
    mayRun: async () => true,
    reconcile: async () => {},
    reconcileOwner: async () => {},
    listen: unused,
    role: 'all',
    jobs: { send: unused, sendMany: unused, cancel: unused, schedule: unused, unschedule: unused },
    distDir: '/nonexistent',
    llm: null,
    limits: {
      hit: async () => ({ allowed: true }),
      refund: unused,
      clear: unused,
      exhausted: unused,
      enabled: () => false,
    },
    bots: { get: unused, owned: unused, changed: unused },
    send: unused,
    capabilities: () => null,
    onMessages: unused,
    filePath: () => null,
    mailer: { send: unused },
  };
};

const plugin = (p: Partial<FeaturePlugin> & { id: string }): FeaturePlugin => ({ setup: () => ({}), ...p });

async function booted(plugins: FeaturePlugin[], env: Record<string, string> = {}) {
  const registry = new Registry([], plugins, log);
  await registry.setup(() => context(env));
  return registry;
}

describe('registry boot checks', () => {
  it('refuses two adapters or two plugins with one id, and a missing dependency', () => {
    const adapter = { id: 'telegram' } as ChannelAdapter<never>;
    expect(() => new Registry([adapter, adapter], [], log)).toThrow(RegistryError);
    expect(() => new Registry([], [plugin({ id: 'a' }), plugin({ id: 'a' })], log)).toThrow(
      'duplicate plugin id "a"',
    );
    expect(() => new Registry([], [plugin({ id: 'a', dependencies: ['billing'] })], log)).toThrow(
      'plugin "a" needs plugin "billing", which is not registered',
    );
  });

  it('sets plugins up after the plugins they depend on, and refuses a cycle', async () => {
    const order: string[] = [];
    const p = (id: string, dependencies: string[] = []) =>
      plugin({
        id,
        dependencies,
        setup: () => {
          order.push(id);
          return {};
        },
      });
    await booted([p('voice', ['effects']), p('effects', ['billing']), p('billing')]);
    expect(order).toEqual(['billing', 'effects', 'voice']);
    const cyclic = new Registry([], [p('a', ['b']), p('b', ['a'])], log);
    await expect(cyclic.setup(() => context())).rejects.toThrow('cycle');
  });

  it('gives each plugin its settings from the environment, and names a variable that does not parse', async () => {
    let seen: number | undefined;
    const search = definePlugin({
      id: 'search',
      envSchema: z.object({ SEARCH_MAX: z.coerce.number().int().max(10).default(5) }),
      setup: (ctx) => {
        seen = ctx.settings.SEARCH_MAX;
        return {};
      },
    });
    await booted([search]);
    expect(seen).toBe(5);
    // An empty variable is unset: the default holds.
    await booted([search], { SEARCH_MAX: '' });
    expect(seen).toBe(5);
    await booted([search], { SEARCH_MAX: '8' });
    expect(seen).toBe(8);
    await expect(booted([search], { SEARCH_MAX: '50' })).rejects.toThrow(
      'plugin "search" settings: SEARCH_MAX',
    );
  });

  it('refuses two plugins contributing a tool with the same name, and names the API refuses', async () => {
    const tool = { name: 'book', description: '', input: z.object({}), run: async () => 'ok' };
    await expect(
      booted([
        plugin({ id: 'a', setup: () => ({ tools: [tool] }) }),
        plugin({ id: 'b', setup: () => ({ tools: [tool] }) }),
      ]),
    ).rejects.toThrow('plugins "a" and "b" both contribute a tool "book"');
    await expect(
      booted([plugin({ id: 'a', setup: () => ({ tools: [{ ...tool, name: 'book a table' }] }) })]),
    ).rejects.toThrow('must match');
  });

  it('lists plugins’ migrations in dependency order', () => {
    const m = { up: async () => {} };
    const registry = new Registry(
      [],
      [
        plugin({ id: 'reservations', dependencies: ['billing'], migrations: { '202611230000_a': m } }),
        plugin({ id: 'billing', migrations: { '202611230000_b': m } }),
        plugin({ id: 'search' }),
      ],
      log,
    );
    expect(registry.migrations().map((p) => p.id)).toEqual(['billing', 'reservations']);
  });
});

describe('the middleware chain', () => {
  it('passes each rewrite on, and stops at the first reply or silence', async () => {
    const seen: string[] = [];
    const registry = await booted([
      plugin({
        id: 'voice',
        setup: () => ({
          middleware: [
            (t) => {
              seen.push(t.inbound.text);
              return t.inbound.text === '[nota de voz]' ? { text: 'quiero la carta' } : undefined;
            },
          ],
        }),
      }),
      plugin({
        id: 'takeover',
        setup: () => ({
          middleware: [
            (t) => {
              seen.push(t.inbound.text);
              return t.inbound.follower.id === 'f1' && t.inbound.text === 'hola'
                ? { silent: true, reason: 'owner took over' }
                : undefined;
            },
            (t) => {
              seen.push(`after:${t.inbound.text}`);
              return undefined;
            },
          ],
        }),
      }),
    ]);
    expect(await registry.runMiddleware(turn('[nota de voz]'))).toEqual({ text: 'quiero la carta' });
    expect(seen).toEqual(['[nota de voz]', 'quiero la carta', 'after:quiero la carta']);
    seen.length = 0;
    expect(await registry.runMiddleware(turn('hola'))).toEqual({
      text: 'hola',
      stop: { kind: 'silent', reason: 'owner took over', plugin: 'takeover' },
    });
    expect(seen).toEqual(['hola', 'hola']);
  });

  it('skips a middleware that throws and goes on with the next', async () => {
    const registry = await booted([
      plugin({
        id: 'broken',
        setup: () => ({
          middleware: [
            () => {
              throw new Error('boom');
            },
          ],
        }),
      }),
      plugin({ id: 'gate', setup: () => ({ middleware: [() => ({ reply: 'Sin días' })] }) }),
    ]);
    expect(await registry.runMiddleware(turn('hola'))).toEqual({
      text: 'hola',
      stop: { kind: 'reply', reply: 'Sin días', plugin: 'gate' },
    });
  });
});

describe('tools', () => {
  const calls: Array<{ input: unknown; key: string }> = [];
  const reservations = plugin({
    id: 'reservations',
    setup: () => ({
      tools: [
        {
          name: 'book_table',
          description: 'Books a table',
          input: z.object({
            people: z.number().int().min(1).max(12).describe('Party size'),
            slotId: z.string(),
          }),
          enabled: (bot) => bot.settings.enable_reservations,
          run: async (input, call) => {
            calls.push({ input, key: call.idempotencyKey });
            return { code: 'PEPE42' };
          },
        },
        {
          name: 'cancel_booking',
          description: 'Cancels a booking',
          input: z.object({ code: z.string() }),
          enabled: (bot) => bot.settings.enable_reservations,
          run: async () => {
            throw new Error('No hay ninguna reserva con ese código.');
          },
        },
      ],
    }),
  });

  it('offers a tool only to bots that enable it, with its input as JSON Schema', async () => {
    const registry = await booted([reservations]);
    expect(registry.tools({ ...BOT, settings: { ...BOT.settings, enable_reservations: false } })).toEqual([]);
    const offered = registry.tools(BOT);
    expect(offered.map((t) => t.tool.name)).toEqual(['book_table', 'cancel_booking']);
    const [definition] = toolDefinitions(offered);
    expect(definition).toMatchObject({
      type: 'function',
      function: {
        name: 'book_table',
        description: 'Books a table',
        parameters: {
          type: 'object',
          properties: {
            people: { type: 'integer', minimum: 1, maximum: 12, description: 'Party size' },
            slotId: { type: 'string' },
          },
          required: ['people', 'slotId'],
        },
      },
    });
  });

  it('validates input, numbers calls for idempotency, and turns failures into results', async () => {
    const registry = await booted([reservations]);
    const record: ToolCallRecord[] = [];
    const runner = registry.toolRunner(turn('reserva'), record);
    expect(await runner.run('book_table', { people: 4, slotId: 's-20' })).toEqual({
      ok: true,
      output: { code: 'PEPE42' },
    });
    const invalid = await runner.run('book_table', { people: 40, slotId: 's-20' });
    expect(invalid.ok).toBe(false);
    expect(invalid).toMatchObject({ error: expect.stringContaining('Invalid input for book_table') });
    expect(await runner.run('cancel_booking', { code: 'X' })).toEqual({
      ok: false,
      error: 'No hay ninguna reserva con ese código.',
    });
    expect(await runner.run('order_pizza', {})).toEqual({ ok: false, error: 'Unknown tool "order_pizza".' });
    expect(calls).toEqual([{ input: { people: 4, slotId: 's-20' }, key: 'bot-1:test:m1#1' }]);
    expect(record.map((r) => [r.name, r.error])).toEqual([
      ['book_table', false],
      ['book_table', true],
      ['cancel_booking', true],
      ['order_pizza', true],
    ]);
  });
});

describe('error boundaries', () => {
  it('leaves out a failing or empty prompt fragment and skips a failing outbound transformer', async () => {
    const registry = await booted([
      plugin({
        id: 'a',
        setup: () => ({
          promptFragments: [
            () => {
              throw new Error('no calendar');
            },
            () => '',
            (bot) => `Reservas de ${bot.business_name}.`,
          ],
          outbound: [
            () => {
              throw new Error('tts down');
            },
            (m) => ({ ...m, text: `${m.text}!` }),
          ],
        }),
      }),
    ]);
    expect(await registry.promptFragments(BOT)).toEqual(['Reservas de El Pato Pepe.']);
    const out = await registry.transformOutbound(
      { text: 'Hola' },
      {
        bot: BOT,
        channel: 'telegram',
        chatId: '1',
        capabilities: { maxTextLength: 4096, voiceNotes: true, choices: true, streaming: false, push: true },
      },
    );
    expect(out).toEqual({ text: 'Hola!' });
  });
});
