/**
 * WhatsApp through Meta's Cloud API (issue 13), against a local server speaking the Graph API's
 * documented wire format (test/servers/graph.ts) and the local OpenAI-format server:
 * the webhook verification challenge; connecting a number by the manual form (token checked, stored
 * encrypted, app subscribed); a signed message answered with the LLM's reply and a PDF uploaded and
 * sent as a document; a bad signature refused with nothing stored; one webhook delivered three times
 * answered once; out-of-order status updates; the 24-hour window; a LIST as an interactive list
 * whose row sends the file; follower media downloaded through the Graph API; the business discovery
 * of the Facebook login flow; the form's webhook URL, verify token and the warning that Meta cannot
 * reach a 127.0.0.1 address (issue 28 §3).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicUrlProblem } from '../adapters/whatsapp/cloud/public-url.ts';
import { createWhatsAppAdapter, type WhatsAppAdapter } from '../adapters/whatsapp/index.ts';
import { messageStatus } from '../adapters/whatsapp/messages.ts';
import { WHATSAPP_ERRORS } from '../adapters/whatsapp/texts.ts';
import type { ChannelAdapter } from '../engine/registry/index.ts';
import { createTestApp, fakeLlm } from './helpers/app.ts';
import { type App, ownerWithBot, until, uploadFile, withInject } from './helpers/owners.ts';
import {
  type FakeGraph,
  hubSignature,
  messageWebhook,
  startFakeGraph,
  statusWebhook,
} from './servers/graph.ts';
import { type FakeOpenAi, startFakeOpenAi } from './servers/openai.ts';

const asset = (name: string) => readFileSync(new URL(`../assets/demo/${name}`, import.meta.url));
const APP_SECRET = 'meta-app-secret-for-tests';

describe('WhatsApp Cloud API against a local Graph API server', () => {
  let graph: FakeGraph;
  let openai: FakeOpenAi;
  let app: App;
  let adapter: WhatsAppAdapter;

  beforeAll(async () => {
    graph = await startFakeGraph();
    openai = await startFakeOpenAi();
    adapter = createWhatsAppAdapter();
    app = await withInject(
      await createTestApp('pglite', {
        llm: fakeLlm(openai.baseURL),
        env: {
          WHATSAPP_GRAPH_URL: graph.url,
          META_APP_ID: '1234567890',
          META_APP_SECRET: APP_SECRET,
          WHATSAPP_VERIFY_TOKEN: 'token-de-verificacion',
          // A development server's address, which Meta cannot reach (issue 28 §3).
          PUBLIC_URL: 'http://127.0.0.1:8787',
        },
        supervisorIntervalMs: 200,
        adapters: [adapter as unknown as ChannelAdapter<never>],
      }),
    );
    await app.startChannels();
  });
  afterAll(async () => {
    await app?.close();
    await openai?.close();
    await graph?.close();
  });

  /** Posts a webhook body as Meta does (signed with `secret`, or with the given header). */
  const webhook = (body: unknown, signature: string | null = 'sign', secret = APP_SECRET) => {
    const raw = JSON.stringify(body);
    return app.inject({
      method: 'POST',
      url: '/channels/whatsapp',
      headers: {
        'content-type': 'application/json',
        ...(signature === null
          ? {}
          : { 'x-hub-signature-256': signature === 'sign' ? hubSignature(raw, secret) : signature }),
      },
      payload: raw,
    });
  };

  /** An owner with a bot connected to a new Cloud API number through the manual form. */
  const connected = async (email: string, phoneNumberId: string, bot: Record<string, unknown> = {}) => {
    const owner = await ownerWithBot(app, email, { business_name: 'Casa Cloud', idioma: 'Español', ...bot });
    const token = `EAAtoken${phoneNumberId}xxxxxxxxxxxxxxxxxxxxxxxx`;
    graph.addNumber({
      id: phoneNumberId,
      display_phone_number: '+34 655 000 111',
      verified_name: 'Casa',
      tokens: [token],
    });
    const res = await app.inject({
      method: 'POST',
      url: '/api/connect-whatsapp-cloud',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { chatbotId: owner.botId, phoneNumberId, businessAccountId: '7000', accessToken: token },
    });
    expect(res.statusCode, res.body).toBe(200);
    await until(() => adapter.connections.connected().includes(owner.botId), 5000, 'connected');
    return { ...owner, token, auth: owner.token };
  };

  it('answers the verification challenge only with the verify token', async () => {
    const ok = await app.inject({
      method: 'GET',
      url: '/channels/whatsapp?hub.mode=subscribe&hub.verify_token=token-de-verificacion&hub.challenge=1158201444',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    const bad = await app.inject({
      method: 'GET',
      url: '/channels/whatsapp?hub.mode=subscribe&hub.verify_token=otro&hub.challenge=1158201444',
    });
    expect(bad.statusCode).toBe(403);
  });

  it('connects a number by the manual form with the spec’s fields, the token encrypted at rest', async () => {
    const owner = await ownerWithBot(app, 'manual@example.com', { business_name: 'Manual' });
    const headers = { authorization: `Bearer ${owner.token}` };
    const missing = await app.inject({
      method: 'POST',
      url: '/api/connect-whatsapp-cloud',
      headers,
      payload: { chatbotId: owner.botId, phoneNumberId: '', businessAccountId: '', accessToken: '' },
    });
    expect(missing.json().error).toBe(WHATSAPP_ERRORS.cloudRequired);
    const refused = await app.inject({
      method: 'POST',
      url: '/api/connect-whatsapp-cloud',
      headers,
      payload: {
        chatbotId: owner.botId,
        phoneNumberId: '5550',
        businessAccountId: '7000',
        accessToken: 'EAAwrong',
      },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatch(/^Meta rechazó el token de acceso/);

    const { botId, token, auth } = await connected('manual2@example.com', '5551');
    const config = await app.inject({
      method: 'GET',
      url: `/api/get-whatsapp-config?chatbotId=${botId}`,
      headers: { authorization: `Bearer ${auth}` },
    });
    expect(config.json()).toMatchObject({
      whatsapp_number: '34655000111',
      backend: 'cloud',
      status: 'active',
      connected: true,
      cloud: {
        phoneNumberId: '5551',
        businessAccountId: '7000',
        phoneNumber: '34655000111',
        metaVerified: false,
      },
      webhook: { verifyToken: 'token-de-verificacion' },
      health: { state: 'connected', mode: 'cloud-api' },
    });
    const row = await app.store.db
      .selectFrom('chatbots')
      .selectAll()
      .where('id', '=', botId)
      .executeTakeFirstOrThrow();
    expect(row.meta_token).not.toContain(token);
    expect(app.secrets.decrypt(row.meta_token!)).toBe(token);
    expect(row.meta_business_account_id).toBe('7000');
    expect(graph.calls.some((c) => c.path === '7000/subscribed_apps' && c.method === 'POST')).toBe(true);

    // The same number cannot be connected to a second bot.
    const other = await ownerWithBot(app, 'manual3@example.com', { business_name: 'Otro' });
    const taken = await app.inject({
      method: 'POST',
      url: '/api/connect-whatsapp-cloud',
      headers: { authorization: `Bearer ${other.token}` },
      payload: {
        chatbotId: other.botId,
        phoneNumberId: '5551',
        businessAccountId: '7000',
        accessToken: token,
      },
    });
    expect(taken.statusCode).toBe(409);

    const removed = await app.inject({
      method: 'POST',
      url: '/api/remove-whatsapp',
      headers: { authorization: `Bearer ${auth}` },
      payload: { chatbotId: botId },
    });
    expect(removed.json()).toEqual({ success: true, message: 'WhatsApp desconectado.' });
    const after = await app.store.db
      .selectFrom('chatbots')
      .selectAll()
      .where('id', '=', botId)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({
      meta_token: null,
      whatsapp_number: null,
      phone_number: null,
      meta_business_account_id: null,
    });
  });

  it('answers a signed message with the LLM’s reply and a PDF, refuses a bad signature and answers a redelivery once', async () => {
    const { botId, auth } = await connected('pdf@example.com', '5552');
    await uploadFile(app, auth, botId, 'carta.pdf', asset('carta-el-pato-pepe.pdf'), 'carta');

    // Bad or missing signatures: 401, nothing stored, nothing sent.
    const bad = messageWebhook('5552', { waId: '34600222333' }, { type: 'text', text: { body: 'hola' } });
    expect((await webhook(bad.body, 'sha256=00ff')).statusCode).toBe(401);
    expect((await webhook(bad.body, null)).statusCode).toBe(401);
    expect((await webhook(bad.body, 'sign', 'otro-secreto')).statusCode).toBe(401);
    const stored = await app.store.db
      .selectFrom('channel_updates')
      .select('id')
      .where('chatbot_id', '=', botId)
      .execute();
    expect(stored).toEqual([]);

    const hello = messageWebhook(
      '5552',
      { waId: '34600222333', name: 'Ana' },
      { type: 'text', text: { body: '¿Me mandas la carta?' } },
    );
    for (let i = 0; i < 3; i++) expect((await webhook(hello.body)).statusCode).toBe(200);
    const sent = await graph.waitFor(() => {
      const m = graph.messages('5552', '34600222333');
      return m.length >= 2 && m;
    });
    expect(sent[0]).toMatchObject({
      messaging_product: 'whatsapp',
      type: 'text',
      text: { body: 'Respuesta: ¿Me mandas la carta?' },
    });
    expect(sent[1]).toMatchObject({ type: 'document', document: { filename: 'carta.pdf' } });
    const mediaId = (sent[1]!.document as { id: string }).id;
    expect(graph.uploads.get(mediaId)?.bytes.equals(asset('carta-el-pato-pepe.pdf'))).toBe(true);
    expect(graph.uploads.get(mediaId)?.mime).toBe('application/pdf');
    expect(graph.typing('5552')).toContain(hello.id);
    await new Promise((r) => setTimeout(r, 400));
    expect(graph.messages('5552', '34600222333')).toHaveLength(2); // three deliveries, one answer
    expect(openai.requests.filter((r) => r.messages.at(-1)?.content === '¿Me mandas la carta?')).toHaveLength(
      1,
    );
    const conversation = await app.store.db
      .selectFrom('conversation_messages')
      .select(['sender', 'user_id', 'username', 'message_id'])
      .where('chatbot_id', '=', botId)
      .orderBy('id')
      .execute();
    expect(conversation).toMatchObject([
      { sender: 'user', user_id: '34600222333', username: 'Ana', message_id: hello.id },
      { sender: 'bot', user_id: '34600222333' },
    ]);
    // The same PDF again: Meta's media id is reused, no second upload.
    const uploads = graph.uploads.size;
    await webhook(
      messageWebhook('5552', { waId: '34600222444' }, { type: 'text', text: { body: 'la carta' } }).body,
    );
    await graph.waitFor(() => graph.messages('5552', '34600222444').length >= 2);
    expect(graph.uploads.size).toBe(uploads);
  });

  it('keeps the furthest delivery status whatever order the webhooks come in', async () => {
    const { botId } = await connected('status@example.com', '5553');
    await webhook(
      messageWebhook('5553', { waId: '34600333444' }, { type: 'text', text: { body: 'hola' } }).body,
    );
    await graph.waitFor(() => graph.messages('5553', '34600333444').length > 0);
    // The reply's record is stored once the Graph API has answered the send, just after the fake
    // counts it: wait for the record, not for the fake.
    const outgoing = () =>
      adapter
        .db()
        .selectFrom('whatsapp_messages')
        .select('message_id')
        .where('chatbot_id', '=', botId)
        .where('direction', '=', 'out')
        .executeTakeFirst();
    await expect.poll(outgoing, { timeout: 5000 }).toBeDefined();
    const { message_id: wamid } = (await outgoing())!;
    const t = Math.floor(Date.now() / 1000);
    const s = (status: string, dt: number) => ({
      id: wamid,
      status,
      recipient: '34600333444',
      timestamp: t + dt,
    });
    expect((await webhook(statusWebhook('5553', [s('read', 3)]))).statusCode).toBe(200);
    await webhook(statusWebhook('5553', [s('delivered', 2), s('sent', 1)]));
    expect(await messageStatus(adapter.db(), botId, wamid)).toMatchObject({
      status: 'read',
      direction: 'out',
    });
    // A status for a message the store has not seen yet creates it; a failure is shown to the owner.
    await webhook(
      statusWebhook('5553', [
        { id: 'wamid.UNSEEN', status: 'failed', recipient: '34600333444', timestamp: t, errorCode: 131047 },
      ]),
    );
    await webhook(
      statusWebhook('5553', [
        { id: 'wamid.UNSEEN', status: 'delivered', recipient: '34600333444', timestamp: t - 5 },
      ]),
    );
    expect(await messageStatus(adapter.db(), botId, 'wamid.UNSEEN')).toMatchObject({
      status: 'failed',
      error_code: 131047,
    });
    const health = await adapter.connections.health(botId);
    expect(health.lastError).toBe(WHATSAPP_ERRORS.window24h.replace('{chat}', '34600333444'));
  });

  it('respects the 24-hour customer service window', async () => {
    const { botId } = await connected('ventana@example.com', '5554');
    // A message that waited more than 24 hours (the bot was paused): stored, not answered.
    const old = messageWebhook(
      '5554',
      { waId: '34600444555' },
      { type: 'text', text: { body: '¿Seguís abiertos?' } },
      {
        timestamp: Math.floor(Date.now() / 1000) - 25 * 3600,
      },
    );
    expect((await webhook(old.body)).statusCode).toBe(200);
    await until(
      async () => (await adapter.connections.health(botId)).lastError?.includes('34600444555'),
      5000,
      'window note',
    );
    expect(graph.messages('5554', '34600444555')).toEqual([]);
    const rows = await app.store.db
      .selectFrom('conversation_messages')
      .select(['sender', 'text'])
      .where('chatbot_id', '=', botId)
      .execute();
    expect(rows).toEqual([{ sender: 'user', text: '¿Seguís abiertos?' }]);
    expect(openai.requests.some((r) => r.messages.at(-1)?.content === '¿Seguís abiertos?')).toBe(false);
    // A message the bot was not asked for (an owner's reply) outside the window is refused.
    await expect(adapter.send(botId, '34600444555', { text: 'Hola de nuevo' })).rejects.toThrow(/24 horas/);
    // Meta itself refusing (131047) is not retried and the owner sees why.
    graph.closedWindows.add('34600444666');
    await webhook(
      messageWebhook('5554', { waId: '34600444666' }, { type: 'text', text: { body: 'hola' } }).body,
    );
    await until(
      async () => (await adapter.connections.health(botId)).lastError?.includes('34600444666'),
      5000,
      'refusal note',
    );
    const failed = await app.store.db
      .selectFrom('channel_updates')
      .select('status')
      .where('chatbot_id', '=', botId)
      .execute();
    expect(failed.map((r) => r.status)).toEqual(['done', 'done']);
  });

  it('offers a LIST as an interactive list (10 rows, titles of 24 characters) whose row sends the file, and downloads follower media', async () => {
    const { botId, auth } = await connected('lista@example.com', '5555');
    const pdf = await uploadFile(
      app,
      auth,
      botId,
      'carta-de-temporada-invierno.pdf',
      asset('carta-el-pato-pepe.pdf'),
      'menu',
    );
    await uploadFile(app, auth, botId, 'local.jpg', asset('local-el-pato-pepe.jpg'), 'menu');
    await webhook(
      messageWebhook('5555', { waId: '34600555666' }, { type: 'text', text: { body: 'menu' } }).body,
    );
    const [list] = await graph.waitFor(() => {
      const m = graph.messages('5555', '34600555666').filter((x) => x.type === 'interactive');
      return m.length > 0 && m;
    });
    const interactive = list!.interactive as {
      type: string;
      body: { text: string };
      action: {
        button: string;
        sections: Array<{ title: string; rows: Array<{ id: string; title: string; description?: string }> }>;
      };
    };
    expect(interactive.type).toBe('list');
    expect(interactive.action.button).toBe('Ver archivos');
    const rows = interactive.action.sections.flatMap((s) => s.rows);
    expect(rows.length).toBeLessThanOrEqual(10);
    for (const r of rows) expect(Array.from(r.title).length).toBeLessThanOrEqual(24);
    const row = rows.find((r) => r.id === `f:${pdf.id}`)!;
    expect(row.title).toBe('carta-de-temporada-invi…');
    expect(row.description).toBe('carta-de-temporada-invierno.pdf');
    expect(interactive.body.text).toContain('1. ');

    await webhook(
      messageWebhook(
        '5555',
        { waId: '34600555666' },
        {
          type: 'interactive',
          interactive: { type: 'list_reply', list_reply: { id: row.id, title: row.title } },
        },
      ).body,
    );
    const doc = await graph.waitFor(() =>
      graph.messages('5555', '34600555666').find((m) => m.type === 'document'),
    );
    expect(doc).toMatchObject({ document: { filename: 'carta-de-temporada-invierno.pdf' } });

    // A photo from the follower: kept with its media id, readable through the Graph API.
    graph.media.set('4242', { bytes: asset('local-el-pato-pepe.jpg'), mime: 'image/jpeg' });
    await webhook(
      messageWebhook(
        '5555',
        { waId: '34600555777' },
        { type: 'image', image: { id: '4242', mime_type: 'image/jpeg' } },
      ).body,
    );
    await graph.waitFor(() => graph.messages('5555', '34600555777').length > 0);
    const media = await adapter.downloadMedia!(botId, '4242');
    expect(media.data.equals(asset('local-el-pato-pepe.jpg'))).toBe(true);
    expect(media.mime).toBe('image/jpeg');
  });

  it('finds the business, its WhatsApp account and number after a Facebook login, and connects with a long-lived token', async () => {
    const owner = await ownerWithBot(app, 'facebook@example.com', { business_name: 'Facebook' });
    const headers = { authorization: `Bearer ${owner.token}` };
    graph.addUser('EAAuserSHORT', {
      businesses: [
        { id: '111', name: 'Casa Lola SL' },
        { id: '112', name: 'Otra' },
      ],
      wabas: { '111': [{ id: '222', name: 'Casa Lola WABA' }] },
      numbers: {
        '222': [{ id: '333', display_phone_number: '+34 611 222 333', verified_name: 'Casa Lola' }],
      },
    });
    graph.addUser('EAAuserEMPTY', { businesses: [] });
    graph.addNumber({
      id: '333',
      display_phone_number: '+34 611 222 333',
      verified_name: 'Casa Lola',
      tokens: [],
    });

    const none = await app.inject({
      method: 'POST',
      url: '/api/meta/businesses',
      headers,
      payload: { accessToken: 'EAAuserEMPTY' },
    });
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toBe(WHATSAPP_ERRORS.metaNoBusinesses);
    const businesses = await app.inject({
      method: 'POST',
      url: '/api/meta/businesses',
      headers,
      payload: { accessToken: 'EAAuserSHORT' },
    });
    expect(businesses.json()).toEqual({ business: { id: '111', name: 'Casa Lola SL' } });
    const accounts = await app.inject({
      method: 'POST',
      url: '/api/meta/whatsapp-accounts',
      headers,
      payload: { accessToken: 'EAAuserSHORT', businessId: '111' },
    });
    expect(accounts.json()).toEqual({
      account: { id: '222', name: 'Casa Lola WABA' },
      phoneNumber: { id: '333', display_phone_number: '+34 611 222 333', verified_name: 'Casa Lola' },
    });
    const noWaba = await app.inject({
      method: 'POST',
      url: '/api/meta/whatsapp-accounts',
      headers,
      payload: { accessToken: 'EAAuserSHORT', businessId: '112' },
    });
    expect(noWaba.json().error).toBe(WHATSAPP_ERRORS.metaNoWhatsApp);
    const done = await app.inject({
      method: 'POST',
      url: '/api/connect-whatsapp-cloud',
      headers,
      payload: {
        chatbotId: owner.botId,
        phoneNumberId: '333',
        businessAccountId: '222',
        accessToken: 'EAAuserSHORT',
        fromFacebookLogin: true,
      },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      whatsapp_number: '34611222333',
      cloud: { businessAccountId: '222', metaVerified: false },
    });
    const row = await app.store.db
      .selectFrom('chatbots')
      .select('meta_token')
      .where('id', '=', owner.botId)
      .executeTakeFirstOrThrow();
    expect(app.secrets.decrypt(row.meta_token!)).toBe('EAALONGEAAuserSHORT');
  });

  it('gives the Cloud API form the webhook URL and verify token, and says Meta cannot reach 127.0.0.1', async () => {
    const url = '/api/whatsapp-cloud-setup';
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const owner = await ownerWithBot(app, 'setup@example.com', { business_name: 'Setup' });
    const setup = await app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${owner.token}`, 'x-app-language': 'en' },
    });
    expect(setup.statusCode, setup.body).toBe(200);
    const body = setup.json();
    expect(body).toMatchObject({
      webhookUrl: 'http://127.0.0.1:8787/channels/whatsapp',
      verifyToken: 'token-de-verificacion',
      publicUrlReachable: false,
      problem: 'private',
    });
    // The owner reads what is wrong and who fixes it, in their language, never a variable's name.
    expect(body.warning).toContain(
      "This server's public address (http://127.0.0.1:8787) is not reachable by Meta",
    );
    expect(body.warning).toContain('Your operator must give the server a public https address');
    expect(body.warning).not.toMatch(/PUBLIC_URL|[A-Z]+_[A-Z]+/);
    // The callback the owner pastes is the one Meta verifies.
    const challenge = await app.inject({
      method: 'GET',
      url: `/channels/whatsapp?hub.mode=subscribe&hub.verify_token=${body.verifyToken}&hub.challenge=42`,
    });
    expect(challenge.body).toBe('42');
    // What counts as reachable: a public https name only.
    expect(publicUrlProblem('https://charla.example.com/channels/whatsapp')).toBeNull();
    expect(publicUrlProblem('https://93.184.216.34/x')).toBeNull();
    expect(publicUrlProblem('https://203.0.113.7/x'), 'documentation range').toBe('private');
    for (const local of [
      'https://localhost:8787/x',
      'https://10.0.0.5/x',
      'https://192.168.1.20/x',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://charla.local/x',
      'https://servidor/x',
    ])
      expect(publicUrlProblem(local), local).toBe('private');
    expect(publicUrlProblem('http://charla.example.com/x')).toBe('notHttps');
  });
});
