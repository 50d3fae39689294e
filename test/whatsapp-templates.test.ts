/**
 * WhatsApp message templates on the Cloud API (issue 28 §1, §4), against the local Graph API server
 * (test/servers/graph.ts, Meta's documented wire format): the owner's one click creates Charla's
 * UTILITY templates at Meta; Meta's review reaches Charla by the `message_template_status_update`
 * webhook (a rejection's reason shown to the owner) and by the check; a follower whose last message
 * is 25 hours old gets the due 24 h reminder as the approved template in their language, never as a
 * free-form message; the owner's late reply sends the "team has answered" template and the reply
 * itself follows the follower's next message; with no approved template the message waits and the
 * owner sees why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_ROUTE_ERRORS } from '../adapters/whatsapp/cloud/template-texts.ts';
import { TEMPLATE_BODIES } from '../adapters/whatsapp/cloud/templates.ts';
import { createWhatsAppAdapter, type WhatsAppAdapter } from '../adapters/whatsapp/index.ts';
import type { ChannelAdapter } from '../engine/registry/index.ts';
import { reminderJob } from '../plugins/reservations/reminders.ts';
import { createTestApp, fakeLlm } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { type App, ownerWithBot, until, withInject } from './helpers/owners.ts';
import { type FakeGraph, hubSignature, messageWebhook, startFakeGraph } from './servers/graph.ts';
import { type FakeOpenAi, startFakeOpenAi } from './servers/openai.ts';

const APP_SECRET = 'meta-app-secret-for-templates';
const HOUR = 3_600_000;

describe.each(dialectsOf(import.meta.url))('WhatsApp message templates on %s', (kind) => {
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

  /** Posts a webhook body as Meta does (signed). */
  const webhook = (body: unknown) => {
    const raw = JSON.stringify(body);
    return app.inject({
      method: 'POST',
      url: '/channels/whatsapp',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(raw, APP_SECRET) },
      payload: raw,
    });
  };

  /** An owner whose bot is connected to a new Cloud API number of WhatsApp Business Account `waba`. */
  const connected = async (email: string, phoneNumberId: string, waba: string) => {
    const owner = await ownerWithBot(app, email, { business_name: 'Casa Plantilla', idioma: 'Español' });
    const token = `EAAtoken${phoneNumberId}xxxxxxxxxxxxxxxxxxxxxxxx`;
    graph.addNumber({
      id: phoneNumberId,
      display_phone_number: '+34 655 000 222',
      verified_name: 'Casa',
      tokens: [token],
      wabaId: waba,
    });
    const res = await app.inject({
      method: 'POST',
      url: '/api/connect-whatsapp-cloud',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { chatbotId: owner.botId, phoneNumberId, businessAccountId: waba, accessToken: token },
    });
    expect(res.statusCode, res.body).toBe(200);
    await until(() => adapter.connections.connected().includes(owner.botId), 5000, 'connected');
    const headers = { authorization: `Bearer ${owner.token}` };
    return { ...owner, headers };
  };

  /** The owner's view of the templates. */
  const templates = async (botId: string, headers: Record<string, string>) => {
    const res = await app.inject({ method: 'GET', url: `/api/whatsapp/${botId}/templates`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      cloud: boolean;
      templates: Array<{ name: string; language: string; status: string; reason: string | null }>;
    };
  };
  const submit = async (botId: string, headers: Record<string, string>) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/whatsapp/${botId}/templates`,
      headers,
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const review = (
    waba: string,
    name: string,
    language: string,
    event: 'APPROVED' | 'REJECTED',
    reason?: string,
  ) =>
    graph.reviewTemplate({ wabaId: waba, name, language }, event, {
      ...(reason ? { reason } : {}),
      webhook: { url: webhookUrl, appSecret: APP_SECRET },
    });
  const waiting = async (botId: string, headers: Record<string, string>) => {
    const res = await app.inject({ method: 'GET', url: `/api/whatsapp/${botId}/waiting`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { waiting: Array<Record<string, unknown>> }).waiting;
  };
  /** A follower's message that arrived `hoursAgo` hours ago (stored, not answered past 24 h). */
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

  it('submits the seven languages’ templates to Meta with one click; a rejection shows Meta’s reason', async () => {
    const { botId, headers } = await connected('plantillas@example.com', '6601', '8801');
    const before = await templates(botId, headers);
    expect(before.cloud).toBe(true);
    expect(before.templates).toHaveLength(42);
    expect(new Set(before.templates.map((t) => t.status))).toEqual(new Set(['NOT_SUBMITTED']));

    await submit(botId, headers);
    const atMeta = [...graph.templates.values()].filter((t) => t.wabaId === '8801');
    expect(atMeta).toHaveLength(42);
    const reminder = atMeta.find((t) => t.name === 'charla_booking_reminder_24h' && t.language === 'de')!;
    expect(reminder.category).toBe('UTILITY');
    expect(reminder.components[0]).toMatchObject({ type: 'BODY', text: TEMPLATE_BODIES.de.reminder_24h });
    const after = await templates(botId, headers);
    expect(new Set(after.templates.map((t) => t.status))).toEqual(new Set(['PENDING']));

    // Meta's review arrives by the signed webhook.
    expect(await review('8801', 'charla_team_answered', 'fr', 'REJECTED', 'INVALID_FORMAT')).toBe(200);
    expect(await review('8801', 'charla_team_answered', 'es', 'APPROVED')).toBe(200);
    const reviewed = await templates(botId, headers);
    const of = (name: string, language: string) =>
      reviewed.templates.find((t) => t.name === name && t.language === language);
    expect(of('charla_team_answered', 'fr')).toMatchObject({ status: 'REJECTED', reason: 'INVALID_FORMAT' });
    expect(of('charla_team_answered', 'es')).toMatchObject({ status: 'APPROVED', reason: null });

    // A webhook lost: the check asks Meta (GET /{waba}/message_templates) and finds the rejection.
    await graph.reviewTemplate(
      { wabaId: '8801', name: 'charla_booking_changed', language: 'it' },
      'REJECTED',
      {
        reason: 'TAG_CONTENT_MISMATCH',
      },
    );
    const checked = await app.inject({
      method: 'POST',
      url: `/api/whatsapp/${botId}/templates/check`,
      headers,
      payload: {},
    });
    expect(checked.statusCode, checked.body).toBe(200);
    expect(
      (checked.json() as Awaited<ReturnType<typeof templates>>).templates.find(
        (t) => t.name === 'charla_booking_changed' && t.language === 'it',
      ),
    ).toMatchObject({ status: 'REJECTED', reason: 'TAG_CONTENT_MISMATCH' });

    // The periodic pass (every 15 minutes) asks Meta about templates still under review.
    await graph.reviewTemplate(
      { wabaId: '8801', name: 'charla_booking_confirmation', language: 'hi' },
      'APPROVED',
    );
    await adapter.templates.checkPending();
    expect(
      (await templates(botId, headers)).templates.find(
        (t) => t.name === 'charla_booking_confirmation' && t.language === 'hi',
      )?.status,
    ).toBe('APPROVED');

    // Submitting again sends only the rejected ones, for a new review (an edit, not a duplicate).
    await submit(botId, headers);
    expect([...graph.templates.values()].filter((t) => t.wabaId === '8801')).toHaveLength(42);
    expect(of('charla_team_answered', 'fr')?.status).toBe('REJECTED');
    const again = await templates(botId, headers);
    expect(
      again.templates.find((t) => t.name === 'charla_team_answered' && t.language === 'fr')?.status,
    ).toBe('PENDING');

    // Another owner's bot is not found; a bot without the Cloud API gets a translated 400.
    const other = await ownerWithBot(app, 'otra-plantilla@example.com', { business_name: 'Otra' });
    const foreign = await app.inject({
      method: 'POST',
      url: `/api/whatsapp/${botId}/templates`,
      headers: { authorization: `Bearer ${other.token}` },
      payload: {},
    });
    expect(foreign.statusCode).toBe(404);
    const notCloud = await app.inject({
      method: 'POST',
      url: `/api/whatsapp/${other.botId}/templates`,
      headers: { authorization: `Bearer ${other.token}`, 'x-app-language': 'en' },
      payload: {},
    });
    expect(notCloud.statusCode).toBe(400);
    expect(notCloud.json().error).toBe(TEMPLATE_ROUTE_ERRORS.en.notCloud);
    expect((await templates(other.botId, { authorization: `Bearer ${other.token}` })).cloud).toBe(false);
  });

  it('sends a due 24 h reminder to a follower silent for 25 hours as the approved template in their language', async () => {
    const { botId, headers } = await connected('recordatorio@example.com', '6602', '8802');
    await submit(botId, headers);
    for (const lang of ['en', 'es']) await review('8802', 'charla_booking_reminder_24h', lang, 'APPROVED');
    const waId = '447700900123';
    await follower('6602', waId, 'Hello, I would like to know if you are open on Sunday please', 25);
    graph.closedWindows.add(waId); // Meta would refuse a free-form message (131047)

    const startsAt = new Date(Date.now() + 24 * HOUR - 60_000);
    const [row] = await app.store.db
      .withTables<{ reservations_v1: Record<string, unknown> }>()
      .insertInto('reservations_v1')
      .values({
        reservation_code: 'K7P2QX',
        chatbot_ref: botId,
        customer_name: 'Marta',
        service: 'mesa',
        party_size: 2,
        reserved_date: startsAt.toISOString().slice(0, 10),
        reserved_time: startsAt.toISOString().slice(11, 16),
        slot_id: 'slot-1',
        starts_at: startsAt,
        ends_at: new Date(startsAt.getTime() + HOUR),
        place: 1,
        status: 'confirmed',
        source: 'chat',
        channel: 'whatsapp',
        chat_id: waId,
      })
      .returning('reservation_id')
      .execute();
    await app.jobs.send(reminderJob, {
      reservationId: String(row!.reservation_id),
      kind: '24h',
      startsAt: startsAt.toISOString(),
    });

    const [sent] = await graph.waitFor(() => {
      const s = graph.templateSends('6602', waId);
      return s.length ? s : undefined;
    }, 15_000);
    expect(sent).toMatchObject({ name: 'charla_booking_reminder_24h', language: { code: 'en' } });
    const params = (sent!.components as Array<{ parameters: Array<{ type: string; text: string }> }>)[0]!
      .parameters;
    expect(params.map((p) => p.type)).toEqual(['text', 'text', 'text']);
    expect(params[0]!.text).toBe('Casa Plantilla');
    expect(params[1]!.text).toMatch(/(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)/);
    expect(params[2]!.text).toBe('K7P2QX');
    // No free-form message was even attempted.
    expect(graph.messages('6602', waId).filter((m) => m.type !== 'template')).toEqual([]);
    await until(
      async () =>
        (
          await app.store.db
            .withTables<{ reservations_v1: { reservation_id: string; reminder_24h_sent_at: Date | null } }>()
            .selectFrom('reservations_v1')
            .select('reminder_24h_sent_at')
            .where('reservation_id', '=', String(row!.reservation_id))
            .executeTakeFirst()
        )?.reminder_24h_sent_at != null,
      5000,
      'reminder marked sent',
    );
    expect(await waiting(botId, headers)).toEqual([]);
  });

  it('holds the owner’s late reply, sends “the team has answered”, and delivers the reply when the follower writes', async () => {
    const { botId, headers } = await connected('respuesta@example.com', '6603', '8803');
    await submit(botId, headers);
    await review('8803', 'charla_team_answered', 'es', 'APPROVED');
    const waId = '34600777888';
    await follower('6603', waId, '¿Tenéis mesa para el sábado por la noche?', 25);
    graph.closedWindows.add(waId);

    const reply = await app.inject({
      method: 'POST',
      url: `/api/conversations/${botId}/reply`,
      headers,
      payload: { channel: 'whatsapp', userId: waId, text: 'Sí, te guardamos mesa a las 21:00.' },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const sends = graph.templateSends('6603', waId);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({
      name: 'charla_team_answered',
      language: { code: 'es' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Casa Plantilla' }] }],
    });
    expect(graph.messages('6603', waId).filter((m) => m.type !== 'template')).toEqual([]);
    expect(await waiting(botId, headers)).toMatchObject([
      {
        chatId: waId,
        name: 'Marta',
        sender: 'owner',
        state: 'held',
        reason: 'template_sent',
        template: 'team_answered',
        text: 'Sí, te guardamos mesa a las 21:00.',
      },
    ]);

    // A second late reply is held too, without a second template.
    const second = await app.inject({
      method: 'POST',
      url: `/api/conversations/${botId}/reply`,
      headers,
      payload: { channel: 'whatsapp', userId: waId, text: 'Y tenemos terraza.' },
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(graph.templateSends('6603', waId)).toHaveLength(1);

    // The follower answers the template: the window opens and the held replies go out first, in order.
    graph.closedWindows.delete(waId);
    await follower('6603', waId, 'Vale, ¿qué me habéis dicho?', 0);
    const texts = await graph.waitFor(() => {
      const t = graph.messages('6603', waId).filter((m) => m.type === 'text');
      return t.length >= 2 ? t : undefined;
    });
    expect((texts[0]!.text as { body: string }).body).toBe('Sí, te guardamos mesa a las 21:00.');
    expect((texts[1]!.text as { body: string }).body).toBe('Y tenemos terraza.');
    expect(await waiting(botId, headers)).toEqual([]);
  });

  it('with no approved template nothing is sent and the owner sees which message waits and why', async () => {
    const { botId, headers } = await connected('sinplantilla@example.com', '6604', '8804');
    const waId = '34600999000';
    await follower('6604', waId, 'Hola, ¿abrís mañana?', 30);
    const reply = await app.inject({
      method: 'POST',
      url: `/api/conversations/${botId}/reply`,
      headers,
      payload: { channel: 'whatsapp', userId: waId, text: 'Sí, de 9 a 14.' },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(graph.messages('6604', waId)).toEqual([]);
    expect(await waiting(botId, headers)).toMatchObject([
      {
        chatId: waId,
        state: 'waiting',
        reason: 'no_approved_template',
        template: 'team_answered',
        text: 'Sí, de 9 a 14.',
      },
    ]);
    expect((await adapter.connections.health(botId)).lastError).toContain('charla_team_answered');
  });
});
