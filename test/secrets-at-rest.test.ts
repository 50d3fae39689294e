/**
 * Secrets at rest (issue 24 item 6), as someone holding a database dump, a backup of the data dir
 * or the server's log would try them: the session token in `auth_sessions` is a hash that signs in
 * nobody (as a bearer token or a cookie) while the owner's own token keeps working everywhere
 * better-auth reads it (bearer, cookie, refresh, sign-out, list and revoke); a pending reset link's
 * token is not in `auth_verifications`, and the link still resets the password; sessions written
 * before the upgrade are hashed in place and stay signed in; the real `charla serve` keeps its data
 * dir 0700 and its files 0600 (and tightens a data dir of an older version), never logs a mail's
 * link, and warns when PUBLIC_URL is https with no SMTP; the logger scrubs credentials out of texts.
 */
import type { ChildProcess } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type RenderedMail, renderMail } from '../engine/auth/mail.ts';
import { createSessionToken, upsertOwnerWithPassword } from '../engine/auth/owners.ts';
import { createLogger } from '../engine/logger.ts';
import { hashToken } from '../engine/secrets.ts';
import { up as hashExistingTokens } from '../migrations/202611251400_hashed_session_tokens.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { bundleLikeNpmStart, charlaEnv, runCharla, serveCharla } from './helpers/charla-process.ts';
import { dialectsOf, testDataDir } from './helpers/db.ts';

const PASSWORD = 'contraseña-segura';

/** Lines a logger writes, for reading what it said. */
function capturedLogger() {
  const lines: string[] = [];
  const log = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  });
  return { log, text: () => lines.join('') };
}

