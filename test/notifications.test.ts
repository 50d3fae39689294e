/**
 * Owner notifications and the hand-off (issue 27 §1, §2) through a running Charla, with the mails
 * caught by a real SMTP server: a web visitor asking for a person gets the hand-off reply in the
 * bot's language (Spanish, English), the owner gets one e-mail (the new conversation folded in)
 * with a link to the conversation, a second request within 10 minutes sends no second mail, and
 * the conversation is marked "needs a person" in the inbox; a booking made in the chat's offline dialogue and
 * its cancellation each e-mail the owner (the reservations plugin's events through the
 * registry); the settings route turns kinds off; the phrase matcher in seven languages.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../engine/auth/mail.ts';
import { createLogger } from '../engine/logger.ts';
import { daysJob } from '../plugins/notifications/delivery.ts';
import { asksForPerson } from '../plugins/notifications/matcher.ts';
import { defaultConfig } from '../plugins/reservations/config.ts';
import { createTestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { type App, enableWeb, ownerWithBot, until, withInject } from './helpers/owners.ts';

describe('asking for a person', () => {
  it.each([
    ['quiero hablar con una persona', 'es'],
    ['¿Puedo HABLAR con un humano?', 'es'],
    ['pásame con el encargado', 'es'],
    ['Can I talk to a human, please?', 'en'],
    ['Je voudrais parler à quelqu’un', 'fr'],
    ['Ich möchte mit einem Menschen sprechen', 'de'],
    ['Posso parlare con una persona?', 'it'],
    ['Можно поговорить с человеком?', 'ru'],
    ['क्या मैं किसी इंसान से बात कर सकता हूँ?', 'hi'],
  ])('finds "%s" (%s)', (text, lang) => expect(asksForPerson(text)).toBe(lang));

  it.each([
    'la persona que me atendió fue muy amable',
    'mesa para 4 personas el sábado',
    'a person of interest',
    'hola',
  ])('leaves "%s" alone', (text) => expect(asksForPerson(text)).toBeNull());
});

describe.each(dialectsOf(import.meta.url))('owner notifications on %s', (kind) => {
  let clock = new Date('2026-11-23T09:00:00Z');
  let app: App;
  let smtp: SMTPServer;
  const inbox: Array<{ to: string; subject: string; text: string; ics: string[] }> = [];
  const mailsTo = (to: string) => inbox.filter((m) => m.to === to);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  const webBot = async (email: string, bot: Record<string, unknown>) => {
    const o = await ownerWithBot(app, email, bot);
    await enableWeb(app.inject, o.token, o.botId);
    const keyed = await app.inject({
      method: 'POST',
      url: '/api/charla-web/key',
      headers: { authorization: `Bearer ${o.token}` },
      payload: { chatbotId: o.botId },
    });
    expect(keyed.statusCode, keyed.body).toBe(200);
    return { ...o, key: (keyed.json() as { charla_key: string }).charla_key };
  };
  const say = async (key: string, visitorId: string, userMessage: string, messageId: string) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/web/${key}/message`,
      payload: { userMessage, visitorId, messageId },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { reply: string; attachment: unknown };
  };

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((mail) => {
            inbox.push({
              to: (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address ?? '',
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              ics: mail.attachments
                .filter((a) => a.contentType.startsWith('text/calendar'))
                .map((a) => a.content.toString('utf8')),
            });
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    app = await withInject(
      await createTestApp(kind, {
        llm: null,
        now: () => clock,
        mailer: createMailer({
          smtpUrl: `smtp://127.0.0.1:${port}`,
          from: 'Charla <no-reply@charla.local>',
          outboxDir: '/nonexistent',
          log: createLogger({ level: 'silent' }),
        }),
      }),
    );
    await app.startChannels(); // the job queue: mails are jobs
  });
  afterAll(async () => {
    await app?.close();
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  });

  it('hands a Spanish visitor over to the owner: one e-mail, the reply in Spanish, no second mail', async () => {
    const o = await webBot('pepe@example.com', { business_name: 'El Pato Pepe', idioma: 'Español' });
    const answer = await say(o.key, 'web-lucia', 'Hola, quiero hablar con una persona', 'h-1');
    expect(answer.reply).toBe(
      'He avisado al equipo de El Pato Pepe: una persona te responderá aquí en cuanto pueda. Puedes seguir escribiendo tu consulta.',
    );
    expect(answer.attachment).toBeNull();
    const started = Date.now();
    await until(() => mailsTo('pepe@example.com').length >= 1, 15_000, 'the owner’s mail');
    expect(Date.now() - started).toBeLessThan(15_000);
    const [mail] = mailsTo('pepe@example.com');
    // The new conversation and the request folded into one mail, in Spanish (no language stored).
    expect(mail!.subject).toBe('El Pato Pepe: un seguidor pide una persona (+1)');
    expect(mail!.text).toContain(
      'Un seguidor pide hablar con una persona: «Hola, quiero hablar con una persona»',
    );
    expect(mail!.text).toContain('Nueva conversación por web');
    expect(mail!.text).toContain(
      `/usuarios-conversaciones?chatbotId=${o.botId}&channel=web&userId=web-lucia`,
    );

    // Asked again within 10 minutes: the same reply, no second mail.
    const again = await say(o.key, 'web-lucia', '¿Hay alguien? Necesito hablar con un humano', 'h-2');
    expect(again.reply).toContain('He avisado al equipo de El Pato Pepe');
    await sleep(3_000);
    expect(mailsTo('pepe@example.com')).toHaveLength(1);

    // The owner's inbox shows the conversation as needing a person (the conversations plugin).
    const inbox = await app.inject({
      method: 'GET',
      url: `/api/conversations/${o.botId}?status=needs_person`,
      headers: { authorization: `Bearer ${o.token}` },
    });
    expect(inbox.statusCode, inbox.body).toBe(200);
    expect(JSON.stringify(inbox.json())).toContain('web-lucia');
  });

  it('answers an English bot’s visitor in English and mails the owner in their chosen language', async () => {
    const o = await webBot('ann@example.com', { business_name: 'Ann’s Bakery', idioma: 'English' });
    const headers = { authorization: `Bearer ${o.token}` };
    const defaults = await app.inject({ method: 'GET', url: '/api/notifications/settings', headers });
    const on = { email: true, telegram: true, push: true, page: true };
    expect(defaults.json()).toEqual({
      language: 'es',
      events: {
        new_conversation: on,
        asks_person: on,
        booking_new: on,
        booking_changed: on,
        days_running_out: on,
        channel_down: on,
      },
      telegramLinked: false,
      pushAvailable: false,
    });
    const bad = await app.inject({
      method: 'PUT',
      url: '/api/notifications/settings',
      headers,
      payload: { language: 'xx' },
    });
    expect(bad.statusCode).toBe(400);
    const crossSite = await app.inject({
      method: 'PUT',
      url: '/api/notifications/settings',
      // A browser's cookie request from another site (a bearer token cannot be sent by one).
      headers: { cookie: 'session=1', origin: 'https://evil.example' },
      payload: { events: { asks_person: { email: false } } },
    });
    expect(crossSite.statusCode).toBe(403);
    const anonymous = await app.inject({ method: 'GET', url: '/api/notifications/settings' });
    expect(anonymous.statusCode).toBe(401);
    const saved = await app.inject({
      method: 'PUT',
      url: '/api/notifications/settings',
      headers,
      payload: { language: 'en', events: { new_conversation: { email: false } } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((saved.json() as { events: Record<string, unknown> }).events.new_conversation).toEqual({
      ...on,
      email: false,
    });

    const answer = await say(o.key, 'web-tom', 'Can I talk to a human?', 'e-1');
    expect(answer.reply).toBe(
      'I have told the Ann’s Bakery team: a person will answer you here as soon as they can. Feel free to keep writing.',
    );
    await until(() => mailsTo('ann@example.com').length >= 1, 15_000, 'the owner’s mail');
    const [mail] = mailsTo('ann@example.com');
    // New conversations are off for her: only the request.
    expect(mail!.subject).toBe('Ann’s Bakery: a follower asks for a person');
    expect(mail!.text).toContain('A follower asks to talk to a person: «Can I talk to a human?»');
    expect(mail!.text).not.toContain('New conversation');
  });

  it('mails the owner a booking made in the chat and its cancellation', async () => {
    clock = new Date('2026-11-23T09:00:00Z');
    const o = await webBot('reservas@example.com', {
      business_name: 'Casa Lola',
      idioma: 'Español',
      enable_reservations: true,
    });
    const open = { enabled: true, start: '13:00', end: '23:30', break_start: '16:30', break_end: '20:00' };
    const config = {
      ...defaultConfig(),
      working_hours: Object.fromEntries(
        ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, open]),
      ),
      require_name: true,
      require_phone: true,
      require_group_size: true,
    };
    const put = await app.inject({
      method: 'PUT',
      url: `/api/reservations/${o.botId}/config`,
      headers: { authorization: `Bearer ${o.token}` },
      payload: config,
    });
    expect(put.statusCode, put.body).toBe(200);
    const first = await say(o.key, 'web-ana', 'Hola, quiero reservar una mesa para 4 el sábado', 'r-1');
    expect(first.reply).toContain('2. 14:00–15:00');
    await say(o.key, 'web-ana', '2', 'r-2');
    await say(o.key, 'web-ana', 'Ana García', 'r-3');
    const done = await say(o.key, 'web-ana', '600 123 456', 'r-4');
    const code = /código es ([A-Z0-9]{6})/.exec(done.reply)?.[1];
    expect(code, done.reply).toBeTruthy();
    const bookingMails = () => mailsTo('reservas@example.com').filter((m) => /reserva/.test(m.subject));
    await until(() => bookingMails().length >= 1, 15_000, 'the booking’s mail');
    expect(bookingMails()[0]!.subject).toBe('Casa Lola: nueva reserva');
    expect(bookingMails()[0]!.text).toContain(`Nueva reserva: 2026-11-28 14:00 · 4 · Ana García (${code})`);
    // The booking as a calendar entry: a request, 14:00 in Madrid is 13:00 UTC in November.
    const [created] = bookingMails()[0]!.ics;
    expect(created).toContain('METHOD:REQUEST');
    expect(created).toContain('DTSTART:20261128T130000Z');
    const uid = /UID:(.+)/.exec(created!)?.[1]?.trim();
    expect(uid).toMatch(/@charla$/);

    // Past the booking's 10-minute digest window, the follower cancels: a second mail.
    clock = new Date(clock.getTime() + 11 * 60_000);
    const cancelled = await say(o.key, 'web-ana', `Cancela la reserva ${code}`, 'r-5');
    expect(cancelled.reply).toBe(`Tu reserva ${code} está cancelada.`);
    await until(() => bookingMails().length >= 2, 15_000, 'the cancellation’s mail');
    expect(bookingMails()[1]!.subject).toBe('Casa Lola: reserva cambiada o cancelada');
    expect(bookingMails()[1]!.text).toContain(
      `Reserva cancelada: 2026-11-28 14:00 · 4 · Ana García (${code})`,
    );
    // Its cancellation removes the same entry from a calendar: same UID, a higher SEQUENCE.
    const [cancelIcs] = bookingMails()[1]!.ics;
    expect(cancelIcs).toContain('METHOD:CANCEL');
    expect(cancelIcs).toContain('STATUS:CANCELLED');
    expect(cancelIcs).toContain(`UID:${uid}`);
    expect(Number(/SEQUENCE:(\d+)/.exec(cancelIcs!)?.[1])).toBeGreaterThan(
      Number(/SEQUENCE:(\d+)/.exec(created!)?.[1] ?? 0),
    );
    // And the conversation itself was announced once.
    expect(mailsTo('reservas@example.com').filter((m) => /nueva conversación/.test(m.subject))).toHaveLength(
      1,
    );
  });

  it('tells an owner their days are running out, once per expiry, and when they are over', async () => {
    clock = new Date('2026-11-23T09:00:00Z');
    const o = await app.owner('dias@example.com');
    const expiry = async (ms: number) => {
      const expires_at = new Date(clock.getTime() + ms);
      await app.store.db
        .insertInto('user_profiles')
        .values({ user_id: o.id, plan: 'free', expires_at })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at }))
        .execute();
    };
    await expiry(2.5 * 86_400_000);
    await app.jobs.send(daysJob, {});
    await app.jobs.send(daysJob, {}, { key: 'again' }); // the same expiry: no second mail
    await until(() => mailsTo('dias@example.com').length >= 1, 15_000, 'the days mail');
    expect(mailsTo('dias@example.com')[0]!.subject).toBe('Charla: tus días de Charla se acaban');
    expect(mailsTo('dias@example.com')[0]!.text).toContain('Te quedan 3 días de Charla');
    expect(mailsTo('dias@example.com')[0]!.text).toContain('/main');
    await sleep(2_000);
    expect(mailsTo('dias@example.com')).toHaveLength(1);

    await expiry(-3_600_000);
    await app.jobs.send(daysJob, {}, { key: 'over' });
    await until(() => mailsTo('dias@example.com').length >= 2, 15_000, 'the days-over mail');
    expect(mailsTo('dias@example.com')[1]!.text).toContain('Tus días de Charla se han acabado');
  });
});
