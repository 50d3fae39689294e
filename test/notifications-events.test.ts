/**
 * More of what tells the owner (issue 27 §1, §2, §6): a strongly frustrated follower counts as
 * asking for a person (the empathy reading), "a channel is down" once per failure (a connection
 * reported failing again and again, by one node or several, mails once; after it worked again the
 * next failure mails again), an owner who had turned a kind off before routes existed still hears
 * nothing of it, the opening hours in the bot's language, and the booking calendar's times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenderedMail } from '../engine/auth/mail.ts';
import { HEALTH_CHANNEL, reportHealth } from '../engine/channels/health-report.ts';
import { createLogger } from '../engine/logger.ts';
import { notifyMany } from '../engine/store/queries/messages.ts';
import { formatHours, type Hours } from '../plugins/notifications/hours.ts';
import { bookingCalendar, loadCalendar, localToUtc } from '../plugins/notifications/ics.ts';
import { stronglyFrustrated } from '../plugins/notifications/index.ts';
import { migrations } from '../plugins/notifications/migrations.ts';
import { createTestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { type App, enableWeb, ownerWithBot, until, withInject } from './helpers/owners.ts';

describe('strong frustration', () => {
  it.each([
    ['Esto es una vergüenza, no funciona y estoy harto', [], true],
    ['QUE MAL SERVICIO!!', [], true],
    ['This is terrible, worst service, I am angry', [], true],
    // One mild cue alone is not enough; after a frustrated message it is.
    ['no funciona', [], false],
    ['no funciona', [{ role: 'user', content: 'qué mal todo' }], true],
    ['hola, ¿abrís mañana?', [{ role: 'user', content: 'qué mal todo' }], false],
  ] as const)('"%s" after %j → %s', (text, history, expected) =>
    expect(stronglyFrustrated(text, 'es', history)).toBe(expected),
  );
});

describe('opening hours and the booking calendar', () => {
  const day = (enabled: boolean, start = '09:00', end = '14:00') => ({
    enabled,
    start,
    end,
    break_start: null,
    break_end: null,
  });
  const hours: Hours = {
    timezone: 'Europe/Madrid',
    working_hours: {
      monday: day(true),
      tuesday: day(true),
      wednesday: day(true),
      thursday: day(true),
      friday: day(true, '09:00', '20:00'),
      saturday: { enabled: true, start: '10:00', end: '22:00', break_start: '14:00', break_end: '18:00' },
      sunday: day(false),
    },
  };
  it('folds days with the same hours, in the bot’s language', () => {
    expect(formatHours(hours, 'es')).toBe(
      'lun–jue 09:00–14:00; vie 09:00–20:00; sáb 10:00–14:00, 18:00–22:00',
    );
    expect(formatHours(hours, 'en')).toBe(
      'Mon–Thu 09:00–14:00; Fri 09:00–20:00; Sat 10:00–14:00, 18:00–22:00',
    );
  });
  it('places a local booking time in its zone, summer and winter, and in UTC without one', async () => {
    expect(new Date(localToUtc('2026-07-01', '14:00', 'Europe/Madrid')).toISOString()).toBe(
      '2026-07-01T12:00:00.000Z',
    );
    expect(new Date(localToUtc('2026-11-28', '14:00', 'Europe/Madrid')).toISOString()).toBe(
      '2026-11-28T13:00:00.000Z',
    );
    const ics = bookingCalendar(
      await loadCalendar(),
      {
        kind: 'created',
        reservationId: 'r1',
        code: 'ABC123',
        date: '2026-11-28',
        time: '21:30',
        at: '2026-11-20T10:00:00Z',
      },
      'Casa Lola',
      'Reserva',
      'https://charla.example/configure',
    );
    expect(ics?.content).toContain('DTSTART:20261128T213000Z');
    expect(ics?.content).toContain('DURATION:PT60M');
    expect(ics?.content).toContain('SUMMARY:Reserva Casa Lola (ABC123)');
  });
});

describe.each(dialectsOf(import.meta.url))('channel down and old settings on %s', (kind) => {
  let app: App;
  const mails: RenderedMail[] = [];
  const to = (email: string) => mails.filter((m) => m.to === email);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let clock = new Date('2026-11-23T09:00:00Z');

  beforeAll(async () => {
    app = await withInject(
      await createTestApp(kind, {
        llm: null,
        now: () => clock,
        mailer: { send: async (m) => void mails.push(m) },
      }),
    );
    await app.startChannels();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('mails "a channel is down" once per failure, however often and by how many nodes it is reported', async () => {
    const o = await ownerWithBot(app, 'canal@example.com', { business_name: 'Casa Lola', idioma: 'Español' });
    const ctx = { db: app.store.db, log: createLogger({ level: 'silent' }) };
    await reportHealth(ctx, {
      chatbotId: o.botId,
      channel: 'telegram',
      ok: false,
      reason: '401: Unauthorized',
    });
    await reportHealth(ctx, {
      chatbotId: o.botId,
      channel: 'telegram',
      ok: false,
      reason: '401: Unauthorized',
    });
    // Another node saw it fail too (its own NOTIFY).
    const raised = JSON.stringify({
      chatbotId: o.botId,
      channel: 'telegram',
      ok: false,
      reason: '401: Unauthorized',
    });
    await notifyMany(app.store.db, [{ channel: HEALTH_CHANNEL, payload: raised }]);
    await until(() => to('canal@example.com').length >= 1, 15_000, 'the channel-down mail');
    const [mail] = to('canal@example.com');
    expect(mail!.subject).toBe('Casa Lola: un canal no funciona');
    expect(mail!.text).toContain('Un canal no funciona: telegram (401: Unauthorized)');
    // The button opens the channel's settings, not a conversation.
    expect(mail!.text).toMatch(/Revisar el canal: \S*\/configure#telegram/);
    await sleep(2_500);
    expect(to('canal@example.com')).toHaveLength(1);

    // It works again, then fails again (past the 10-minute digest): told again.
    clock = new Date(clock.getTime() + 11 * 60_000);
    await reportHealth(ctx, { chatbotId: o.botId, channel: 'telegram', ok: true });
    await sleep(500);
    await reportHealth(ctx, { chatbotId: o.botId, channel: 'telegram', ok: false, reason: '409: Conflict' });
    await until(() => to('canal@example.com').length >= 2, 15_000, 'the second channel-down mail');
    expect(to('canal@example.com')[1]!.text).toContain('(409: Conflict)');
  });

  it('tells the owner of a strongly frustrated web visitor, without answering them with the hand-off', async () => {
    const o = await ownerWithBot(app, 'enfado@example.com', {
      business_name: 'Casa Lola',
      idioma: 'Español',
    });
    await enableWeb(app.inject, o.token, o.botId);
    const keyed = await app.inject({
      method: 'POST',
      url: '/api/charla-web/key',
      headers: { authorization: `Bearer ${o.token}` },
      payload: { chatbotId: o.botId },
    });
    const key = (keyed.json() as { charla_key: string }).charla_key;
    const res = await app.inject({
      method: 'POST',
      url: `/api/web/${key}/message`,
      payload: {
        userMessage: 'QUE MAL SERVICIO!! no funciona nada',
        visitorId: 'web-enfadado',
        messageId: 'f-1',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { reply: string }).reply).not.toContain('He avisado al equipo');
    await until(() => to('enfado@example.com').length >= 1, 15_000, 'the frustration mail');
    expect(to('enfado@example.com')[0]!.text).toContain(
      'Un seguidor parece muy molesto y puede necesitar una persona: «QUE MAL SERVICIO!! no funciona nada»',
    );
  });

  it('keeps a kind an owner had turned off (before routes existed) off on every route', async () => {
    const o = await app.owner('antiguo@example.com');
    const step = migrations['202611271600_notification_routes']!;
    await step.down!(app.store.db as never);
    await app.store.db
      .insertInto('notification_settings' as never)
      .values({ owner_id: o.id, language: 'en', disabled: JSON.stringify(['new_conversation']) } as never)
      .execute();
    await step.up(app.store.db as never);
    const got = await app.inject({
      method: 'GET',
      url: '/api/notifications/settings',
      headers: { authorization: `Bearer ${o.token}` },
    });
    expect(got.statusCode, got.body).toBe(200);
    const body = got.json() as { language: string; events: Record<string, Record<string, boolean>> };
    expect(body.language).toBe('en');
    expect(body.events.new_conversation).toEqual({ email: false, telegram: false, push: false, page: false });
    expect(body.events.asks_person).toEqual({ email: true, telegram: true, push: true, page: true });
  });
});
