/**
 * Owner accounts over real HTTP on every test dialect: sign-up with the confirmation mail caught
 * by a real SMTP server, password reset, Google sign-in against a local OpenID Connect server, the
 * sign-in failure limit, sign-out, trial profiles, and the cross-tenant test generated from the
 * route table.
 */
import type { AddressInfo } from 'node:net';
import { getMigrations } from 'better-auth/db/migration';
import { simpleParser } from 'mailparser';
import { OAuth2Server } from 'oauth2-mock-server';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSchemaOptions } from '../engine/auth/index.ts';
import { createMailer } from '../engine/auth/mail.ts';
import { daysRemaining, ensureProfile, isPaid } from '../engine/auth/profiles.ts';
import { createLogger } from '../engine/logger.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { multipart } from './helpers/multipart.ts';

/** A minimal cookie jar over fetch. */
class Browser {
  cookies = new Map<string, string>();
  /** Each browser comes from its own address (through the trusted proxy header), like distinct visitors. */
  readonly ip =
    `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  constructor(private readonly base: string) {}
  async fetch(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      init.body = JSON.stringify(init.json);
    }
    headers.set('origin', this.base);
    headers.set('x-forwarded-for', this.ip);
    const url = path.startsWith('http') ? path : `${this.base}${path}`;
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /max-age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}

describe.each(dialectsOf(import.meta.url))('owner accounts on %s', (kind) => {
  let app: TestApp;
  let base: string;
  let smtp: SMTPServer;
  const inbox: Array<{ to: string; subject: string; text: string; html: string }> = [];
  let oidc: OAuth2Server;

  const lastLink = (to: string) => {
    const mail = [...inbox].reverse().find((m) => m.to === to);
    const link = mail?.text.match(/https?:\/\/\S+/)?.[0];
    if (!link) throw new Error(`no mail with a link for ${to}`);
    return link;
  };
  const waitForMail = async (to: string, count: number) => {
    for (let i = 0; i < 100 && inbox.filter((m) => m.to === to).length < count; i++)
      await new Promise((r) => setTimeout(r, 50));
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
              html: typeof mail.html === 'string' ? mail.html : '',
            });
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpPort = (smtp.server.address() as AddressInfo).port;

    oidc = new OAuth2Server();
    await oidc.issuer.keys.generate('RS256');
    await oidc.start(0, '127.0.0.1');
    oidc.service.on('beforeTokenSigning', (token) => {
      token.payload.sub = 'google-user-1';
      token.payload.email = 'google.owner@example.com';
      token.payload.email_verified = true;
      token.payload.name = 'Google Owner';
    });
    oidc.service.on('beforeUserinfo', (userInfo) => {
      userInfo.body = {
        sub: 'google-user-1',
        email: 'google.owner@example.com',
        email_verified: true,
        name: 'Google Owner',
      };
    });

    app = await createTestApp(kind, {
      mailer: createMailer({
        smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
        from: 'Charla <no-reply@charla.local>',
        outboxDir: '/nonexistent',
        log: createLogger({ level: 'silent' }),
      }),
      env: {
        GOOGLE_CLIENT_ID: 'charla-test-client',
        GOOGLE_CLIENT_SECRET: 'charla-test-secret',
        GOOGLE_DISCOVERY_URL: `${oidc.issuer.url}/.well-known/openid-configuration`,
      },
    });
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
    await oidc?.stop();
  });

  it('signs up, mails a confirmation link (in the interface language) that confirms, then signs in', async () => {
    const b = new Browser(base);
    const signUp = await b.fetch('/api/auth/sign-up/email', {
      method: 'POST',
      headers: { 'x-app-language': 'es' },
      json: { email: 'ana@example.com', password: 'clave-segura-1', name: 'Ana', callbackURL: '/main' },
    });
    expect(signUp.status).toBe(200);
    // Not confirmed yet: no session.
    const early = await b.fetch('/api/auth/sign-in/email', {
      method: 'POST',
      json: { email: 'ana@example.com', password: 'clave-segura-1' },
    });
    expect(early.status).toBe(403);
    await waitForMail('ana@example.com', 1);
    const mail = inbox.find((m) => m.to === 'ana@example.com')!;
    expect(mail.subject).toBe('Confirma tu correo en Charla');
    expect(mail.text).toContain('Charla');
    expect(mail.html).toContain('Confirmar mi correo');
    // Signing in before confirming sent the link again; the sign-up mail's link is the one used here.
    await waitForMail('ana@example.com', 2);
    const mails = inbox.filter((m) => m.to === 'ana@example.com');
    expect(mails).toHaveLength(2);
    // The link sent at sign-in (no callbackURL from the client) lands on the dashboard's callback screen.
    expect(new URL(mails[1]!.text.match(/https?:\/\/\S+/)![0]).searchParams.get('callbackURL')).toBe(
      '/auth/callback',
    );
    const confirm = await b.fetch(mails[0]!.text.match(/https?:\/\/\S+/)![0]);
    expect(confirm.status).toBe(302);
    expect(confirm.headers.get('location')).toMatch(/\/main$/);
    const me = await b.fetch('/api/me');
    expect(me.status).toBe(200);
    expect(((await me.json()) as { owner: unknown }).owner).toMatchObject({
      email: 'ana@example.com',
      emailVerified: true,
      plan: 'free',
      daysRemaining: 30,
      paid: true,
    });

    const other = new Browser(base);
    const signIn = await other.fetch('/api/auth/sign-in/email', {
      method: 'POST',
      json: { email: 'ana@example.com', password: 'clave-segura-1' },
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.getSetCookie().find((c) => c.startsWith('charla.session_token='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it('has exactly the tables and columns better-auth expects (nothing left for its migrator)', async () => {
    // The migrator reads the database itself, not the adapter that hashes session tokens.
    const plan = await getMigrations(authSchemaOptions(app.auth));
    expect(plan.toBeCreated.map((t) => t.table)).toEqual([]);
    expect(plan.toBeAdded.map((t) => t.table)).toEqual([]);
  });

  it('refuses passwords shorter than 8 characters', async () => {
    const b = new Browser(base);
    const res = await b.fetch('/api/auth/sign-up/email', {
      method: 'POST',
      json: { email: 'corto@example.com', password: '1234567', name: 'x' },
    });
    expect(res.status).toBe(400);
  });

  it('resets a password by the mailed link: the new one works, the old one does not', async () => {
    await app.owner('reset@example.com');
    const b = new Browser(base);
    const ask = await b.fetch('/api/auth/request-password-reset', {
      method: 'POST',
      headers: { 'accept-language': 'en-GB,en;q=0.9' },
      json: { email: 'reset@example.com', redirectTo: '/update-password' },
    });
    expect(ask.status).toBe(200);
    await waitForMail('reset@example.com', 1);
    expect(inbox.find((m) => m.to === 'reset@example.com')!.subject).toBe('Reset your Charla password');
    const open = await b.fetch(lastLink('reset@example.com'));
    expect(open.status).toBe(302);
    const landing = new URL(open.headers.get('location')!, base);
    expect(landing.pathname).toBe('/update-password');
    const token = landing.searchParams.get('token')!;
    const reset = await b.fetch('/api/auth/reset-password', {
      method: 'POST',
      json: { newPassword: 'nueva-clave-99', token },
    });
    expect(reset.status).toBe(200);
    const fresh = new Browser(base);
    expect(
      (
        await fresh.fetch('/api/auth/sign-in/email', {
          method: 'POST',
          json: { email: 'reset@example.com', password: 'contraseña-segura' },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await fresh.fetch('/api/auth/sign-in/email', {
          method: 'POST',
          json: { email: 'reset@example.com', password: 'nueva-clave-99' },
        })
      ).status,
    ).toBe(200);
  });

  it('changes the password of a signed-in owner who gives the current one', async () => {
    await app.owner('cambio@example.com');
    const b = new Browser(base);
    expect(
      (
        await b.fetch('/api/auth/sign-in/email', {
          method: 'POST',
          json: { email: 'cambio@example.com', password: 'contraseña-segura' },
        })
      ).status,
    ).toBe(200);
    const wrong = await b.fetch('/api/auth/change-password', {
      method: 'POST',
      json: { currentPassword: 'no-es-esta-1', newPassword: 'otra-clave-22' },
    });
    expect(wrong.status).toBe(400);
    const ok = await b.fetch('/api/auth/change-password', {
      method: 'POST',
      json: { currentPassword: 'contraseña-segura', newPassword: 'otra-clave-22' },
    });
    expect(ok.status).toBe(200);
    const fresh = new Browser(base);
    expect(
      (
        await fresh.fetch('/api/auth/sign-in/email', {
          method: 'POST',
          json: { email: 'cambio@example.com', password: 'otra-clave-22' },
        })
      ).status,
    ).toBe(200);
  });

  it('signs in with Google through a local OpenID Connect server', async () => {
    const b = new Browser(base);
    const start = await b.fetch('/api/auth/sign-in/social', {
      method: 'POST',
      json: { provider: 'google', callbackURL: '/main' },
    });
    expect(start.status).toBe(200);
    const { url } = (await start.json()) as { url: string };
    expect(url.startsWith(oidc.issuer.url!)).toBe(true);
    const authorize = await fetch(url, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    const callback = await b.fetch(authorize.headers.get('location')!);
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toMatch(/\/main$/);
    const me = await b.fetch('/api/me');
    expect(me.status).toBe(200);
    expect(((await me.json()) as { owner: unknown }).owner).toMatchObject({
      email: 'google.owner@example.com',
      emailVerified: true,
      plan: 'free',
    });
  });

  it('refuses the 6th failed sign-in in 15 minutes for an account and address, even with the right password', async () => {
    await app.owner('guess@example.com');
    const b = new Browser(base);
    for (let i = 0; i < 5; i++) {
      const res = await b.fetch('/api/auth/sign-in/email', {
        method: 'POST',
        json: { email: 'guess@example.com', password: `wrong-${i}-xx` },
      });
      expect(res.status).toBe(401);
    }
    const sixth = await b.fetch('/api/auth/sign-in/email', {
      method: 'POST',
      json: { email: 'guess@example.com', password: 'contraseña-segura' },
    });
    expect(sixth.status).toBe(429);
    // An unknown e-mail gets the same answers: nothing says whether an account exists.
    const unknown = new Browser(base);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (
          await unknown.fetch('/api/auth/sign-in/email', {
            method: 'POST',
            json: { email: 'nadie@example.com', password: `wrong-${i}-xx` },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('refuses a session cookie after sign-out', async () => {
    await app.owner('salir@example.com');
    const b = new Browser(base);
    expect(
      (
        await b.fetch('/api/auth/sign-in/email', {
          method: 'POST',
          json: { email: 'salir@example.com', password: 'contraseña-segura' },
        })
      ).status,
    ).toBe(200);
    const saved = new Map(b.cookies);
    expect(((await (await b.fetch('/api/me')).json()) as { owner: unknown }).owner).not.toBeNull();
    expect((await b.fetch('/api/auth/sign-out', { method: 'POST', json: {} })).status).toBe(200);
    b.cookies = saved; // replay the old cookie
    const after = await b.fetch('/api/me');
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ owner: null });
    // Owner routes still need the session.
    expect((await b.fetch('/api/my-chatbot')).status).toBe(401);
  });

  it('keeps every owner route scoped: owner B gets 404 for owner A’s ids on every route of the table', async () => {
    const http = await app.http();
    const a = await app.owner('dueno-a@example.com');
    const bOwner = await app.owner('dueno-b@example.com');
    const asA = { authorization: `Bearer ${a.token}` };
    const saved = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: asA,
      payload: { business_name: 'Bot A', business_description: 'Solo de A' },
    });
    const botId = saved.json().id as string;
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const { body, contentType } = await multipart(
      { chatbotId: botId, keyword: 'menu', context: 'carta' },
      { field: 'file', name: 'a.pdf', data: pdf },
    );
    const file = await http.inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { ...asA, 'content-type': contentType },
      payload: body,
    });
    const fileId = file.json().id as string;

    const apiRoutes = http.routeTable.filter(
      (r) =>
        r.url.startsWith('/api/') &&
        !r.url.startsWith('/api/auth/') &&
        !r.url.startsWith('/api/docs') &&
        r.method !== 'HEAD',
    );
    let probed = 0;
    for (const route of apiRoutes) {
      expect(
        route.owner || route.public,
        `${route.method} ${route.url} declares neither an owner scope nor public`,
      ).toBeTruthy();
      if (!route.owner) continue;
      const anonymous = await http.inject({
        method: route.method as 'GET',
        url: route.url.replace(/:id/g, 'x'),
      });
      expect(anonymous.statusCode, `${route.method} ${route.url} without a session`).toBe(401);
      const scope = route.owner;
      if ('self' in scope) continue;
      const probe = scope.probe({ botId, fileId });
      const headers: Record<string, string> = { authorization: `Bearer ${bOwner.token}` };
      let payload: string | Buffer | undefined;
      if (probe.upload) {
        const m = await multipart(probe.upload, { field: 'file', name: 'b.pdf', data: pdf });
        headers['content-type'] = m.contentType;
        payload = m.body;
      } else if (probe.json) {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(probe.json);
      }
      const res = await http.inject({
        method: probe.method,
        url: probe.url,
        headers,
        ...(payload !== undefined ? { payload } : {}),
      });
      expect(res.statusCode, `${probe.method} ${probe.url} as another owner`).toBe(404);
      probed++;
    }
    expect(probed).toBeGreaterThanOrEqual(4);
    // Owner A's bot and file are untouched.
    const list = await http.inject({ method: 'GET', url: `/api/chatbot-files?chatbotId=${botId}` });
    expect(list.json().map((f: { id: string }) => f.id)).toEqual([fileId]);
    const mine = await http.inject({
      method: 'GET',
      url: '/api/my-chatbot',
      headers: { authorization: `Bearer ${bOwner.token}` },
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({ bot: null });
  });
});

describe('days remaining and paid (spec 001 §3, 000 §4)', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  it.each([
    [{ plan: 'free', expires_at: '2026-11-22T11:00:00Z' }, 1],
    [{ plan: 'free', expires_at: '2026-11-21T12:00:01Z' }, 1],
    [{ plan: 'free', expires_at: '2026-12-21T12:00:00Z' }, 30],
    [{ plan: 'free', expires_at: '2026-11-20T12:00:00Z' }, 0],
    [{ plan: 'free', expires_at: null }, 0],
    [{ plan: 'free', expires_at: 'not a date' }, 0],
    [null, 0],
  ])('%j has %i days', (profile, days) => {
    expect(daysRemaining(profile, now)).toBe(days);
  });
  it('counts premium and monthly plans, or a future expiry, as paid', () => {
    expect(isPaid({ plan: 'premium', expires_at: null }, now)).toBe(true);
    expect(isPaid({ plan: 'monthly', expires_at: '2020-01-01' }, now)).toBe(true);
    expect(isPaid({ plan: 'free', expires_at: '2026-12-01' }, now)).toBe(true);
    expect(isPaid({ plan: 'free', expires_at: '2026-11-01' }, now)).toBe(false);
    expect(isPaid(null, now)).toBe(false);
  });
});

describe.each(dialectsOf(import.meta.url))('the first profile of an owner on %s', (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(kind);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('gives a trial of CHARLA_TRIAL_DAYS days, and with 0 an unlimited profile that keeps bots running', async () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const trial = await app.owner('trial@example.com');
    const unlimited = await app.owner('own-server@example.com');
    // A first sign-in's profile, made again here with the clock and trial length under test.
    await app.store.db.deleteFrom('user_profiles').where('user_id', 'in', [trial.id, unlimited.id]).execute();
    await ensureProfile(app.store.db, trial.id, 30, now);
    await ensureProfile(app.store.db, unlimited.id, 0, now);
    const rows = await app.store.db
      .selectFrom('user_profiles')
      .select(['user_id', 'plan', 'expires_at'])
      .where('user_id', 'in', [trial.id, unlimited.id])
      .execute();
    const of = (id: string) => rows.find((r) => r.user_id === id)!;
    expect(of(trial.id).plan).toBe('free');
    expect(daysRemaining(of(trial.id), now)).toBe(30);
    expect(of(unlimited.id)).toMatchObject({ plan: 'premium', expires_at: null });
    expect(isPaid(of(unlimited.id), now)).toBe(true);
  });
});
