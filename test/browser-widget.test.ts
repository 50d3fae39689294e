/**
 * The embeddable web widget in Chromium (issue 6), against the real app: a business's website on a
 * second origin pastes the snippet of widget/snippet.ts; the snippet waits for the body, mounts the
 * container and loads /widget.js from the app. The loader shows only the floating button (the chat
 * UI chunk is fetched on the first open); a visitor asks "¿tenéis la carta?" and gets the PDF; a
 * LIST offer shows buttons and the offered list goes back with the next message; an owner's reply
 * shows in the open window within a second (its live stream); the window stays
 * open after a reply, also on wide screens (issue 10); the input stops at 8000 characters with a
 * counter; sizes follow spec 001 §9 at 1280, 800, 600 and 375 px; a page
 * with hostile CSS (every element unset, huge fonts, a transformed, blurred, half-transparent body)
 * does not change the widget by a pixel; switching the web service off makes the widget say
 * so; a network failure shows the error text; the snippet retries a failed widget.js every 2 s.
 * Screenshots go to test-results/screenshots/widget-*.png.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedSnippet } from '../widget/snippet.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium } from './helpers/chromium.ts';
import { multipart } from './helpers/multipart.ts';

/** Runs a JavaScript expression in the page (the project's tsconfig has no DOM library). */
const inPage = <T = unknown>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;
/** An expression for an element inside the widget's shadow root. */
const shadow = (selector: string) =>
  `document.getElementById('charla-widget').shadowRoot.querySelector(${JSON.stringify(selector)})`;

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const asset = (name: string) => readFileSync(new URL(`../assets/demo/${name}`, import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DAY = 86_400_000;
const BUSINESS = 'El Pato Pepe';

interface WidgetBuild {
  ensureWidget(): Promise<boolean>;
}

/** What the tests read of an element's box and look. */
interface Look {
  x: number;
  y: number;
  width: number;
  height: number;
  font: string;
  color: string;
  background: string;
  padding: string;
}

/** The hostile page's CSS: everything a careless theme could do, all !important. */
const HOSTILE_CSS = `
  * { all: unset !important; }
  head { display: none !important; }
  html { font-size: 48px !important; }
  html, body, div, section, header, main, p, h1, h2, a, span, button, textarea, form, img, i, svg {
    font: italic 900 44px/3 "Comic Sans MS", cursive !important;
    color: #f0f !important; background: #ff0 !important;
    letter-spacing: 6px !important; text-transform: uppercase !important;
    padding: 25px !important; margin: 17px !important; border: 9px dashed red !important;
    box-sizing: content-box !important; display: block !important; width: auto !important;
    height: auto !important; min-width: 300px !important; position: static !important;
    opacity: 0.5 !important; visibility: visible !important; z-index: 0 !important;
  }
  #charla-widget, [data-charla-key], div[id] {
    display: none !important; position: absolute !important; width: 10px !important;
    overflow: hidden !important; font-size: 80px !important; transform: scale(3) !important;
  }
  body { transform: translate(13px, 7px) rotate(1deg) !important; filter: blur(1px) hue-rotate(90deg) !important; }
  button { min-width: 500px !important; border-radius: 0 !important; }
  svg { width: 300px !important; height: 300px !important; }
`;

describe.skipIf(!existsSync(CHROMIUM_PATH))('web widget in Chromium', () => {
  let app: TestApp;
  let appOrigin: string;
  let site: Server;
  let siteOrigin: string;
  let browser: Browser;
  let owner: { id: string; token: string };
  let botId: string;
  let key: string;

  const inject = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    (await app.http()).inject({
      method,
      url,
      headers: { authorization: `Bearer ${owner.token}` },
      ...(payload ? { payload } : {}),
    });
  const upload = async (name: string, keyword: string) => {
    const form = await multipart(
      { chatbotId: botId, keyword, context: '' },
      { field: 'file', name, data: asset(name) },
    );
    const res = await (await app.http()).inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': form.contentType },
      payload: form.body,
    });
    expect(res.statusCode).toBe(201);
  };
  const setWeb = async (enabled: boolean) =>
    expect((await inject('POST', '/api/charla-web/toggle', { chatbotId: botId, enabled })).statusCode).toBe(
      200,
    );

  /** The business's website: a few pages carrying the snippet, on another origin than the app. */
  const sitePage = (path: string): string | null => {
    const snippet = embedSnippet(appOrigin, path === '/unknown' ? 'no-such-key' : key);
    const head = (extra = '') =>
      `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Restaurante ${BUSINESS}</title>${extra}`;
    const main = `<main><h1>Restaurante ${BUSINESS}</h1><p>Cocina casera en el centro. Pregúntanos por la carta.</p><p><a href="/reservas">Reservas</a></p></main>`;
    switch (path) {
      // The snippet in <head>: it runs before the body exists and polls for it.
      case '/':
      case '/unknown':
        return `${head(snippet)}</head><body>${main}</body></html>`;
      case '/reservas':
        return `${head()}</head><body><main><h1>Reservas</h1><p>Llámanos.</p></main>${snippet}</body></html>`;
      case '/hostile':
        return `${head(`<style>${HOSTILE_CSS}</style>${snippet}`)}</head><body>${main}</body></html>`;
      default:
        return null;
    }
  };

  /** A fresh visitor (nothing stored) with a page on the site; records the requests it makes. */
  const visitor = async (width = 1280, height = 800) => {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const requests: Request[] = [];
    context.on('request', (r) => requests.push(r));
    return { context, page, requests };
  };
  const launcher = (page: Page) => page.getByRole('button', { name: 'Abrir el chat' });
  const dialog = (page: Page) => page.getByRole('dialog', { name: BUSINESS });
  const input = (page: Page) => dialog(page).getByRole('textbox', { name: 'Escribe tu mensaje...' });
  const open = async (page: Page) => {
    await launcher(page).click();
    await dialog(page).waitFor();
    // The window slides in (0.18 s) and focuses the input after 300 ms.
    await sleep(450);
  };
  const chatChunkRequests = (requests: Request[]) =>
    requests.filter((r) => /\/widget\/chat-[\w-]+\.js/.test(r.url()));
  const messageBodies = (requests: Request[]) =>
    requests
      .filter((r) => r.url().endsWith(`/api/web/${key}/message`) && r.method() === 'POST')
      .map((r) => r.postDataJSON() as Record<string, unknown>);
  /** Box and look of an element of the widget (null when absent). */
  const look = (page: Page, selector: string) =>
    inPage<Look | null>(
      page,
      `(() => { const e = ${shadow(selector)}; if (!e) return null; const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
        return { x: r.x, y: r.y, width: r.width, height: r.height, font: s.font, color: s.color, background: s.backgroundColor, padding: s.padding }; })()`,
    );

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const build = (await import(new URL('../scripts/widget.mjs', import.meta.url).href)) as WidgetBuild;
    await build.ensureWidget();
    app = await createTestApp('pglite');
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    appOrigin = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;

    owner = await app.owner('pato@example.com');
    const expires = new Date(Date.now() + 30 * DAY);
    await app.store.db
      .insertInto('user_profiles')
      .values({ user_id: owner.id, plan: 'free', expires_at: expires })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: expires }))
      .execute();
    const saved = await inject('POST', '/api/save-chatbot', {
      business_name: BUSINESS,
      idioma: 'Español',
      business_description: 'Restaurante de cocina casera en el centro.',
    });
    expect(saved.statusCode).toBe(200);
    botId = (saved.json() as { id: string }).id;
    await upload('carta-el-pato-pepe.pdf', 'carta,menu');
    await upload('local-el-pato-pepe.jpg', 'menu,local');
    const generated = await inject('POST', '/api/charla-web/key', { chatbotId: botId });
    key = (generated.json() as { charla_key: string }).charla_key;
    await setWeb(true);

    site = createServer((req, res) => {
      const page = sitePage((req.url ?? '/').split('?')[0]!);
      res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page ?? 'not found');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    // "localhost" and 127.0.0.1 on different ports: another origin and another site name.
    siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (site ? site.close(resolve) : resolve(null)));
    await app?.close();
  });

  it('mounts from the snippet with only the button, and loads the chat UI when opened', async () => {
    const { context, page, requests } = await visitor();
    await page.goto(`${siteOrigin}/`);
    await launcher(page).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await inPage(page, `document.getElementById('charla-widget').dataset.charlaKey`)).toBe(key);
    // Before opening: widget.js and the config, not the chat UI.
    const loader = requests.find((r) => r.url() === `${appOrigin}/widget.js`);
    expect(loader).toBeDefined();
    expect(requests.some((r) => r.url() === `${appOrigin}/api/web/${key}/config`)).toBe(true);
    expect(chatChunkRequests(requests)).toEqual([]);
    expect(await dialog(page).count()).toBe(0);
    const loaderBytes = (await (await loader!.response())!.body()).length;
    const loaderGzip = gzipSync(await (await loader!.response())!.body(), { level: 9 }).length;
    expect(loaderGzip).toBeLessThanOrEqual(8 * 1024);
    expect(await look(page, '.launch')).toMatchObject({
      width: 60,
      height: 60,
      x: 1280 - 20 - 60,
      y: 800 - 20 - 60,
    });
    await page.screenshot({ path: join(SHOTS, 'widget-closed.png') });

    await open(page);
    const chunks = chatChunkRequests(requests);
    expect(chunks).toHaveLength(1);
    const chatGzip = gzipSync(await (await chunks[0]!.response())!.body(), { level: 9 }).length;
    expect(chatGzip).toBeLessThanOrEqual(50 * 1024);
    console.log(`widget: loader ${loaderBytes} B (${loaderGzip} B gzip), chat UI ${chatGzip} B gzip`);

    // Spec 001 §2: the header, the greeting first, the input; focus in the input after 300 ms.
    await dialog(page).getByRole('heading', { name: BUSINESS }).waitFor();
    await dialog(page).getByText('Asistente IA', { exact: true }).waitFor();
    await dialog(page).getByText(`¡Hola! Soy el asistente de ${BUSINESS}. ¿En qué puedo ayudarte?`).waitFor();
    expect(await input(page).getAttribute('placeholder')).toBe('Escribe tu mensaje...');
    expect(
      await inPage(page, `document.getElementById('charla-widget').shadowRoot.activeElement?.className`),
    ).toBe('input');
    expect(await launcher(page).isHidden()).toBe(true);
    // 450x700 on a 1280x800 screen.
    expect(await look(page, '.win')).toMatchObject({ width: 450, height: 700 });

    // Escape closes and gives the focus back to the button; opening again does not reload anything.
    await page.keyboard.press('Escape');
    await launcher(page).waitFor();
    expect(await dialog(page).isHidden()).toBe(true);
    expect(
      await inPage(page, `document.getElementById('charla-widget').shadowRoot.activeElement?.className`),
    ).toBe('launch');
    await open(page);
    expect(chatChunkRequests(requests)).toHaveLength(1);
    await context.close();
  });

  it('answers "¿tenéis la carta?" with the PDF, streaming, and stays open after the reply at 1280 px', async () => {
    const { context, page, requests } = await visitor();
    await page.goto(`${siteOrigin}/`);
    await open(page);
    const box = input(page);

    // Empty messages are ignored; Shift+Enter makes a new line.
    await box.fill('   ');
    await box.press('Enter');
    expect(messageBodies(requests)).toEqual([]);
    expect(await dialog(page).getByRole('button', { name: 'Enviar' }).isDisabled()).toBe(true);
    await box.fill('');
    await box.pressSequentially('una');
    await box.press('Shift+Enter');
    await box.pressSequentially('dos');
    expect(await box.inputValue()).toBe('una\ndos');
    await box.fill('');

    // Slow the answer down to see the pending state: input disabled, "Escribiendo...".
    await page.route(`${appOrigin}/api/web/*/message`, async (route) => {
      await sleep(700);
      await route.continue();
    });
    await box.fill('¿tenéis la carta?');
    await box.press('Enter');
    await dialog(page).getByRole('status').getByText('Escribiendo...').waitFor();
    expect(await box.isDisabled()).toBe(true);
    expect(await box.inputValue()).toBe('¿tenéis la carta?');
    const pdf = dialog(page).getByRole('link', { name: /carta-el-pato-pepe\.pdf/ });
    await pdf.waitFor();
    // The reply came as a stream of events, and the input is free and empty again.
    const [sent] = messageBodies(requests);
    expect(sent).toMatchObject({ userMessage: '¿tenéis la carta?' });
    expect(sent!.messageHistory).toBeUndefined();
    const stored = await inPage<string>(page, `localStorage.getItem('charla:${key}:visitor')`);
    expect(sent!.visitorId).toBe(stored);
    const answer = requests.find((r) => r.url().endsWith('/message'))!;
    expect((await answer.response())!.headers()['content-type']).toContain('text/event-stream');
    expect(await box.isDisabled()).toBe(false);
    expect(await box.inputValue()).toBe('');
    // The PDF link points at the app, not at the site, and opens in a new tab.
    const href = (await pdf.getAttribute('href'))!;
    expect(href.startsWith(`${appOrigin}/files/`)).toBe(true);
    expect(await pdf.getAttribute('target')).toBe('_blank');
    expect((await context.request.get(href)).headers()['content-type']).toBe('application/pdf');

    // 1280 px wide: the window stays open until the visitor closes it (issue 10; spec 001 §4's
    // close after 1 s is the IALanding's chat bar). Still open, reply in view, 5 s later.
    // Meanwhile the owner answers from the dashboard: it shows in the open window on its live stream
    // (issue 26 §2), not after the 15 s poll.
    const waitFrom = Date.now();
    const owners = await inject('POST', `/api/conversations/${botId}/reply`, {
      channel: 'web',
      userId: stored,
      text: 'Soy Pepe, el dueño: ¿os guardo mesa?',
    });
    expect(owners.statusCode, owners.body).toBe(200);
    await dialog(page).getByText('Soy Pepe, el dueño: ¿os guardo mesa?').waitFor({ timeout: 3000 });
    expect(Date.now() - waitFrom).toBeLessThan(2000);
    await sleep(5000 - (Date.now() - waitFrom));
    expect(await dialog(page).isVisible()).toBe(true);
    expect(await pdf.isVisible()).toBe(true);
    expect(await launcher(page).isVisible()).toBe(false);
    await page.screenshot({ path: join(SHOTS, 'widget-open.png') });

    // The input stops at the server's 8000 characters, with a counter from 6400 on, red at 8000.
    const counter = dialog(page).getByText(/^\d+\/8000$/);
    await box.fill('a'.repeat(6000));
    expect(await counter.isVisible()).toBe(false);
    await box.fill('a'.repeat(7000));
    expect(await counter.textContent()).toBe('7000/8000');
    await box.fill('');
    await box.focus();
    await page.keyboard.insertText('b'.repeat(8500));
    expect((await box.inputValue()).length).toBe(8000);
    expect(await counter.textContent()).toBe('8000/8000');
    expect(await inPage(page, `getComputedStyle(${shadow('.count')}).color`)).toBe('rgb(185, 28, 28)');
    await page.screenshot({ path: join(SHOTS, 'widget-limit.png') });
    await box.fill('');
    expect(await counter.isVisible()).toBe(false);

    // The same visitor on another page of the site: the same id, and this tab's conversation kept.
    await page.unroute(`${appOrigin}/api/web/*/message`);
    await page.goto(`${siteOrigin}/reservas`);
    await open(page);
    await pdf.waitFor();
    expect(await dialog(page).getByText('¿tenéis la carta?').count()).toBe(1);
    // The owner's message was kept too, and the stream of this page does not bring it again.
    await sleep(300);
    expect(await dialog(page).getByText('Soy Pepe, el dueño: ¿os guardo mesa?').count()).toBe(1);
    expect(await inPage<string>(page, `localStorage.getItem('charla:${key}:visitor')`)).toBe(stored);
    await context.close();
  });

  it('offers a LIST as buttons and sends the offered list back with the chosen file (760 px: 400x650)', async () => {
    // 760 px: the 641-1024 px size, and not wide enough for the window to close after a reply.
    const { context, page, requests } = await visitor(760, 900);
    await page.goto(`${siteOrigin}/`);
    await open(page);
    expect(await look(page, '.win')).toMatchObject({ width: 400, height: 650 });
    await input(page).fill('¿Qué hay en el menu?');
    await input(page).press('Enter');
    const choices = dialog(page).getByRole('group');
    await choices.getByRole('button', { name: 'carta-el-pato-pepe.pdf' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'widget-list-offer.png') });
    await choices.getByRole('button', { name: 'local-el-pato-pepe.jpg' }).click();
    const image = dialog(page).getByRole('img', { name: 'local-el-pato-pepe.jpg' });
    await image.waitFor();
    // Once the picture has loaded, the list is scrolled to its end.
    await page.waitForFunction(`${shadow('.file-img')}.complete`);
    await sleep(100);
    expect(
      await inPage(
        page,
        `(() => { const l = ${shadow('.log')}; return l.scrollHeight - l.scrollTop - l.clientHeight; })()`,
      ),
    ).toBeLessThan(2);
    const bodies = messageBodies(requests);
    expect(bodies[1]).toMatchObject({ userMessage: 'local-el-pato-pepe.jpg' });
    expect((bodies[1]!.archivosMostrados as { file_name: string }[]).map((f) => f.file_name).sort()).toEqual([
      'carta-el-pato-pepe.pdf',
      'local-el-pato-pepe.jpg',
    ]);
    await page.screenshot({ path: join(SHOTS, 'widget-list.png') });
    // The offer is gone once answered, and the window stays open.
    expect(await dialog(page).getByRole('group').count()).toBe(0);
    await sleep(1300);
    expect(await dialog(page).isVisible()).toBe(true);
    await context.close();
  });

  it('looks the same on a page with hostile CSS', async () => {
    const measure = async (path: string) => {
      const { context, page } = await visitor();
      await page.goto(`${siteOrigin}${path}`);
      await launcher(page).waitFor();
      await page.waitForLoadState('networkidle');
      const closed = {
        launch: await look(page, '.launch'),
        shot: await page.screenshot({ clip: { x: 1280 - 20 - 48, y: 800 - 20 - 48, width: 36, height: 36 } }),
      };
      await open(page);
      const opened: Record<string, Look | null> = {};
      for (const selector of ['.win', '.head', '.name', '.sub', '.log', '.msg', '.input', '.send', '.close'])
        opened[selector] = await look(page, selector);
      const win = opened['.win']!;
      // Inside the rounded corners and the shadow: only the widget's own pixels.
      const shot = await page.screenshot({
        clip: { x: win.x + 16, y: win.y + 16, width: win.width - 32, height: win.height - 32 },
      });
      await page.screenshot({ path: join(SHOTS, `widget${path === '/' ? '-plain' : '-hostile'}.png`) });
      await context.close();
      return { closed, opened, shot };
    };
    const plain = await measure('/');
    const hostile = await measure('/hostile');
    expect(hostile.closed.launch).toEqual(plain.closed.launch);
    expect(hostile.opened).toEqual(plain.opened);
    expect(hostile.closed.shot.equals(plain.closed.shot)).toBe(true);
    expect(hostile.shot.equals(plain.shot)).toBe(true);
  });

  it('fits small screens: 80vh up to 640 px, 85vh up to 480 px (screenshot at 375 px)', async () => {
    const { context, page } = await visitor(600, 800);
    await page.goto(`${siteOrigin}/`);
    await open(page);
    expect(await look(page, '.win')).toMatchObject({ width: 600 - 24, height: 640 });
    await page.setViewportSize({ width: 375, height: 812 });
    await input(page).fill('¿tenéis la carta?');
    await input(page).press('Enter');
    await dialog(page)
      .getByRole('link', { name: /carta-el-pato-pepe\.pdf/ })
      .waitFor();
    // A phone: the window stays open after the reply too.
    await sleep(1300);
    expect(await dialog(page).isVisible()).toBe(true);
    const win = (await look(page, '.win'))!;
    expect(win.width).toBe(375 - 16);
    expect(win.height).toBeCloseTo(812 * 0.85, 0);
    expect(win.x).toBeGreaterThanOrEqual(0);
    expect(await inPage(page, 'document.documentElement.scrollWidth')).toBe(375);
    await page.screenshot({ path: join(SHOTS, 'widget-375.png') });
    // At most 95vh on a short screen.
    await page.setViewportSize({ width: 1280, height: 600 });
    expect((await look(page, '.win'))!.height).toBe(570);
    await context.close();
  });

  it('has no serious or critical axe violation on the host page with the widget open', async () => {
    // 760 px wide, so the window stays open after the reply.
    const { context, page } = await visitor(760, 900);
    await page.goto(`${siteOrigin}/`);
    await open(page);
    await input(page).fill('¿tenéis la carta?');
    await input(page).press('Enter');
    await dialog(page)
      .getByRole('link', { name: /carta-el-pato-pepe\.pdf/ })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // axe-core reads open shadow roots: it checked the widget's own controls (targets through the host).
    const results = await new AxeBuilder({ page }).analyze();
    const checked = (rule: string) =>
      results.passes
        .find((r) => r.id === rule)
        ?.nodes.map((n) => JSON.stringify(n.target))
        .filter((t) => t.includes('#charla-widget')) ?? [];
    expect(checked('button-name').length).toBeGreaterThanOrEqual(2);
    expect(checked('label')).toHaveLength(1);
    expect(checked('aria-dialog-name')).toHaveLength(1);
    expect(checked('link-name')).toHaveLength(1);
    expect(checked('color-contrast').length).toBeGreaterThan(3);
    await context.close();
  });

  it('says so when the network fails', async () => {
    const { context, page } = await visitor();
    await page.goto(`${siteOrigin}/`);
    await open(page);
    await page.route(`${appOrigin}/api/web/*/message`, (route) => route.abort('connectionrefused'));
    await input(page).fill('¿Abrís hoy?');
    await input(page).press('Enter');
    await dialog(page)
      .getByText('No pudimos conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.')
      .waitFor();
    expect(await input(page).isDisabled()).toBe(false);
    await context.close();
  });

  it('says the chat is not available when the owner switches the web service off', async () => {
    // A visitor already chatting when the service goes off: the next message answers 403.
    const { context, page } = await visitor(700, 800);
    await page.goto(`${siteOrigin}/`);
    await open(page);
    await setWeb(false);
    try {
      await input(page).fill('¿Abrís hoy?');
      await input(page).press('Enter');
      const config = (
        await (await app.http()).inject({ method: 'GET', url: `/api/web/${key}/config` })
      ).json() as {
        available: boolean;
        unavailableText: string;
      };
      expect(config.available).toBe(false);
      await dialog(page).getByText(config.unavailableText).waitFor();
      expect(await input(page).isDisabled()).toBe(true);

      // A new visitor: the window says so at once, without the greeting, and the input stays disabled.
      const fresh = await visitor();
      await fresh.page.goto(`${siteOrigin}/`);
      await open(fresh.page);
      await dialog(fresh.page).getByText(config.unavailableText).waitFor();
      expect(await dialog(fresh.page).getByText('¿En qué puedo ayudarte?').count()).toBe(0);
      expect(await input(fresh.page).isDisabled()).toBe(true);
      expect(messageBodies(fresh.requests)).toEqual([]);
      await fresh.page.screenshot({ path: join(SHOTS, 'widget-unavailable.png') });
      await fresh.context.close();
    } finally {
      await setWeb(true);
    }
    await context.close();
  });

  it('tries the configuration again when it could not load it', async () => {
    const { context, page } = await visitor();
    let failing = true;
    await context.route(`${appOrigin}/api/web/*/config`, (route) =>
      failing ? route.abort('connectionrefused') : route.continue(),
    );
    await page.goto(`${siteOrigin}/`);
    // Without the configuration the button has a neutral label and the window the fallback error.
    await page.getByRole('button', { name: 'Chat' }).click();
    const win = page.getByRole('dialog');
    await win.getByText('Lo siento, estoy teniendo problemas técnicos.', { exact: false }).waitFor();
    expect(await win.getByRole('textbox').isDisabled()).toBe(true);
    await sleep(400);
    await page.keyboard.press('Escape');
    failing = false;
    await page.getByRole('button', { name: 'Chat' }).click();
    await dialog(page).getByText(`¡Hola! Soy el asistente de ${BUSINESS}.`, { exact: false }).waitFor();
    expect(await dialog(page).getByText('Lo siento', { exact: false }).count()).toBe(1);
    await sleep(400);
    expect(await input(page).isDisabled()).toBe(false);
    await context.close();
  });

  it('shows nothing for an unknown key', async () => {
    const { context, page, requests } = await visitor();
    await page.goto(`${siteOrigin}/unknown`);
    await page.waitForLoadState('networkidle');
    expect(requests.some((r) => r.url().endsWith('/api/web/no-such-key/config'))).toBe(true);
    expect(await page.getByRole('button').count()).toBe(0);
    await context.close();
  });

  it('retries loading widget.js every 2 seconds until it loads', async () => {
    const { context, page } = await visitor();
    const attempts: number[] = [];
    await context.route(`${appOrigin}/widget.js`, (route) => {
      attempts.push(Date.now());
      return attempts.length <= 2 ? route.abort('connectionrefused') : route.continue();
    });
    await page.goto(`${siteOrigin}/`);
    await launcher(page).waitFor({ timeout: 8000 });
    expect(attempts).toHaveLength(3);
    for (const [i, gap] of [attempts[1]! - attempts[0]!, attempts[2]! - attempts[1]!].entries()) {
      expect(gap, `gap ${i + 1}`).toBeGreaterThanOrEqual(1900);
      expect(gap, `gap ${i + 1}`).toBeLessThan(3500);
    }
    // One container and one loader on the page.
    expect(await inPage(page, `document.querySelectorAll('#charla-widget').length`)).toBe(1);
    expect(await inPage(page, `document.querySelectorAll('script[src$="/widget.js"]').length`)).toBe(1);
    await context.close();
  });
});
