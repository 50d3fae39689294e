/**
 * Issue 27 §3–§4 in Chromium, on a real Charla (PGlite) listening on a port: the owner's voice note
 * reaches a web visitor's open widget as a player whose `/files/…` address answers 200 audio/ogg
 * and plays (its duration is known); the inbox names followers by what the channel knows (a
 * Telegram first name with the @username, "Visitante web 1") and, at 390 px, the floating
 * microphone covers no message time, in the thread or the list; the IALanding shows the owner's
 * reply as a person, never an empty answer, and plays their voice note; axe finds nothing serious. Screenshots at 390 and
 * 1280 px in /work/notes/shots/inbox/ (or test-results/screenshots/inbox/ when that folder is absent).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedSnippet } from '../widget/snippet.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, openLanding, signInAs } from './helpers/chromium.ts';
import { multipart } from './helpers/multipart.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const SHOTS = existsSync('/work/notes/shots')
  ? '/work/notes/shots/inbox'
  : new URL('../test-results/screenshots/inbox/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
const GREETING = readFileSync(new URL('../assets/demo/saludo-el-pato-pepe.ogg', import.meta.url));
const BUSINESS = 'Bar Sol';
const EMAIL = 'voz-inbox@example.com';
const DAY = 86_400_000;

/** Runs a JavaScript expression in the page (the project's tsconfig has no DOM library). */
const inPage = <T = unknown>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;
/** The widget's shadow root, as an expression. */
const ROOT = `document.getElementById('charla-widget').shadowRoot`;

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)(
  'the owner’s voice and names in Chromium',
  () => {
    let app: TestApp;
    let telegram: FakeTelegram;
    let site: Server;
    let siteOrigin: string;
    let base: string;
    let browser: Browser;
    let owner: { id: string; token: string };
    let botId: string;
    let slug: string;

    const call = async (url: string, payload: Record<string, unknown>, method: 'POST' | 'GET' = 'POST') => {
      const res = await (await app.http()).inject({
        method,
        url,
        headers: { authorization: `Bearer ${owner.token}` },
        ...(method === 'POST' ? { payload } : {}),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Record<string, unknown>;
    };
    const sendVoice = async (channel: string, userId: string) => {
      const form = await multipart(
        { channel, userId, preset: 'natural' },
        { field: 'audio', name: 'grabacion.ogg', data: GREETING },
      );
      const res = await (await app.http()).inject({
        method: 'POST',
        url: `/api/conversations/${botId}/voice`,
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': form.contentType },
        payload: form.body,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    /** The browser's visitor id for this bot's key (the widget's and the IALanding's). */
    const visitorOf = (page: Page) =>
      inPage<string>(
        page,
        `localStorage.getItem(Object.keys(localStorage).find((k) => k.endsWith(':visitor')))`,
      );
    /** Waits until an audio element (found by `expression`) knows its duration: the browser decoded it. */
    const playable = async (page: Page, expression: string) => {
      await inPage(page, `(() => { const a = ${expression}; a.preload = 'auto'; a.load(); })()`);
      // Polled from here: the dashboard's Content-Security-Policy refuses waitForFunction's string.
      await expect
        .poll(
          () =>
            inPage<boolean>(
              page,
              `(() => { const a = ${expression}; return a.readyState >= 1 && a.duration > 0; })()`,
            ),
          {
            timeout: 10_000,
          },
        )
        .toBe(true);
      return inPage<string>(page, `${expression}.currentSrc`);
    };
    const fetched = async (src: string) => {
      const res = await fetch(src);
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        head: Buffer.from(await res.arrayBuffer())
          .subarray(0, 4)
          .toString(),
      };
    };

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      const build = (await import(new URL('../scripts/widget.mjs', import.meta.url).href)) as {
        ensureWidget(): Promise<boolean>;
      };
      await build.ensureWidget();
      telegram = await startFakeTelegram();
      app = await createTestApp('pglite', {
        llm: null,
        env: { TELEGRAM_API_ROOT: telegram.apiRoot, TELEGRAM_MODE: 'polling' },
      });
      await app.startChannels();
      const http = await app.http();
      await http.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
      owner = await app.owner(EMAIL);
      const expires = new Date(Date.now() + 30 * DAY);
      await app.store.db
        .insertInto('user_profiles')
        .values({ user_id: owner.id, plan: 'free', expires_at: expires })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: expires }))
        .execute();
      botId = (
        await call('/api/save-chatbot', {
          business_name: BUSINESS,
          idioma: 'Español',
          business_description: 'Bar de tapas en Sevilla. Abrimos de martes a domingo de 12:00 a 24:00.',
        })
      ).id as string;
      const key = (await call('/api/charla-web/key', { chatbotId: botId })).charla_key as string;
      await call('/api/charla-web/toggle', { chatbotId: botId, enabled: true });
      slug = ((await call('/api/charla-web', {}, 'GET')).ialanding as { slug: string }).slug;
      const tg = telegram.addBot('BarSolBot');
      await call('/api/verify-telegram', {
        telegramToken: tg.token,
        telegramUsername: tg.username,
        chatbotId: botId,
      });
      await telegram.sendText(
        tg.token,
        { id: 5151, first_name: 'Lucía', username: 'lucia_m' },
        '¿Tenéis mesa fuera?',
      );
      await telegram.waitFor(() => telegram.callsOf(tg.token, 'sendMessage').length >= 1);
      // More web visitors: a list longer than the phone's screen.
      for (let i = 0; i < 10; i++) {
        const res = await http.inject({
          method: 'POST',
          url: `/api/web/${key}/message`,
          payload: { userMessage: `Hola, soy el visitante ${i}`, visitorId: `visitante-lista-${i}` },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      site = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${BUSINESS}</title></head><body><main><h1>${BUSINESS}</h1></main>${embedSnippet(base, key)}</body></html>`,
        );
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
      browser = await launchChromium();
    }, 90_000);
    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => (site ? site.close(resolve) : resolve(null)));
      await app?.close();
      await telegram?.close();
    });

    it('plays the owner’s voice note in the open widget; the inbox names followers and the microphone covers no time', async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 760 }, locale: 'es-ES' });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${siteOrigin}/`);
      await page.getByRole('button', { name: 'Abrir el chat' }).click();
      const dialog = page.getByRole('dialog', { name: BUSINESS });
      await dialog.waitFor();
      const box = dialog.getByRole('textbox', { name: 'Escribe tu mensaje...' });
      await box.fill('¿Me mandáis un audio con la carta?');
      await box.press('Enter');
      await page.waitForFunction(`${ROOT}.querySelectorAll('.log .row.bot').length >= 1`);
      const visitor = await visitorOf(page);

      await call(`/api/conversations/${botId}/reply`, {
        channel: 'web',
        userId: visitor,
        text: 'Te lo mando ahora mismo.',
      });
      await sendVoice('web', visitor);
      await page.waitForFunction(`${ROOT}.querySelector('.log .row.person audio')`);
      const note = `${ROOT}.querySelector('.log .row.person:last-child audio')`;
      const src = await playable(page, note);
      expect(src).toMatch(/\/files\/.+nota-de-voz\.ogg$/);
      expect(await fetched(src)).toEqual({ status: 200, type: 'audio/ogg', head: 'OggS' });
      expect(
        await inPage<string>(page, `${ROOT}.querySelector('.log .row.person:last-child .by').textContent`),
      ).toBe(`Equipo de ${BUSINESS}`);
      // No bare 🎤 and no empty bubble.
      const texts = await inPage<string[]>(
        page,
        `[...${ROOT}.querySelectorAll('.log .msg')].map((m) => m.textContent.trim())`,
      );
      expect(texts).not.toContain('');
      expect(texts.join(' ')).not.toContain('🎤');
      await page.screenshot({ path: join(SHOTS, 'widget-voice-390.png') });

      // The inbox on the phone.
      await signInAs(page, base, EMAIL);
      await page.goto(`${base}/usuarios-conversaciones`);
      const lucia = page.getByRole('button', { name: /Lucía/ });
      await lucia.waitFor();
      await expect.poll(() => lucia.textContent()).toContain('@lucia_m');
      const web = page.getByRole('button', { name: /Visitante web 11\b/ });
      await web.waitFor();
      await page.screenshot({ path: join(SHOTS, 'inbox-list-390.png') });
      const mic = page.getByRole('button', { name: 'Grabar una nota de voz' });
      await mic.waitFor();
      /**
       * The times (a bubble's, a list row's) the floating microphone covers: where it overlaps one,
       * the microphone is hidden for a moment and the page asked what shows there; a time covered by
       * something else already (the sticky reply box) does not count.
       */
      const noTimeUnderMic = async () => {
        const covered = await inPage<string[]>(
          page,
          `(() => {
          const mic = document.querySelector('button[aria-label="Grabar una nota de voz"]');
          const m = mic.getBoundingClientRect();
          const holder = mic.parentElement;
          holder.style.visibility = 'hidden';
          const covered = [];
          for (const el of document.querySelectorAll('[data-testid=bubble-time],[data-testid=follower-time]')) {
            const r = el.getBoundingClientRect();
            const x1 = Math.max(r.left, m.left), x2 = Math.min(r.right, m.right);
            const y1 = Math.max(r.top, m.top), y2 = Math.min(r.bottom, m.bottom);
            if (x2 <= x1 || y2 <= y1) continue;
            const points = [[(x1 + x2) / 2, (y1 + y2) / 2], [x1 + 1, y1 + 1], [x2 - 1, y2 - 1], [x1 + 1, y2 - 1], [x2 - 1, y1 + 1]];
            if (points.some(([x, y]) => { const top = document.elementFromPoint(x, y); return top && el.contains(top); }))
              covered.push(el.textContent);
          }
          holder.style.visibility = '';
          return covered;
        })()`,
        );
        expect(covered, 'times under the microphone').toEqual([]);
      };
      /** Every page position (60 px steps) with the list scrolled to its top, middle and end. */
      const everywhere = async () => {
        const height = await inPage<number>(page, 'document.documentElement.scrollHeight - innerHeight');
        for (let y = 0; y <= height + 60; y += 60) {
          await page.evaluate(`window.scrollTo(0, ${y})`);
          for (const at of ['0', 'el.scrollHeight / 2', 'el.scrollHeight'])
            await inPage(
              page,
              `(() => { const el = document.querySelector('main ul'); if (el) el.scrollTop = ${at}; })()`,
            );
          await noTimeUnderMic();
        }
      };
      await everywhere();
      await web.click();
      const log = page.getByRole('log', { name: 'Conversación' });
      await log.getByText('Te lo mando ahora mismo.').waitFor();
      await playable(page, `[...document.querySelectorAll('[role=log] audio')].at(-1)`);
      // The thread scrolled to its end at every page position, then with the list shown above it.
      const height = await inPage<number>(page, 'document.documentElement.scrollHeight - innerHeight');
      for (let y = 0; y <= height + 60; y += 60) {
        await page.evaluate(`window.scrollTo(0, ${y})`);
        await log.evaluate('(el) => { el.scrollTop = el.scrollHeight; }');
        await noTimeUnderMic();
      }
      await page.getByRole('button', { name: 'Ver seguidores' }).click();
      await everywhere();
      await page.getByRole('button', { name: 'Ocultar lista' }).click();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      const showThread = async () => {
        await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
        await log.evaluate('(el) => { el.scrollTop = el.scrollHeight; }');
      };
      await showThread();
      await page.screenshot({ path: join(SHOTS, 'inbox-thread-390.png') });
      expect(await seriousViolations(page)).toEqual([]);

      await page.setViewportSize({ width: 1280, height: 860 });
      await log.getByText('Te lo mando ahora mismo.').waitFor();
      await showThread();
      await noTimeUnderMic();
      await page.screenshot({ path: join(SHOTS, 'inbox-thread-1280.png') });
      await context.close();
    }, 90_000);

    it('shows the owner as a person on the IALanding, never an empty answer, and plays their voice note', async () => {
      for (const width of [390, 1280]) {
        const context = await browser.newContext({ viewport: { width, height: 800 }, locale: 'es-ES' });
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        await openLanding(page, `${base}/ialanding/${slug}`);
        const ask = async (text: string) => {
          const input = page.getByRole('textbox').last();
          await input.fill(text);
          await input.press('Enter');
          await page.locator('[data-testid="ialanding-content"]:not([data-type="pending"])').waitFor();
        };
        const content = page.getByTestId('ialanding-content');
        await ask('¿Abrís el lunes?');
        const visitor = await visitorOf(page);

        await call(`/api/conversations/${botId}/reply`, {
          channel: 'ialanding',
          userId: visitor,
          text: 'Los lunes cerramos, ¡te esperamos el martes!',
        });
        await content.getByText('Los lunes cerramos, ¡te esperamos el martes!').waitFor();
        await content.getByText(`Equipo de ${BUSINESS}`).waitFor();
        expect(await content.getAttribute('data-from')).toBe('person'); // amber, as the widget's person bubble
        await page.getByText('Te atiende una persona').first().waitFor();
        await page.screenshot({ path: join(SHOTS, `ialanding-owner-${width}.png`) });

        // Paused: the visitor's next question gets the note, never an empty answer.
        await ask('¿Y el martes a qué hora?');
        await content.getByText('Te responderá una persona en cuanto pueda.').waitFor();
        expect(await content.getByTestId('ialanding-content-title').textContent()).toBe(
          'Te atiende una persona',
        );
        expect(await content.getAttribute('data-from')).toBe('person');
        await ask('Gracias');
        expect(await content.innerText()).toContain('Te responderá una persona');
        await page.screenshot({ path: join(SHOTS, `ialanding-note-${width}.png`) });

        await sendVoice('ialanding', visitor);
        await content.locator('audio').waitFor();
        await content.getByText(`Equipo de ${BUSINESS}`).waitFor();
        expect(await content.getAttribute('data-from')).toBe('person');
        const src = await playable(page, `document.querySelector('[data-testid=ialanding-content] audio')`);
        expect(await fetched(src)).toEqual({ status: 200, type: 'audio/ogg', head: 'OggS' });
        await page.screenshot({ path: join(SHOTS, `ialanding-voice-${width}.png`) });
        expect(await seriousViolations(page)).toEqual([]);
        await context.close();
      }
    }, 90_000);
  },
);
