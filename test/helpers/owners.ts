/**
 * Owners and bots for channel tests, created through the HTTP routes as the dashboard does: an
 * owner with days left, a saved bot, files with keywords.
 */
import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import { multipart } from './multipart.ts';

/** A test app with its HTTP server's `inject` at hand. */
export type App = TestApp & { inject: Awaited<ReturnType<TestApp['http']>>['inject'] };

/** Attaches `inject` of the app's HTTP server to the app (for brevity). */
export async function withInject(app: TestApp): Promise<App> {
  const http = await app.http();
  return Object.assign(app, { inject: http.inject.bind(http) });
}

const DAY = 86_400_000;

/** Sets an owner's expiry `days` from now (negative: in the past). */
export async function setDays(app: TestApp, userId: string, days: number): Promise<void> {
  const expires = new Date(Date.now() + days * DAY);
  await app.store.db
    .insertInto('user_profiles')
    .values({ user_id: userId, plan: 'free', expires_at: expires })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: expires }))
    .execute();
}

/** Creates an owner with days left and a saved bot; returns the owner's token and the bot id. */
export async function ownerWithBot(app: App, email: string, bot: Record<string, unknown>, days = 30) {
  const owner = await app.owner(email);
  await setDays(app, owner.id, days);
  const saved = await app.inject({
    method: 'POST',
    url: '/api/save-chatbot',
    headers: { authorization: `Bearer ${owner.token}` },
    payload: { business_description: 'Restaurante de cocina casera.', ...bot },
  });
  expect(saved.statusCode).toBe(200);
  return { ...owner, botId: (saved.json() as { id: string }).id };
}

/** Uploads a file to a bot and gives it keywords; returns the stored file. */
export async function uploadFile(
  app: App,
  auth: string,
  botId: string,
  name: string,
  data: Buffer,
  keyword: string,
): Promise<{ id: string; file_name: string }> {
  const headers = { authorization: `Bearer ${auth}` };
  const { body, contentType } = await multipart({ chatbotId: botId }, { field: 'file', name, data });
  const res = await app.inject({
    method: 'POST',
    url: '/api/chatbot-files',
    headers: { ...headers, 'content-type': contentType },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  const file = res.json() as { id: string; file_name: string };
  const patch = await app.inject({
    method: 'PATCH',
    url: `/api/chatbot-files/${file.id}`,
    headers,
    payload: { keyword, context: `Archivo ${name}` },
  });
  expect(patch.statusCode).toBe(200);
  return file;
}

type Falsy = false | null | undefined | '' | 0;

/** Polls `check` until it returns a truthy value (or throws after `timeoutMs`). */
export async function until<T>(
  check: () => T,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<Exclude<Awaited<T>, Falsy>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Exclude<Awaited<T>, Falsy>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Switches a bot's web service on as its owner does on /charla-web (spec 001 §7), so followers may
 * chat with it by bot id or web key (issue 24 §2: a follower's turn needs it on).
 */
export async function enableWeb(inject: App['inject'], token: string, chatbotId: string): Promise<void> {
  const res = await inject({
    method: 'POST',
    url: '/api/charla-web/toggle',
    headers: { authorization: `Bearer ${token}` },
    payload: { chatbotId, enabled: true },
  });
  expect(res.statusCode, res.body).toBe(200);
}
