/**
 * Issue 24's attacks, each refused while the legitimate use keeps working, over real routes on each
 * store:
 * - §2 the bot-id chat and voice routes pass the same gate as the widget's: a bot whose owner has
 *   no days, whose web service is off, or that is private answers strangers 403/404; a burst from
 *   one visitor is cut at the limit (counted across the id and key routes), and
 *   `CHARLA_RATE_LIMITS=off` lifts every limit; the owner's test chat needs the owner; the
 *   operator's token (`charla chat`) reaches any bot;
 * - §3 sign-in: 50 concurrent wrong passwords get at most 5 checks, one address trying 60 accounts
 *   is stopped at 30, and the owner still signs in from elsewhere;
 * - §5 a sibling site's form (another port, a subdomain) cannot act with the owner's cookie, while
 *   the app itself and bearer-token scripts can;
 * - §8 a message id replayed by another visitor gets a turn of its own; `?debug=1` shows the empathy
 *   container to the bot's owner only; stale conversion folders are removed.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../cli/seed.ts';
import { removeStaleWorkDirs } from '../engine/media.ts';
import { OPERATOR_HEADER, operatorToken } from '../engine/operator.ts';
import { LIMITS, limitSettings, parseLimit } from '../engine/rate-limits.ts';
import { isDatabaseUnavailable, markDatabaseError } from '../engine/store/errors.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { multipart } from './helpers/multipart.ts';

const DAY = 86_400_000;

describe('rate-limit settings', () => {
  it('lists every limit with its variable and default in the README', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const window = (ms: number) => (ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : `${ms / 60_000}m`);
    for (const limit of Object.values(LIMITS))
      expect(readme).toContain(`| \`${limit.env}\` | \`${limit.max}/${window(limit.windowMs)}\` |`);
  });

  it('reads <max>/<window> and off, per limit and for all', () => {
    expect(parseLimit('X', '30/1m')).toEqual({ max: 30, windowMs: 60_000 });
    expect(parseLimit('X', '5/15m')).toEqual({ max: 5, windowMs: 900_000 });
    expect(parseLimit('X', 'off')).toBeNull();
    expect(() => parseLimit('CHARLA_LIMIT_TURN_VISITOR', 'veinte')).toThrow(/CHARLA_LIMIT_TURN_VISITOR/);
    const settings = limitSettings({ CHARLA_LIMIT_TURN_VISITOR: '3/10s' });
    expect(settings.turnVisitor).toEqual({ max: 3, windowMs: 10_000 });
    expect(settings.turnBot).toEqual({ max: LIMITS.turnBot.max, windowMs: LIMITS.turnBot.windowMs });
    expect(Object.values(limitSettings({ CHARLA_RATE_LIMITS: 'off' })).every((r) => r === null)).toBe(true);
    expect(() => limitSettings({ CHARLA_RATE_LIMITS: 'maybe' })).toThrow(/CHARLA_RATE_LIMITS/);
  });
});

describe('database outage or someone else’s', () => {
  it('reads a failed fetch to another service as theirs, and only the store’s own errors as the database’s', async () => {
    // A port nobody listens on: the fetch fails with ECONNREFUSED, as a dead Meta or LLM host would.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const fetchFailure = await fetch(`http://127.0.0.1:${port}/`).catch((err: unknown) => err);
    expect((fetchFailure as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(fetchFailure)).toBe(false);
    // The same socket error, raised by one of the store's connections, is an outage.
    const lost = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(isDatabaseUnavailable(lost)).toBe(false);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: markDatabaseError(lost) }))).toBe(true);
  });
});

describe('conversion folders', () => {
  it('removes the folders a killed conversion left, not a running one’s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'charla-tmp-test-'));
    const stale = join(dir, 'charla-media-stale');
    const fresh = join(dir, 'charla-media-fresh');
    mkdirSync(stale);
    mkdirSync(fresh);
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(stale, hourAgo, hourAgo);
    expect(await removeStaleWorkDirs(Date.now(), dir)).toBe(1);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });
});

describe.each(dialectsOf(import.meta.url))('hardening on %s', (kind) => {
  let app: TestApp;
  let http: FastifyInstance;
  let botId: string;
  let key: string;
  let owner: { id: string; token: string };
  let other: { id: string; token: string };

  const setDays = async (userId: string, days: number) => {
    const expires = new Date(Date.now() + days * DAY);
    await app.store.db
      .insertInto('user_profiles')
      .values({ user_id: userId, plan: 'free', expires_at: expires })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ plan: 'free', expires_at: expires }))
      .execute();
    // As a payment or a coupon does (reconcileOwner): the bot cache holds the owner's plan too.
    app.engine.cache.invalidate(botId);
  };
  /** Changes the bot as its owner's settings screens do (and forgets it from the short-lived cache, as they do). */
  const setBot = async (values: { web_enabled?: boolean; is_public?: boolean }) => {
    await app.store.db.updateTable('chatbots').set(values).where('id', '=', botId).execute();
    app.engine.cache.invalidate(botId);
  };
  /** A turn by bot id, from an address (through the trusted loopback proxy). */
  const byId = (payload: Record<string, unknown>, headers: Record<string, string> = {}, query = '') =>
    http.inject({
      method: 'POST',
      url: `/api/chatbot-message/${botId}${query}`,
      headers: { 'x-forwarded-for': '203.0.113.7', ...headers },
      payload: { userMessage: 'hola', ...payload },
    });
  const byKey = (visitorId: string, address = '203.0.113.7') =>
    http.inject({
      method: 'POST',
      url: `/api/web/${key}/message`,
      headers: { 'x-forwarded-for': address },
      payload: { userMessage: 'hola', visitorId },
    });
  const voiceById = async (fields: Record<string, string>, headers: Record<string, string> = {}) => {
    const { body, contentType } = await multipart(fields, {
      field: 'audio',
      name: 'voz.ogg',
      data: Buffer.from('OggS-not-really-audio'),
    });
    return http.inject({
      method: 'POST',
      url: `/api/chatbot-voice/${botId}`,
      headers: { 'content-type': contentType, ...headers },
      payload: body,
    });
  };

  beforeAll(async () => {
    app = await createTestApp(kind);
    http = await app.http();
    const seeded = await seedDemo(app, () => {});
    botId = seeded.bot.id;
    const bot = await app.store.db
      .selectFrom('chatbots')
      .selectAll()
      .where('id', '=', botId)
      .executeTakeFirstOrThrow();
    key = bot.charla_key!;
    owner = { id: bot.user_id, token: '' };
    const { createSessionToken } = await import('../engine/auth/owners.ts');
    owner.token = await createSessionToken(app.auth, bot.user_id);
    other = await app.owner('otra@example.com');
    await setDays(owner.id, 30);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('§2 answers strangers by bot id only for a public bot with its web service on and days left', async () => {
    expect((await byId({ visitorId: 'v-ok' })).statusCode).toBe(200);

    await setDays(owner.id, -1);
    const noDays = await byId({ visitorId: 'v-days' });
    expect(noDays.statusCode).toBe(403);
    expect(noDays.json().error).toBe(
      'El chat de El Pato Pepe no está disponible en este momento. Vuelve a intentarlo más tarde.',
    );
    expect((await voiceById({ visitorId: 'v-days', channel: 'web' })).statusCode).toBe(403);
    // The owner may still try their own bot in the test chat.
    expect(
      (await byId({ visitorId: 'v-test', channel: 'test' }, { authorization: `Bearer ${owner.token}` }))
        .statusCode,
    ).toBe(200);
    await setDays(owner.id, 30);

    await setBot({ web_enabled: false });
    expect((await byId({ visitorId: 'v-off' })).statusCode).toBe(403);
    await setBot({ web_enabled: true, is_public: false });
    const privateBot = await byId({ visitorId: 'v-private' });
    expect(privateBot.statusCode).toBe(404);
    expect((await http.inject({ method: 'GET', url: `/api/chatbot-config/${botId}` })).statusCode).toBe(404);
    // Its widget key still works: the key is what the owner hands out.
    expect((await byKey('v-private-widget')).statusCode).toBe(200);
    // The operator (`charla chat`) reaches it with the token derived from the instance secret.
    const operator = { [OPERATOR_HEADER]: operatorToken(app.secrets) };
    expect((await byId({ visitorId: 'cli:root', channel: 'cli' }, operator)).statusCode).toBe(200);
    expect((await byId({ channel: 'cli' }, { [OPERATOR_HEADER]: 'x'.repeat(43) })).statusCode).toBe(401);
    await setBot({ is_public: true });
  });

  it('§2 keeps the test chat for the bot’s owner', async () => {
    expect((await byId({ channel: 'test' })).statusCode).toBe(401);
    expect((await byId({ channel: 'test' }, { authorization: `Bearer ${other.token}` })).statusCode).toBe(
      404,
    );
    expect((await voiceById({ channel: 'test' })).statusCode).toBe(401);
    expect((await byId({ channel: 'test' }, { authorization: `Bearer ${owner.token}` })).statusCode).toBe(
      200,
    );
  });

  it('§2 cuts a burst at the visitor limit, counted across the id and key routes, with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res =
        i % 2 === 0
          ? await byId({ visitorId: 'v-burst', messageId: `b-${i}` }, { 'x-forwarded-for': '198.51.100.1' })
          : await byKey('v-burst', '198.51.100.1');
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(res.json().error).toBe(
          'Demasiados mensajes seguidos. Espera un momento y vuelve a intentarlo.',
        );
      }
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMITS.turnVisitor.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - LIMITS.turnVisitor.max);
    // Another visitor on another address is not slowed.
    expect((await byId({ visitorId: 'v-calm' }, { 'x-forwarded-for': '198.51.100.2' })).statusCode).toBe(200);
  });

  it('§2 lifts every limit with CHARLA_RATE_LIMITS=off', async () => {
    const free = await createTestApp(kind, { env: { CHARLA_RATE_LIMITS: 'off' }, store: app.store });
    try {
      const h = await free.http();
      const codes = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          h
            .inject({
              method: 'POST',
              url: `/api/chatbot-message/${botId}`,
              headers: { 'x-forwarded-for': '198.51.100.9' },
              payload: { userMessage: 'hola', visitorId: 'v-bench', messageId: `off-${i}` },
            })
            .then((r) => r.statusCode),
        ),
      );
      expect(codes.filter((c) => c === 200)).toHaveLength(40);
      // The same burst against the app with its limits on is cut at the visitor limit.
      const limited = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          byId(
            { visitorId: 'v-bench-on', messageId: `on-${i}` },
            { 'x-forwarded-for': '198.51.100.10' },
          ).then((r) => r.statusCode),
        ),
      );
      expect(limited.filter((c) => c === 429)).toHaveLength(40 - LIMITS.turnVisitor.max);
    } finally {
      await free.close();
    }
  });

  it('§2 counts an address, not each visitor id it makes up, nor each address of its IPv6 /64', async () => {
    const rotating: number[] = [];
    for (let i = 0; i < LIMITS.turnAddress.max + 5; i++)
      rotating.push((await byKey(`rota-${i}`, `2001:db8:1:2::${(i + 1).toString(16)}`)).statusCode);
    expect(rotating.filter((s) => s === 200)).toHaveLength(LIMITS.turnAddress.max);
    // A visitor id that looks like an address's anonymous key is still a visitor of its own.
    expect(
      (await byId({ visitorId: 'ip:203.0.113.7' }, { 'x-forwarded-for': '203.0.113.99' })).statusCode,
    ).toBe(200);
  });

  it('§8 scopes a message id to its follower: another visitor replaying it gets a turn of their own', async () => {
    const first = await byId(
      { visitorId: 'v-alice', messageId: 'same-id', userMessage: '¿Tenéis la carta?' },
      { 'x-forwarded-for': '192.0.2.1' },
    );
    expect(first.json().attachment).toMatchObject({ type: 'pdf' });
    const replayed = await byId(
      { visitorId: 'v-bob', messageId: 'same-id', userMessage: '¿A qué hora abrís el sábado?' },
      { 'x-forwarded-for': '192.0.2.2' },
    );
    expect(replayed.statusCode).toBe(200);
    expect(replayed.json().duplicate).toBe(false);
    expect(replayed.json().attachment).toBeNull();
    expect(replayed.json().reply).not.toBe(first.json().reply);
    // The same visitor retrying gets the stored answer.
    const retried = await byId(
      { visitorId: 'v-alice', messageId: 'same-id', userMessage: '¿Tenéis la carta?' },
      { 'x-forwarded-for': '192.0.2.1' },
    );
    expect(retried.json()).toMatchObject({ duplicate: true, reply: first.json().reply });
    // Callers without a visitor id are all "anonymous": a key of theirs never replays another's turn.
    const anonymous = await byId(
      { messageId: 'anon-id', userMessage: '¿Tenéis la carta?' },
      { 'x-forwarded-for': '192.0.2.3' },
    );
    expect(anonymous.json().attachment).toMatchObject({ type: 'pdf' });
    const other = await byId(
      { messageId: 'anon-id', userMessage: '¿A qué hora abrís el sábado?' },
      { 'x-forwarded-for': '192.0.2.4' },
    );
    expect(other.json()).toMatchObject({ duplicate: false, attachment: null });
    expect(other.json().heard).toBe('¿A qué hora abrís el sábado?');
  });

  it('§8 shows the whole empathy container with ?debug=1 to the bot’s owner only', async () => {
    const stranger = await byId({ visitorId: 'v-debug' }, { 'x-forwarded-for': '192.0.2.9' }, '?debug=1');
    expect(Object.keys(stranger.json().contenedorEmpatico)).toEqual(['archivos']);
    const asOwner = await byId(
      { visitorId: 'v-debug-owner', channel: 'test' },
      { authorization: `Bearer ${owner.token}` },
      '?debug=1',
    );
    expect(Object.keys(asOwner.json().contenedorEmpatico).length).toBeGreaterThan(1);
  });

  describe('§3 sign-in', () => {
    const signIn = (email: string, password: string, address: string) =>
      http.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: { 'x-forwarded-for': address, 'content-type': 'application/json' },
        payload: { email, password },
      });

    it('checks at most 5 of 50 concurrent wrong passwords, and the owner still signs in from elsewhere', async () => {
      await app.owner('victima@example.com');
      const codes = await Promise.all(
        Array.from({ length: 50 }, () =>
          signIn('victima@example.com', 'adivinanza', '203.0.113.50').then((r) => r.statusCode),
        ),
      );
      // Exactly the limit's worth are checked; every other attempt is refused before its check.
      expect(codes.filter((c) => c === 401)).toHaveLength(LIMITS.signInAccount.max);
      expect(codes.filter((c) => c === 429)).toHaveLength(50 - LIMITS.signInAccount.max);
      const locked = await signIn('victima@example.com', 'contraseña-segura', '203.0.113.50');
      expect(locked.statusCode).toBe(429);
      expect(locked.json().message).toBe('Demasiados intentos fallidos. Inténtalo de nuevo en 15 minutos.');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await signIn('victima@example.com', 'contraseña-segura', '203.0.113.51')).statusCode).toBe(200);
    });

    it('limits the mails one address can ask for (sign-up, reset), in the database', async () => {
      const codes: number[] = [];
      for (let i = 0; i <= LIMITS.authMail.max; i++) {
        const res = await http.inject({
          method: 'POST',
          url: '/api/auth/request-password-reset',
          headers: { 'x-forwarded-for': '203.0.113.80', 'content-type': 'application/json' },
          payload: { email: `olvido-${i}@example.com`, redirectTo: '/update-password' },
        });
        codes.push(res.statusCode);
      }
      expect(codes.slice(0, LIMITS.authMail.max).every((c) => c === 200)).toBe(true);
      expect(codes.at(-1)).toBe(429);
    });

    it('answers an absurdly long e-mail with a 4xx, not a 500', async () => {
      const res = await signIn(`${'x'.repeat(9000)}@example.com`, 'adivinanza', '203.0.113.70');
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    });

    it('stops one address trying many accounts at 30 failures', async () => {
      const codes: number[] = [];
      for (let i = 0; i < 60; i++)
        codes.push((await signIn(`cuenta-${i}@example.com`, 'adivinanza', '203.0.113.60')).statusCode);
      expect(codes.slice(0, LIMITS.signInAddress.max).every((c) => c === 401)).toBe(true);
      expect(codes.slice(LIMITS.signInAddress.max).every((c) => c === 429)).toBe(true);
    });
  });

  describe('§5 cross-site requests', () => {
    let cookie: string;
    beforeAll(async () => {
      const res = await http.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: {
          host: 'app.example:8787',
          origin: 'http://app.example:8787',
          'x-forwarded-for': '192.0.2.80',
        },
        payload: { email: 'otra@example.com', password: 'contraseña-segura' },
      });
      expect(res.statusCode, res.body).toBe(200);
      cookie = res.headers['set-cookie']!.toString().split(';')[0]!;
    });
    const save = (headers: Record<string, string>) =>
      http.inject({
        method: 'POST',
        url: '/api/save-chatbot',
        headers: { host: 'app.example:8787', cookie, ...headers },
        payload: { business_name: 'Otra Tienda', business_description: 'Una tienda.' },
      });

    it('refuses the owner’s cookie from a sibling port, a subdomain or a null origin', async () => {
      for (const origin of ['http://app.example:9999', 'http://evil.app.example:8787', 'null']) {
        const res = await save({ origin });
        expect(res.statusCode, origin).toBe(403);
      }
      expect((await save({ 'sec-fetch-site': 'same-site' })).statusCode).toBe(403);
      const { body, contentType } = await multipart(
        { chatbotId: botId, text: 'Oferta falsa' },
        { field: 'unused', name: 'x.txt', data: Buffer.from('x') },
      );
      const broadcast = await http.inject({
        method: 'POST',
        url: '/api/telegram-broadcast',
        headers: {
          host: 'app.example:8787',
          cookie,
          origin: 'http://app.example:3000',
          'content-type': contentType,
        },
        payload: body,
      });
      expect(broadcast.statusCode).toBe(403);
    });

    it('takes the app’s own requests and scripts with a bearer token', async () => {
      expect(
        (await save({ origin: 'http://app.example:8787', 'sec-fetch-site': 'same-origin' })).statusCode,
      ).toBe(200);
      const script = await http.inject({
        method: 'POST',
        url: '/api/save-chatbot',
        headers: { authorization: `Bearer ${other.token}` },
        payload: { business_name: 'Otra Tienda', business_description: 'Una tienda de barrio.' },
      });
      expect(script.statusCode).toBe(200);
      // A script in a browser page sends its Origin with the bearer token: still not forgeable.
      const inPage = await http.inject({
        method: 'POST',
        url: '/api/save-chatbot',
        headers: { authorization: `Bearer ${other.token}`, origin: 'https://tools.example' },
        payload: { business_name: 'Otra Tienda', business_description: 'Una tienda de barrio.' },
      });
      expect(inPage.statusCode).toBe(200);
    });

    it('with PUBLIC_URL set, takes its origin and the page’s own host, and refuses a sibling', async () => {
      const withUrl = await createTestApp(kind, {
        env: { PUBLIC_URL: 'https://charla.example.com' },
        store: app.store,
      });
      try {
        const h = await withUrl.http();
        const signedIn = await h.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          headers: {
            host: 'charla.example.com',
            origin: 'https://charla.example.com',
            'x-forwarded-for': '192.0.2.81',
          },
          payload: { email: 'otra@example.com', password: 'contraseña-segura' },
        });
        expect(signedIn.statusCode, signedIn.body).toBe(200);
        // An https PUBLIC_URL gives the Secure cookie (`__Secure-` prefix).
        const secureCookie = signedIn.headers['set-cookie']!.toString().split(';')[0]!;
        const asOwner = (host: string, origin: string) =>
          h.inject({
            method: 'POST',
            url: '/api/save-chatbot',
            headers: { host, cookie: secureCookie, origin },
            payload: { business_name: 'Otra Tienda', business_description: 'Una tienda.' },
          });
        expect((await asOwner('charla.example.com', 'https://charla.example.com')).statusCode).toBe(200);
        expect((await asOwner('192.168.1.5:8787', 'http://192.168.1.5:8787')).statusCode).toBe(200);
        expect((await asOwner('charla.example.com', 'https://shop.example.com')).statusCode).toBe(403);
        expect((await asOwner('charla.example.com', 'https://charla.example.com:8443')).statusCode).toBe(403);
      } finally {
        await withUrl.close();
      }
    });
  });
});
