/**
 * The owner's live screens come back by themselves (issue 24 §1), in Chromium on the built
 * dashboard: the files of /configure and the followers of /usuarios-conversaciones, each kept fresh
 * by an event stream. Charla "A" (the one the browser talks to) reaches PostgreSQL through a TCP proxy
 * the test can cut; Charla "B" shares the same database directly, as a second process would, and
 * makes the changes the owner must see.
 *
 * - The server loses its database: while A is cut off, B stores a file and a follower's message, so
 *   A's LISTEN connection misses both notifications. Once the network is back A says `resync`, and
 *   both screens show the changes without a page reload.
 * - The browser's own stream drops (every connection to A is closed): the page opens a new stream
 *   and reloads, so what B stored while it was away is shown, again without a reload.
 *
 * PostgreSQL and Chromium with the built dashboard only.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_EMAIL, seedDemo } from '../cli/seed.ts';
import { createLogger } from '../engine/logger.ts';
import { openStore, type Store } from '../engine/store/connect.ts';
import { migrateToLatest } from '../engine/store/migrate.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { CHROMIUM_PATH, launchChromium, signInAs } from './helpers/chromium.ts';
import { multipart } from './helpers/multipart.ts';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.ts';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
const PDF = readFileSync(new URL('../assets/demo/carta-el-pato-pepe.pdf', import.meta.url));

describe.skipIf(!DATABASE_URL || !existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)(
  'live screens after a lost connection, in Chromium',
  () => {
    const url = DATABASE_URL!;
    const schema = `${inject('pgSchemaPrefix')}lr_${randomBytes(4).toString('hex')}`;
    let proxy: TcpProxy;
    let storeA: Store;
    let storeB: Store;
    let appA: TestApp;
    let appB: TestApp;
    let base: string;
    let browser: Browser;
    let context: BrowserContext;
    let files: Page;
    let followers: Page;
    let token: string;
    let botId: string;

    /** B (another process on the same database) stores a file for the demo bot. */
    const uploadOnB = async (name: string) => {
      const { body, contentType } = await multipart({ chatbotId: botId }, { field: 'file', name, data: PDF });
      const res = await (await appB.http()).inject({
        method: 'POST',
        url: '/api/chatbot-files',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    /** A web follower writes to the bot through B. */
    const followerOnB = async (username: string) => {
      const res = await (await appB.http()).inject({
        method: 'POST',
        url: `/api/chatbot-message/${botId}`,
        payload: { userMessage: '¿Abrís hoy?', visitorId: username, username, channel: 'web' },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    /** Marks both pages, so a reload (which would lose the mark) is seen. */
    const mark = () =>
      Promise.all([files, followers].map((p) => p.evaluate(() => Object.assign(globalThis, { kept: 1 }))));
    const notReloaded = async () => {
      for (const p of [files, followers])
        expect(await p.evaluate(() => (globalThis as { kept?: number }).kept)).toBe(1);
    };

    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      const target = new URL(url);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const viaProxy = new URL(url);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      const log = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
      storeA = await openStore({ databaseUrl: viaProxy.toString(), schema, poolSize: 5, log });
      await migrateToLatest(storeA.db, undefined, schema);
      storeB = await openStore({ databaseUrl: url, schema, poolSize: 5, log });
      appA = await createTestApp('postgres', {
        store: storeA,
        llm: null,
        env: { CHARLA_RATE_LIMITS: 'off' },
      });
      appB = await createTestApp('postgres', {
        store: storeB,
        llm: null,
        env: { CHARLA_RATE_LIMITS: 'off' },
      });
      const http = await appA.http();
      await http.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
      botId = (await seedDemo(appA)).bot.id;
      token = (await appA.owner(DEMO_EMAIL)).token;
      browser = await launchChromium();
      context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'es-ES' });
      files = await context.newPage();
      files.setDefaultTimeout(20_000);
      await signInAs(files, base, DEMO_EMAIL);
      const filesStream = files.waitForResponse((r) => r.url().includes('/api/chatbot-files/events'));
      await files.goto(`${base}/configure`);
      await files.getByText('carta-el-pato-pepe.pdf').first().waitFor();
      followers = await context.newPage();
      followers.setDefaultTimeout(20_000);
      const followersStream = followers.waitForResponse((r) =>
        r.url().includes(`/api/conversations/${botId}/events`),
      );
      await followers.goto(`${base}/usuarios-conversaciones`);
      await followers.getByText('Aún no te ha escrito ningún seguidor.').waitFor();
      await Promise.all([filesStream, followersStream]);
      await new Promise((r) => setTimeout(r, 500)); // the streams' `ready`: listening
      // A change from B shows at once.
      await uploadOnB('primero.pdf');
      await files.getByText('primero.pdf').first().waitFor();
    }, 120_000);

    afterAll(async () => {
      await context?.close();
      await browser?.close();
      await appA?.close();
      await appB?.close();
      await storeA?.close();
      await storeB?.close();
      await proxy?.close();
    });

    it('shows what changed while the server had lost its database, without a reload', async () => {
      await mark();
      proxy.cut('refuse');
      await new Promise((r) => setTimeout(r, 500)); // A's LISTEN connection is gone
      await uploadOnB('durante-el-corte.pdf');
      await followerOnB('ana_web');
      await new Promise((r) => setTimeout(r, 1_000));
      proxy.restore();
      await files.getByText('durante-el-corte.pdf').first().waitFor();
      await followers.getByRole('button', { name: /ana_web/ }).waitFor();
      await notReloaded();
    }, 120_000);

    it('opens a new stream when the browser’s drops, and shows what changed meanwhile, without a reload', async () => {
      await mark();
      // Every connection to A ends, the two event streams with them.
      (await appA.http()).server.closeAllConnections();
      await uploadOnB('tras-la-caida.pdf');
      await followerOnB('luis_web');
      await files.getByText('tras-la-caida.pdf').first().waitFor();
      await followers.getByRole('button', { name: /luis_web/ }).waitFor();
      await notReloaded();
      // And the new streams are live: the next change shows at once.
      await uploadOnB('ultimo.pdf');
      await files.getByText('ultimo.pdf').first().waitFor({ timeout: 5_000 });
    }, 120_000);
  },
);
