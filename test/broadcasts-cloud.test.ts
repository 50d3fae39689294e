/**
 * Broadcasts to WhatsApp Cloud API followers (issue 28 §1), against the local Graph API server
 * (test/servers/graph.ts): until Meta approves Charla's MARKETING broadcast template the Cloud
 * followers are counted and skipped (a broadcast to nobody else is refused); a follower who writes
 * "BAJA" is answered in the bot's language and left out of every broadcast (`optedOut`); once the
 * template is approved a follower outside the 24-hour window gets the broadcast as the template
 * `charla_broadcast` with the owner's text as its parameter; "alta" brings the opted-out one back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_BODIES, TEMPLATE_NAMES } from '../adapters/whatsapp/cloud/templates.ts';
import { createWhatsAppAdapter, type WhatsAppAdapter } from '../adapters/whatsapp/index.ts';
import type { ChannelAdapter } from '../engine/registry/index.ts';
import {
  type AudienceAnswer,
  BROADCAST_TEMPLATE_NAME,
  type BroadcastsAnswer,
} from '../plugins/broadcasts/api.ts';
import { OPTOUT_REPLIES, optCommand } from '../plugins/broadcasts/optout.ts';
import { createTestApp, fakeLlm } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { type App, ownerWithBot, until, withInject } from './helpers/owners.ts';
import { type FakeGraph, hubSignature, messageWebhook, startFakeGraph } from './servers/graph.ts';
import { type FakeOpenAi, startFakeOpenAi } from './servers/openai.ts';

const APP_SECRET = 'meta-app-secret-for-broadcasts';
const HOUR = 3_600_000;
const TEXT = 'Este sábado abrimos la terraza con música en directo.';

it('reads the stop and start commands in the seven languages, whole messages only', () => {
  for (const w of ['STOP', 'Baja', 'darme de baja', 'ARRÊT', 'arret!', 'Stopp', 'basta', 'Стоп', 'रोकें'])
    expect(optCommand(w), w).toBe('stop');
  for (const w of ['ALTA', 'start', 'Alta.']) expect(optCommand(w), w).toBe('start');
  for (const w of ['stop the music please', 'quiero darme de alta en el gimnasio', 'hola', ''])
    expect(optCommand(w), w).toBeNull();
  expect(TEMPLATE_NAMES.broadcast).toBe(BROADCAST_TEMPLATE_NAME);
});

describe.each(dialectsOf(import.meta.url))('broadcasts to WhatsApp Cloud followers on %s', (kind) => {
  let graph: FakeGraph;
  let openai: FakeOpenAi;
  let app: App;
  let adapter: WhatsAppAdapter;
  let webhookUrl: string;

  beforeAll(async () => {
    graph = await startFakeGraph();
    openai = await startFakeOpenAi({ reply: () => ({ text: 'Respuesta del bot.' }) });
    adapter = createWhatsAppAdapter();
    app = await withInject(
      await createTestApp(kind, {
        llm: fakeLlm(openai.baseURL),
        env: { WHATSAPP_GRAPH_URL: graph.url, META_APP_ID: '1234567890', META_APP_SECRET: APP_SECRET },
        supervisorIntervalMs: 200,
        adapters: [adapter as unknown as ChannelAdapter<never>],
      }),
    );
    await app.startChannels();
    const http = await app.http();
    webhookUrl = `${await http.listen({ port: 0, host: '127.0.0.1' })}/channels/whatsapp`;
  });
  afterAll(async () => {
    await app?.close();
    await openai?.close();
    await graph?.close();
  });

  const webhook = (body: unknown) => {
    const raw = JSON.stringify(body);
    return app.inject({
      method: 'POST',
      url: '/channels/whatsapp',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(raw, APP_SECRET) },
      payload: raw,
    });
  };

  /** A follower's message that arrived `hoursAgo` hours ago, once stored. */
  const follower = async (phoneNumberId: string, waId: string, text: string, hoursAgo: number) => {
    const m = messageWebhook(
      phoneNumberId,
      { waId, name: 'Marta' },
      { type: 'text', text: { body: text } },
      { timestamp: Math.floor((Date.now() - hoursAgo * HOUR) / 1000) },
    );
    expect((await webhook(m.body)).statusCode).toBe(200);
    await until(
      async () =>
        (
          await app.store.db
            .selectFrom('conversation_messages')
            .select('id')
            .where('user_id', '=', waId)
            .where('text', '=', text)
            .execute()
        ).length > 0,
      8000,
      'follower message stored',
    );
  };

  /** The bot's free-form texts to a follower at the Graph server. */
  const textsTo = (phoneNumberId: string, waId: string) =>
    graph
      .messages(phoneNumberId, waId)
      .filter((m) => m.type === 'text')
      .map((m) => (m.text as { body: string }).body);

  it('skips Cloud followers until the broadcast template is approved, honours BAJA and ALTA, and sends the template', async () => {
    const owner = await ownerWithBot(app, 'difusion-cloud@example.com', {
      business_name: 'Casa Difusión',
      idioma: 'Español',
    });
    const headers = { authorization: `Bearer ${owner.token}` };
    const token = 'EAAtoken6701xxxxxxxxxxxxxxxxxxxxxxxx';
    graph.addNumber({
      id: '6701',
      display_phone_number: '+34 655 000 701',
      verified_name: 'Casa',
      tokens: [token],
      wabaId: '8901',
    });
    const connect = await app.inject({
      method: 'POST',
      url: '/api/connect-whatsapp-cloud',
      headers,
      payload: {
        chatbotId: owner.botId,
        phoneNumberId: '6701',
        businessAccountId: '8901',
        accessToken: token,
      },
    });
    expect(connect.statusCode, connect.body).toBe(200);
    await until(() => adapter.connections.connected().includes(owner.botId), 5000, 'connected');

    const audience = async () => {
      const res = await app.inject({
        method: 'GET',
        url: `/api/broadcasts/${owner.botId}/audience`,
        headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as AudienceAnswer).audiences.find((a) => a.audience === 'whatsappCloud')!;
    };
    const broadcast = async (text: string) => {
      const form = new FormData();
      form.append('chatbotId', owner.botId);
      form.append('text', text);
      const r = new Response(form);
      return (await app.http()).inject({
        method: 'POST',
        url: '/api/telegram-broadcast',
        headers: { ...headers, 'content-type': r.headers.get('content-type')! },
        payload: Buffer.from(await r.arrayBuffer()),
      });
    };

    const reader = '34600700001';
    const leaver = '34600700002';
    await follower('6701', reader, 'Hola, ¿abrís el sábado?', 30);
    await follower('6701', leaver, 'BAJA', 0);
    // The follower who wrote BAJA is told so in the bot's language (the LLM never saw it).
    await graph.waitFor(() => (textsTo('6701', leaver).length ? true : undefined), 8000);
    expect(textsTo('6701', leaver)).toEqual([OPTOUT_REPLIES.stopped.es]);

    // Without the approved template: counted, skipped, and a broadcast to nobody else is refused.
    expect(await audience()).toMatchObject({ count: 0, leftOut: 2, sendable: false, reason: 'template' });
    const refused = await broadcast(TEXT);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'noAudience' });
    expect(graph.templateSends('6701')).toEqual([]);

    // The one-click submission includes the MARKETING broadcast template; Meta approves Spanish.
    const submitted = await app.inject({
      method: 'POST',
      url: `/api/whatsapp/${owner.botId}/templates`,
      headers,
      payload: {},
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const atMeta = [...graph.templates.values()].find(
      (t) => t.wabaId === '8901' && t.name === 'charla_broadcast' && t.language === 'es',
    )!;
    expect(atMeta.category).toBe('MARKETING');
    expect(atMeta.components[0]).toMatchObject({ type: 'BODY', text: TEMPLATE_BODIES.es.broadcast });
    expect(
      await graph.reviewTemplate({ wabaId: '8901', name: 'charla_broadcast', language: 'es' }, 'APPROVED', {
        webhook: { url: webhookUrl, appSecret: APP_SECRET },
      }),
    ).toBe(200);

    expect(await audience()).toMatchObject({ count: 1, leftOut: 1, sendable: true, reason: 'optedOut' });
    const sent = await broadcast(TEXT);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ total: 1, skipped: 1 });
    const [template] = await graph.waitFor(() => {
      const s = graph.templateSends('6701', reader);
      return s.length ? s : undefined;
    }, 15_000);
    expect(template).toMatchObject({ name: 'charla_broadcast', language: { code: 'es' } });
    const params = (template!.components as Array<{ parameters: Array<{ type: string; text: string }> }>)[0]!
      .parameters;
    expect(params).toEqual([{ type: 'text', text: TEXT }]);
    // Outside the window nothing free-form was attempted; the one who wrote BAJA got nothing.
    expect(graph.messages('6701', reader).filter((m) => m.type !== 'template')).toEqual([]);
    expect(graph.templateSends('6701', leaver)).toEqual([]);
    const progress = async () => {
      const res = await app.inject({ method: 'GET', url: `/api/broadcasts/${owner.botId}`, headers });
      return (res.json() as BroadcastsAnswer).broadcasts[0]!;
    };
    await until(async () => (await progress()).status === 'done', 10_000, 'broadcast done');
    const cloud = (await progress()).channels.find((c) => c.audience === 'whatsappCloud')!;
    expect(cloud).toMatchObject({ sent: 1, skipped: [{ reason: 'optedOut', count: 1 }] });

    // ALTA brings the follower back, answered in the bot's language.
    await follower('6701', leaver, 'alta', 0);
    await graph.waitFor(() => (textsTo('6701', leaver).length === 2 ? true : undefined), 8000);
    expect(textsTo('6701', leaver)[1]).toBe(OPTOUT_REPLIES.started.es);
    expect(await audience()).toMatchObject({ count: 2, leftOut: 0, sendable: true, reason: null });
  });
});
