/**
 * Issue 28 §2: web visitors are reached after they close the widget. Through a running Charla (no
 * LLM: the offline booking dialogue on the widget's channel), a visitor who leaves an e-mail gets
 * the confirmation with an .ics at once, the 2 h reminder by mail when due (the clock is moved),
 * and an unsubscribe link that stops the next reminder; the owner's late reply to the absent
 * visitor is mailed once, with the link back that reopens the same thread; a visitor who skips
 * the e-mail books as before and gets no mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenderedMail } from '../engine/auth/mail.ts';
import { defaultConfig, type ReservationConfig } from '../plugins/reservations/config.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';

/** Every day 13:00–23:30, hour-long slots; the name is required. */
function calendar(): ReservationConfig {
  const open = { enabled: true, start: '13:00', end: '23:30', break_start: null, break_end: null };
  return {
    ...defaultConfig(),
    calendar_name: '',
    working_hours: {
      monday: open,
      tuesday: open,
      wednesday: open,
      thursday: open,
      friday: open,
      saturday: open,
      sunday: open,
    },
    require_name: true,
    require_phone: false,
  };
}

describe.each(dialectsOf(import.meta.url))('mails to web visitors on %s', (kind) => {
  // Monday 2026-11-23 10:00 in Madrid; the clock moves where a test needs it.
  let clock = new Date('2026-11-23T09:00:00Z');
  const mails: RenderedMail[] = [];
  let app: TestApp;
  let owner: { id: string; token: string };
  let botId = '';
  let key = '';
  const auth = () => ({ authorization: `Bearer ${owner.token}` });
  let n = 0;
  /** One widget (or IALanding) message from a visitor; the reply's text. */
  const say = async (visitor: string, text: string, channel: 'web' | 'ialanding' = 'web') => {
    const res = await (await app.http()).inject({
      method: 'POST',
      url: `/api/web/${key}/message`,
      payload: { userMessage: text, visitorId: visitor, messageId: `m-${++n}`, channel },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { reply: string }).reply;
  };
  const mailsTo = (to: string) => mails.filter((m) => m.to === to);
  /** Books «hoy a las <time>» as `visitor` (name `name`); the reply to the name. */
  const book = async (visitor: string, name: string, time = '20:00') => {
    expect(await say(visitor, `Quiero reservar mesa para 2 hoy a las ${time}`)).toContain(
      '¿A nombre de quién',
    );
    return say(visitor, name);
  };

  beforeAll(async () => {
    app = await createTestApp(kind, {
      llm: null,
      now: () => clock,
      mailer: { send: async (m) => void mails.push(m) },
      env: { PUBLIC_URL: 'http://charla.test', RESERVATIONS_REPLY_MAIL_DELAY_SECONDS: '1' },
    });
    await app.startChannels(); // the job queue: mails and reminders
    owner = await app.owner('pepe@example.com');
    const http = await app.http();
    const saved = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: auth(),
      payload: {
        business_name: 'El Pato Pepe',
        business_description: 'Restaurante familiar en Madrid.',
        idioma: 'Español',
        enable_reservations: true,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    botId = (saved.json() as { id: string }).id;
    const config = await http.inject({
      method: 'PUT',
      url: `/api/reservations/${botId}/config`,
      headers: auth(),
      payload: calendar(),
    });
    expect(config.statusCode, config.body).toBe(200);
    const toggled = await http.inject({
      method: 'POST',
      url: '/api/charla-web/toggle',
      headers: auth(),
      payload: { chatbotId: botId, enabled: true },
    });
    expect(toggled.statusCode, toggled.body).toBe(200);
    const keyed = await http.inject({
      method: 'POST',
      url: '/api/charla-web/key',
      headers: auth(),
      payload: { chatbotId: botId },
    });
    key = (keyed.json() as { charla_key: string }).charla_key;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('asks a web visitor for an optional e-mail and mails the confirmation with an .ics', async () => {
    clock = new Date('2026-11-23T09:00:00Z');
    const confirmed = await book('web-ana-0001', 'Ana García');
    expect(confirmed).toMatch(/Reserva confirmada.*código es [A-Z0-9]{6}/s);
    expect(confirmed).toContain('Solo lo usaremos para esta reserva');
    const code = /código es ([A-Z0-9]{6})/.exec(confirmed)![1]!;
    expect(await say('web-ana-0001', 'ana@ejemplo')).toContain('no parece correcto');
    expect(await say('web-ana-0001', 'ana@example.com')).toContain('ana@example.com');
    await expect.poll(() => mailsTo('ana@example.com').length, { timeout: 10_000 }).toBe(1);
    const mail = mailsTo('ana@example.com')[0]!;
    expect(mail.subject).toBe('Reserva confirmada en El Pato Pepe');
    expect(mail.text).toContain(code);
    expect(mail.text).toContain('lunes, 23 de noviembre, 20:00');
    expect(mail.text).toMatch(/Volver a la conversación: http:\/\/charla\.test\/visit\?t=\S+/);
    expect(mail.text).toMatch(/Date de baja: http:\/\/charla\.test\/reservations\/unsubscribe\?t=\S+/);
    const ics = mail.attachments?.[0];
    expect(ics?.filename).toBe(`${code}.ics`);
    expect(ics?.content).toContain('BEGIN:VCALENDAR');
    expect(ics?.content).toContain('DTSTART:20261123T190000Z');
    // The owner sees the e-mail in the viewer's list.
    const list = await (await app.http()).inject({
      method: 'GET',
      url: `/api/reservations/${botId}?period=all`,
      headers: auth(),
    });
    const row = (list.json() as { reservations: Array<Record<string, unknown>> }).reservations.find(
      (r) => r.code === code || r.reservation_code === code,
    );
    expect(row?.customer_email).toBe('ana@example.com');
    expect(row?.mail).toBe('on');
  });

  it('the link back reopens the same visitor’s thread; a forged one is refused', async () => {
    const mail = mailsTo('ana@example.com')[0]!;
    const link = /(http:\/\/charla\.test\/visit\?t=\S+)/.exec(mail.text)![1]!;
    const http = await app.http();
    const page = await http.inject({ method: 'GET', url: link.replace('http://charla.test', '') });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`"visitor":"web-ana-0001"`);
    expect(page.body).toContain(`"key":"${key}"`);
    const token = link.split('/visit?t=')[1]!;
    const [body, sig] = token.split('.') as [string, string];
    const forgedBody = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), v: 'web-otro-0001' }),
    ).toString('base64url');
    const forged = await http.inject({ method: 'GET', url: `/visit?t=${forgedBody}.${sig}` });
    expect(forged.statusCode).toBe(404);
    expect((await http.inject({ method: 'GET', url: '/visit?t=nada' })).statusCode).toBe(404);
  });

  it('asks an IALanding visitor too, and the link back opens the landing with their id', async () => {
    clock = new Date('2026-11-23T09:00:00Z');
    const http = await app.http();
    const landing = await http.inject({
      method: 'POST',
      url: '/api/charla-web/ialanding',
      headers: auth(),
      payload: { chatbotId: botId, key },
    });
    expect(landing.statusCode, landing.body).toBe(200);
    const slug = (landing.json() as { slug: string }).slug;
    await say('land-eva-0001', 'Quiero reservar mesa para 2 hoy a las 22:00', 'ialanding');
    expect(await say('land-eva-0001', 'Eva', 'ialanding')).toContain('Solo lo usaremos para esta reserva');
    await say('land-eva-0001', 'eva@example.com', 'ialanding');
    await expect.poll(() => mailsTo('eva@example.com').length, { timeout: 10_000 }).toBe(1);
    const link = /http:\/\/charla\.test(\/visit\?t=\S+)/.exec(mailsTo('eva@example.com')[0]!.text)![1]!;
    const page = await http.inject({ method: 'GET', url: link });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('"visitor":"land-eva-0001"');
    expect(page.body).toContain(`"go":"/ialanding/${slug}"`);
  });

  it('mails the 2 h reminder when it is due', async () => {
    // Two hours and 4 s before Tuesday 2026-11-24 20:00 in Madrid (19:00Z).
    clock = new Date(Date.parse('2026-11-24T19:00:00Z') - 2 * 3_600_000 - 4_000);
    await book('web-bea-0001', 'Bea');
    await say('web-bea-0001', 'bea@example.com');
    await expect
      .poll(() => mailsTo('bea@example.com').map((m) => m.subject), { timeout: 20_000, interval: 250 })
      .toEqual(['Reserva confirmada en El Pato Pepe', 'Recordatorio de tu reserva en El Pato Pepe']);
    const reminder = mailsTo('bea@example.com')[1]!;
    expect(reminder.text).toContain('dentro de 2 horas');
    expect(reminder.text).toContain('/visit?t=');
    expect(reminder.attachments ?? []).toEqual([]);
  });

  it('the unsubscribe link stops the next reminder', async () => {
    clock = new Date(Date.parse('2026-11-25T19:00:00Z') - 2 * 3_600_000 - 5_000);
    await book('web-cai-0001', 'Cai');
    await say('web-cai-0001', 'cai@example.com');
    await expect.poll(() => mailsTo('cai@example.com').length, { timeout: 10_000 }).toBe(1);
    const link = /(http:\/\/charla\.test\/reservations\/unsubscribe\?t=\S+)/.exec(
      mailsTo('cai@example.com')[0]!.text,
    )![1]!;
    const http = await app.http();
    // Opening the link (as a mail scanner would) only asks; the button unsubscribes.
    const ask = await http.inject({ method: 'GET', url: link.replace('http://charla.test', '') });
    expect(ask.statusCode).toBe(200);
    expect(ask.body).toContain('¿Dejar de recibir correos sobre esta reserva?');
    expect(ask.body).not.toContain('Baja confirmada');
    const action = /<form method="post" action="([^"]+)"/.exec(ask.body)![1]!.replace(/&amp;/g, '&');
    const page = await http.inject({
      method: 'POST',
      url: action,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://charla.test' },
      payload: '',
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('Baja confirmada');
    const rows = (
      (
        await http.inject({ method: 'GET', url: `/api/reservations/${botId}?period=all`, headers: auth() })
      ).json() as {
        reservations: Array<Record<string, unknown>>;
      }
    ).reservations;
    expect(rows.find((r) => r.customer_name === 'Cai')?.mail).toBe('off');
    // The reminder still reaches the widget (its push), and no mail follows it.
    const pushed = async () =>
      (
        (
          await http.inject({ method: 'GET', url: `/api/web/${key}/pushed?visitorId=web-cai-0001` })
        ).json() as {
          messages: Array<{ text: string }>;
        }
      ).messages
        .map((m) => m.text)
        .join(' ');
    await expect.poll(pushed, { timeout: 20_000, interval: 250 }).toContain('dentro de 2 horas');
    await new Promise((r) => setTimeout(r, 2_000));
    expect(mailsTo('cai@example.com')).toHaveLength(1);
  });

  it('mails the owner’s late reply to an absent visitor once, with the link back', async () => {
    // Mid-way through a 10-minute window of the plugin's clock.
    clock = new Date('2026-11-25T17:03:00Z');
    const http = await app.http();
    const before = mailsTo('ana@example.com').length;
    for (const text of ['Hola Ana, ¿traes carrito de bebé?', 'Lo digo por la mesa.']) {
      const res = await http.inject({
        method: 'POST',
        url: `/api/conversations/${botId}/reply`,
        headers: auth(),
        payload: { channel: 'web', userId: 'web-ana-0001', text },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    await expect.poll(() => mailsTo('ana@example.com').length, { timeout: 10_000 }).toBe(before + 1);
    await new Promise((r) => setTimeout(r, 2_500));
    const replies = mailsTo('ana@example.com').slice(before);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.subject).toBe('El Pato Pepe te ha respondido');
    expect(replies[0]!.text).toContain('¿traes carrito de bebé?');
    expect(replies[0]!.text).toContain('Lo digo por la mesa.');
    expect(replies[0]!.text).toMatch(/\/visit\?t=\S+/);

    // Another reply right after: no second mail within 10 minutes …
    const reply = async (text: string) => {
      const res = await http.inject({
        method: 'POST',
        url: `/api/conversations/${botId}/reply`,
        headers: auth(),
        payload: { channel: 'web', userId: 'web-ana-0001', text },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await reply('Te guardamos una trona.');
    await new Promise((r) => setTimeout(r, 2_500));
    expect(mailsTo('ana@example.com').slice(before)).toHaveLength(1);
    // … and later (past the next window, whose job waits in real time) the next mail carries the
    // messages not mailed yet, only those.
    clock = new Date(clock.getTime() + 21 * 60_000);
    await reply('¿Venís a las 20:00?');
    await expect.poll(() => mailsTo('ana@example.com').length, { timeout: 10_000 }).toBe(before + 2);
    const second = mailsTo('ana@example.com').at(-1)!;
    expect(second.text).toContain('Te guardamos una trona.');
    expect(second.text).toContain('¿Venís a las 20:00?');
    expect(second.text).not.toContain('carrito de bebé');
  });

  it('mails nothing when the visitor answers the owner before the delay', async () => {
    const http = await app.http();
    const before = mailsTo('bea@example.com').length;
    const res = await http.inject({
      method: 'POST',
      url: `/api/conversations/${botId}/reply`,
      headers: auth(),
      payload: { channel: 'web', userId: 'web-bea-0001', text: 'Bea, ¿alguna alergia?' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await say('web-bea-0001', 'Ninguna, gracias');
    await new Promise((r) => setTimeout(r, 3_000));
    expect(mailsTo('bea@example.com')).toHaveLength(before);
  });

  it('a visitor who skips the e-mail books as before and gets no mail', async () => {
    clock = new Date('2026-11-23T09:00:00Z');
    const confirmed = await book('web-dan-0001', 'Dan', '21:00');
    expect(confirmed).toContain('Reserva confirmada');
    expect(await say('web-dan-0001', 'no, gracias')).toContain('sin correo');
    // The dialogue is over: the next message is not taken for an e-mail answer.
    await new Promise((r) => setTimeout(r, 1_500));
    const list = await (await app.http()).inject({
      method: 'GET',
      url: `/api/reservations/${botId}?period=all`,
      headers: auth(),
    });
    const rows = (list.json() as { reservations: Array<Record<string, unknown>> }).reservations;
    const dan = rows.find((r) => r.customer_name === 'Dan');
    expect(dan?.status).toBe('confirmed');
    expect(dan?.customer_email).toBeNull();
    expect(dan?.mail).toBeUndefined();
    // Nothing to Dan (the owner's own "new booking" notice goes to the owner, not the visitor).
    expect(mails.filter((m) => m.to !== 'pepe@example.com' && /Dan\b/.test(m.text))).toEqual([]);
  });

  it('tells the visitor, in their thread, when the owner cancels their booking', async () => {
    clock = new Date('2026-11-23T09:00:00Z');
    expect(await book('web-eva-0001', 'Eva', '13:00')).toContain('Reserva confirmada');
    const http = await app.http();
    const rows = (
      (
        await http.inject({ method: 'GET', url: `/api/reservations/${botId}?period=all`, headers: auth() })
      ).json() as {
        reservations: Array<{ id: string; customer_name: string; code: string }>;
      }
    ).reservations;
    const eva = rows.find((r) => r.customer_name === 'Eva')!;
    const cancelled = await http.inject({
      method: 'POST',
      url: `/api/reservations/${botId}/${eva.id}/cancel`,
      headers: auth(),
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const thread = async () =>
      (
        (
          await http.inject({ method: 'GET', url: `/api/web/${key}/pushed?visitorId=web-eva-0001` })
        ).json() as { messages: Array<{ text: string }> }
      ).messages.map((m) => m.text);
    await expect
      .poll(thread, { timeout: 15_000 })
      .toContainEqual(expect.stringContaining(`ha cancelado tu reserva ${eva.code}`));
  });
});