describe.each(dialectsOf(import.meta.url))('owner sessions and reset links at rest on %s', (kind) => {
  let app: TestApp;
  let base: string;
  const mails: RenderedMail[] = [];

  /** One visitor: its own address (through the trusted proxy header), an Origin of the app. */
  const ip = () => `10.24.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  const call = (
    path: string,
    init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
  ) =>
    fetch(`${base}${path}`, {
      method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
      redirect: 'manual',
      headers: {
        origin: base,
        'x-forwarded-for': ip(),
        ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
    });
  /** Signs in; returns the raw token better-auth answered and the cookie it set. */
  const signIn = async (email: string, password = PASSWORD) => {
    const res = await call('/api/auth/sign-in/email', { json: { email, password } });
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    const cookie = res.headers
      .getSetCookie()
      .find((c) => c.startsWith('charla.session_token='))!
      .split(';')[0]!;
    return { token, cookie };
  };
  /** The signed-in owner's e-mail for these headers, or null. */
  const whoIs = async (headers: Record<string, string>) =>
    ((await (await call('/api/me', { headers })).json()) as { owner: { email: string } | null }).owner
      ?.email ?? null;
  /** A confirmed owner with {@link PASSWORD} and no session yet. */
  const newOwner = (email: string) => upsertOwnerWithPassword(app.auth, email, PASSWORD);
  const storedTokens = async (ownerId: string) =>
    (
      await app.store.db
        .selectFrom('auth_sessions')
        .select(['token', 'expires_at'])
        .where('user_id', '=', ownerId)
        .execute()
    ).map((r) => r.token);

  beforeAll(async () => {
    app = await createTestApp(kind, {
      mailer: {
        async send(mail) {
          mails.push(mail);
        },
      },
    });
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('stores only a hash of the session token: the raw token signs in, the stored value does not', async () => {
    const { id } = await newOwner('hash@example.com');
    const { token, cookie } = await signIn('hash@example.com');
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    // The cookie carries the raw token (signed); the row holds its hash and nothing else.
    expect(decodeURIComponent(cookie.split('=').slice(1).join('=')).startsWith(`${token}.`)).toBe(true);
    const stored = await storedTokens(id);
    expect(stored).toContain(hashToken(token));
    expect(stored).not.toContain(token);
    const dump = JSON.stringify(await app.store.db.selectFrom('auth_sessions').selectAll().execute());
    expect(dump).not.toContain(token);

    // The owner: the cookie and the documented bearer header both work.
    expect(await whoIs({ cookie })).toBe('hash@example.com');
    expect(await whoIs({ authorization: `Bearer ${token}` })).toBe('hash@example.com');
    expect(
      (await call('/api/my-chatbot', { headers: { authorization: `Bearer ${token}` } })).status,
    ).not.toBe(401);
    // Whoever holds the dump: the stored value as a bearer token, in either form it is shown.
    const leaked = hashToken(token);
    expect(await whoIs({ authorization: `Bearer ${leaked}` })).toBeNull();
    expect(await whoIs({ authorization: `Bearer hashed:${leaked}` })).toBeNull();
    expect((await call('/api/my-chatbot', { headers: { authorization: `Bearer ${leaked}` } })).status).toBe(
      401,
    );
  });

  it('keeps `charla owners token` working: its printed token is a bearer token, its row a hash', async () => {
    const { id } = await newOwner('cli@example.com');
    const token = await createSessionToken(app.auth, id);
    expect(await storedTokens(id)).toEqual([hashToken(token)]);
    expect(await whoIs({ authorization: `Bearer ${token}` })).toBe('cli@example.com');
    expect(await whoIs({ authorization: `Bearer ${hashToken(token)}` })).toBeNull();
  });

  it('refreshes, lists, revokes and signs out sessions by their raw token', async () => {
    const { id } = await newOwner('many@example.com');
    const a = await signIn('many@example.com');
    const b = await signIn('many@example.com');
    const c = await signIn('many@example.com');

    // Refresh (better-auth's updateSession by token): a session a day old gets a new expiry.
    const soon = new Date(Date.now() + 5 * 86_400_000);
    await app.store.db
      .updateTable('auth_sessions')
      .set({ expires_at: soon })
      .where('token', '=', hashToken(a.token))
      .execute();
    expect(await whoIs({ cookie: a.cookie })).toBe('many@example.com');
    const refreshed = await app.store.db
      .selectFrom('auth_sessions')
      .select('expires_at')
      .where('token', '=', hashToken(a.token))
      .executeTakeFirstOrThrow();
    expect(new Date(refreshed.expires_at).getTime()).toBeGreaterThan(soon.getTime() + 86_400_000);

    // The list shows the caller's own raw token and only the stored form of the others.
    const list = (await (
      await call('/api/auth/list-sessions', { headers: { cookie: a.cookie } })
    ).json()) as Array<{
      token: string;
    }>;
    const shown = list.map((s) => s.token).sort();
    expect(shown).toEqual([a.token, `hashed:${hashToken(b.token)}`, `hashed:${hashToken(c.token)}`].sort());
    expect(JSON.stringify(list)).not.toContain(b.token);

    // A listed token revokes that session (the caller's own sessions only).
    const revoke = await call('/api/auth/revoke-session', {
      json: { token: `hashed:${hashToken(b.token)}` },
      headers: { cookie: a.cookie },
    });
    expect(revoke.status).toBe(200);
    expect(await whoIs({ cookie: b.cookie })).toBeNull();
    const stranger = await newOwner('stranger@example.com');
    const strangerToken = await createSessionToken(app.auth, stranger.id);
    await call('/api/auth/revoke-session', {
      json: { token: `hashed:${hashToken(strangerToken)}` },
      headers: { cookie: a.cookie },
    });
    expect(await whoIs({ authorization: `Bearer ${strangerToken}` })).toBe('stranger@example.com');

    // Revoke the others: c goes, a stays.
    expect(
      (await call('/api/auth/revoke-other-sessions', { json: {}, headers: { cookie: a.cookie } })).status,
    ).toBe(200);
    expect(await whoIs({ cookie: c.cookie })).toBeNull();
    expect(await whoIs({ cookie: a.cookie })).toBe('many@example.com');
    expect(await storedTokens(id)).toEqual([hashToken(a.token)]);

    // Sign-out deletes the row the cookie's token hashes to.
    expect((await call('/api/auth/sign-out', { json: {}, headers: { cookie: a.cookie } })).status).toBe(200);
    expect(await storedTokens(id)).toEqual([]);
    expect(await whoIs({ cookie: a.cookie })).toBeNull();
  });

  it('resets a password by the mailed link while `auth_verifications` holds only a hash of its token', async () => {
    await newOwner('olvido@example.com');
    const ask = await call('/api/auth/request-password-reset', {
      json: { email: 'olvido@example.com', redirectTo: '/update-password' },
    });
    expect(ask.status).toBe(200);
    for (let i = 0; i < 100 && !mails.some((m) => m.to === 'olvido@example.com'); i++)
      await new Promise((r) => setTimeout(r, 20));
    const link = mails.find((m) => m.to === 'olvido@example.com')!.link;
    const open = await fetch(link, { redirect: 'manual' });
    expect(open.status).toBe(302);
    const token = new URL(open.headers.get('location')!, base).searchParams.get('token')!;
    expect(token.length).toBeGreaterThan(16);

    const rows = await app.store.db.selectFrom('auth_verifications').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.map((r) => r.identifier)).toContain(hashToken(`reset-password:${token}`));

    const reset = await call('/api/auth/reset-password', { json: { newPassword: 'nueva-clave-99', token } });
    expect(reset.status).toBe(200);
    expect(
      (await call('/api/auth/sign-in/email', { json: { email: 'olvido@example.com', password: PASSWORD } }))
        .status,
    ).toBe(401);
    await signIn('olvido@example.com', 'nueva-clave-99');
    // Used once: the link does not reset again.
    expect(
      (await call('/api/auth/reset-password', { json: { newPassword: 'otra-clave-77', token } })).status,
    ).toBe(400);
  });

  it('hashes the sessions and reset tokens an older version stored in clear, and their owners stay signed in', async () => {
    const { id } = await newOwner('antiguo@example.com');
    const raw = 'OldRawSessionTokenOf32Characters';
    await app.store.db
      .insertInto('auth_sessions')
      .values({
        id: crypto.randomUUID(),
        user_id: id,
        token: raw,
        expires_at: new Date(Date.now() + 86_400_000),
        ip_address: '',
        user_agent: '',
      })
      .execute();
    await sql`INSERT INTO auth_verifications (id, identifier, value, expires_at)
      VALUES (${crypto.randomUUID()}, ${'reset-password:OldResetToken123'}, ${id}, ${new Date(Date.now() + 3_600_000)})`.execute(
      app.store.db,
    );
    await hashExistingTokens(app.store.db as never);

    const dump = JSON.stringify([
      await app.store.db.selectFrom('auth_sessions').selectAll().execute(),
      await app.store.db.selectFrom('auth_verifications').selectAll().execute(),
    ]);
    expect(dump).not.toContain(raw);
    expect(dump).not.toContain('OldResetToken123');
    expect(await storedTokens(id)).toEqual([hashToken(raw)]);
    expect(await whoIs({ authorization: `Bearer ${raw}` })).toBe('antiguo@example.com');
    // Rows hashed already (every other owner's) are left as they were.
    const { id: other } = await newOwner('nuevo@example.com');
    const fresh = await createSessionToken(app.auth, other);
    await hashExistingTokens(app.store.db as never);
    expect(await whoIs({ authorization: `Bearer ${fresh}` })).toBe('nuevo@example.com');
    // The old reset link still resets the password.
    const reset = await call('/api/auth/reset-password', {
      json: { newPassword: 'clave-renovada-1', token: 'OldResetToken123' },
    });
    expect(reset.status).toBe(200);
    await signIn('antiguo@example.com', 'clave-renovada-1');
  });
});

describe('mails without SMTP and secrets in logs', () => {
  it('writes the mail to a private outbox file and logs where it is, never its link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'charla-outbox-'));
    try {
      const { log, text } = capturedLogger();
      const mailer = createMailer({
        smtpUrl: undefined,
        from: 'Charla <no-reply@charla.local>',
        outboxDir: join(dir, 'outbox'),
        log,
      });
      const link =
        'https://charla.example/api/auth/reset-password/SecretResetToken42?callbackURL=%2Fupdate-password';
      await mailer.send(renderMail('reset', 'es', 'ana@example.com', link));
      const [file] = readdirSync(join(dir, 'outbox'));
      const path = join(dir, 'outbox', file!);
      expect(readFileSync(path, 'utf8')).toContain('SecretResetToken42');
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'outbox')).mode & 0o777).toBe(0o700);
      const out = text();
      expect(out).toContain(path);
      expect(out).not.toContain('SecretResetToken42');
      expect(out).not.toContain('https://charla.example');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('scrubs credentials out of every logged text: messages, URLs, nested values and errors', () => {
    const { log, text } = capturedLogger();
    log.error(
      {
        url: '/api/auth/reset-password/ResetTok123456?callbackURL=%2F',
        request: {
          path: '/channels/whatsapp?hub.mode=subscribe&hub.verify_token=VerifyTok98765&hub.challenge=1',
        },
        err: new Error('Invalid API Key provided: sk_live_51AbCdEfGhIjKlMnOp'),
        smtpUrl: 'smtp://mailer:SmtpPass123@smtp.example.com:587',
      },
      'request to postgres://charla:DbPass456@db.internal/charla with Authorization: Bearer OwnerTok0123456789 failed; ' +
        'OpenAI key sk-proj-AbCdEfGhIjKlMnOpQrStUv, Stripe whsec_AbCdEfGhIjKlMn, /verify-email?token=eyJhbGciOi.x.y',
    );
    const out = text();
    for (const secret of [
      'ResetTok123456',
      'VerifyTok98765',
      'sk_live_51AbCdEfGhIjKlMnOp',
      'SmtpPass123',
      'DbPass456',
      'OwnerTok0123456789',
      'sk-proj-AbCdEfGhIjKlMnOpQrStUv',
      'whsec_AbCdEfGhIjKlMn',
      'eyJhbGciOi',
    ])
      expect(out, secret).not.toContain(secret);
    // What is not a secret stays readable.
    expect(out).toContain('/api/auth/reset-password/<token>?callbackURL=%2F');
    expect(out).toContain('hub.challenge=1');
    expect(out).toContain('db.internal/charla');
  });
});

describe('the data dir of a real `charla serve`', () => {
  const children: ChildProcess[] = [];
  let dataDir: string;

  beforeAll(async () => {
    await bundleLikeNpmStart();
    // A data dir as an older version left it: open folders (0755) and readable files (0644).
    dataDir = await testDataDir();
    chmodSync(dataDir, 0o755);
    mkdirSync(join(dataDir, 'storage', 'chatbot-files'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dataDir, 'storage', 'chatbot-files', 'old.pdf'), 'old file', { mode: 0o644 });
    mkdirSync(join(dataDir, 'outbox'), { mode: 0o755 });
    writeFileSync(join(dataDir, 'outbox', 'old.eml'), 'old mail', { mode: 0o644 });
    chmodSync(join(dataDir, 'storage'), 0o755);
    chmodSync(join(dataDir, 'storage', 'chatbot-files'), 0o755);
    chmodSync(join(dataDir, 'outbox'), 0o755);
    chmodSync(join(dataDir, 'outbox', 'old.eml'), 0o644);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(
      children
        .filter((c) => c.exitCode === null && c.signalCode === null)
        .map((c) => {
          const exited = new Promise((r) => c.once('exit', r));
          c.kill('SIGKILL');
          return exited;
        }),
    );
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Every entry under `dir` whose mode lets group or others in, with its mode. */
  const openEntries = (dir: string): string[] => {
    const found: string[] = [];
    const walk = (d: string) => {
      const mode = statSync(d).mode & 0o777;
      if (mode !== 0o700) found.push(`${d} ${mode.toString(8)}`);
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.isFile() && (statSync(p).mode & 0o077) !== 0)
          found.push(`${p} ${(statSync(p).mode & 0o777).toString(8)}`);
      }
    };
    walk(dir);
    return found;
  };

  it('is 0700 with 0600 files (an older one tightened at start), logs no mail link, and warns about https without SMTP', async () => {
    expect(openEntries(dataDir).length).toBeGreaterThan(0); // the older version's modes
    const env = charlaEnv({
      CHARLA_DATA_DIR: dataDir,
      PUBLIC_URL: 'https://charla.example',
      LOG_LEVEL: 'info',
    });
    delete env.CHARLA_SECRET; // the secret file is generated in the data dir
    delete env.SMTP_URL;
    const server = await serveCharla(env);
    children.push(server.child);
    expect(server.output()).toMatch(/PUBLIC_URL is https but SMTP_URL is not set/);

    // A sign-up writes the confirmation mail to the outbox.
    const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://charla.example' },
      body: JSON.stringify({ email: 'nueva@example.com', password: 'clave-segura-1', name: 'Nueva' }),
    });
    expect(signUp.status, await signUp.text()).toBe(200);
    let mailFile: string | undefined;
    for (let i = 0; i < 100 && !mailFile; i++) {
      mailFile = readdirSync(join(dataDir, 'outbox')).find((f) => f.includes('nueva@example.com'));
      if (!mailFile) await new Promise((r) => setTimeout(r, 50));
    }
    expect(mailFile).toBeDefined();
    for (let i = 0; i < 50 && !/mail written to the outbox/.test(server.output()); i++)
      await new Promise((r) => setTimeout(r, 50));

    const mail = readFileSync(join(dataDir, 'outbox', mailFile!), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    const link = mail.match(/https:\/\/charla\.example\/api\/auth\/verify-email\?token=[^\s"<&]+/)?.[0];
    expect(link).toBeDefined();
    const token = new URL(link!).searchParams.get('token')!;
    const logLine = server
      .output()
      .split('\n')
      .find((l) => l.includes('mail written to the outbox'));
    expect(logLine).toContain(join(dataDir, 'outbox', mailFile!));
    expect(server.output()).not.toContain(token);
    expect(server.output()).not.toContain('verify-email');

    for (const name of ['secret', 'server.json', join('pgdata', 'charla.lock')])
      expect(statSync(join(dataDir, name)).mode & 0o777, name).toBe(0o600);
    expect(openEntries(dataDir)).toEqual([]);
  }, 120_000);

  it('makes a new data dir 0700 with 0600 files, the embedded database’s own files included', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'charla-fresh-'));
    try {
      const fresh = join(parent, 'data');
      const res = runCharla(['migrate'], charlaEnv({ CHARLA_DATA_DIR: fresh }));
      expect(res.code, res.stderr).toBe(0);
      expect(readdirSync(join(fresh, 'pgdata')).length).toBeGreaterThan(5);
      expect(openEntries(fresh)).toEqual([]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  }, 120_000);
});
