/**
 * Issue 24 §9 in Chromium, on a real Charla (PGlite, the demo seeded) listening on a port: every page
 * works under its Content-Security-Policy with not one violation reported (console or
 * `securitypolicyviolation` event), and the policy is really enforced (a script injected into the
 * page does not run):
 * - the dashboard: /login, /main, /configure (a toast, whose CSS the build moved out of an inline
 *   `<style>`, is styled), /charla-web with its try-out chat answering;
 * - the IALanding: the chat answers with the menu PDF shown inline (an `<object>` of a sandboxed
 *   `/files/` response), a library card shows the photo, another plays the audio;
 * - the home page with the site assistant answering, the Facebots directory and a bot's page;
 * - the OpenAPI page, on plain http under a name that is not localhost (as on a LAN);
 * - stored files opened in a tab: the photo, the PDF (Chromium's viewer), the audio and a video show
 *   or play, while an HTML and an SVG that got into storage run no script;
 * - the widget on a business's site (another origin) whose own strict policy allows the Charla host
 *   as docs/security-headers.md says (`widgetHostSources`): the snippet with the site's nonce, the
 *   two-tag form, and the snippet under a nonce with `'strict-dynamic'` and no host, all answer with
 *   the PDF and the photo.
 * Screenshots of the IALanding and /main at 390 and 1280 px, the PDF in the IALanding and a PDF opened
 * in a tab go to test-results/screenshots/csp-*.png.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../cli/seed.ts';
import {
  API_DOCS_CSP,
  DASHBOARD_CSP,
  FILES_CSP,
  pageCsp,
  serializeCsp,
  widgetHostSources,
} from '../engine/http/csp.ts';
import { embedSnippet } from '../widget/snippet.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { CHROMIUM_PATH, launchChromium, openLanding, signInAs } from './helpers/chromium.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
const DEMO_SLUG = 'ialanding-el-pato-pepe';
const DAY = 86_400_000;

/** Runs a JavaScript expression in the page (the tsconfig has no DOM library); a promise is awaited. */
const inPage = <T = unknown>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;

/**
 * Adds an inline script to the page as an attacker who got markup in would, and says whether it ran
 * (it must not: the policy refuses it, and that refusal is one reported violation).
 */
const injectedScriptRuns = (page: Page) =>
  inPage<boolean>(
    page,
    `(() => { const s = document.createElement('script'); s.textContent = 'window.__injected = true';
      document.head.append(s); return window.__injected === true; })()`,
  );

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('Content-Security-Policy in Chromium', () => {
  let app: TestApp;
  let base: string;
  let browser: Browser;
  let site: Server;
  let siteOrigin: string;
  let key: string;
  let files: Record<string, string>;
  /** Every violation reported in any page of the test's contexts ("url: text"). */
  let violations: string[] = [];

  /**
   * A browser context whose pages report each CSP violation: Chromium's console message, and the
   * `securitypolicyviolation` event (which also covers a refusal Chromium does not log).
   */
  const watched = async (viewport = { width: 1280, height: 800 }): Promise<[BrowserContext, Page]> => {
    const context = await browser.newContext({ viewport });
    context.on('console', (m) => {
      if (/Content[- ]Security[- ]Policy/i.test(m.text())) violations.push(`${m.page()?.url()}: ${m.text()}`);
    });
    await context.addInitScript(
      `document.addEventListener('securitypolicyviolation', (e) => console.error('Content Security Policy event: ' + e.effectiveDirective + ' refused ' + e.blockedURI + ' (' + e.sourceFile + ':' + e.lineNumber + ')'), true)`,
    );
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return [context, page];
  };
  /**
   * Checks the injected script is refused and reported, then forgets those reports (Chromium's
   * message and the event's, which arrive separately: it waits until no more come for 500 ms).
   */
  const enforced = async (page: Page) => {
    const before = violations.length;
    expect(await injectedScriptRuns(page), page.url()).toBe(false);
    await expect.poll(() => violations.length, { message: page.url() }).toBeGreaterThan(before);
    let seen = -1;
    while (seen !== violations.length) {
      seen = violations.length;
      await page.waitForTimeout(500);
    }
    // The injection's own two reports, nothing else.
    expect(violations.length - before, violations.slice(before).join('\n')).toBeLessThanOrEqual(2);
    for (const line of violations.slice(before)) expect(line).toMatch(/script-src|inline script/);
    violations = violations.slice(0, before);
  };
  const shoot = async (page: Page, name: string) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(SHOTS, `csp-${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  };
  const fileUrl = (type: string) =>
    `${base}/files/${files[type]!.split('/').map(encodeURIComponent).join('/')}`;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await createTestApp('pglite', { llm: null });
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    app.setBaseUrl(base);
    const demo = await seedDemo(app);
    key = demo.bot.charla_key!;
    files = Object.fromEntries(demo.files.map((f) => [f.file_type, f.file_url]));
    await app.storage.put(
      'csp/demo.webm',
      readFileSync(new URL('../assets/site/media/demo.webm', import.meta.url)),
    );
    await app.storage.put(
      'csp/pagina.html',
      new TextEncoder().encode('<h1>Hola</h1><script>document.title = "RAN"; window.__ran = true</script>'),
    );
    await app.storage.put(
      'csp/dibujo.svg',
      new TextEncoder().encode(
        '<svg xmlns="http://www.w3.org/2000/svg"><script>document.title = "RAN"</script><rect width="9" height="9"/></svg>',
      ),
    );

    // A business's website on another origin, with a strict policy of its own that allows the Charla
    // host as the docs say; the snippet carries the site's nonce.
    const allow = widgetHostSources(base);
    const nonce = 'c2l0aW8tZGUtcHJ1ZWJh';
    const sitePolicy = (scriptSrc: string[]) =>
      serializeCsp({
        'default-src': ["'self'"],
        'script-src': scriptSrc,
        'connect-src': ["'self'", ...allow['connect-src']],
        'img-src': ["'self'", ...allow['img-src']],
        'media-src': ["'self'", ...allow['media-src']],
        'style-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'none'"],
      });
    const withNonce = embedSnippet(base, key).replace('<script>', `<script nonce="${nonce}">`);
    const pages: Record<string, [string, string]> = {
      // The snippet with the site's nonce; the host allowed.
      '/': [sitePolicy(["'self'", `'nonce-${nonce}'`, ...allow['script-src']]), withNonce],
      // The two tags, no inline script.
      '/dos-etiquetas': [
        sitePolicy(["'self'", ...allow['script-src']]),
        `<div data-charla-key="${key}" data-charla-host="${base}"></div><script src="${base}/widget.js" async></script>`,
      ],
      // A nonce and 'strict-dynamic': no host at all; what the snippet loads is trusted.
      '/estricto': [sitePolicy([`'nonce-${nonce}'`, "'strict-dynamic'"]), withNonce],
    };
    site = createServer((req, res) => {
      const found = pages[(req.url ?? '/').split('?')[0]!];
      if (!found) return res.writeHead(404).end();
      const [policy, embed] = found;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': policy });
      res.end(
        `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Restaurante</title></head><body><main><h1>Restaurante El Pato Pepe</h1></main>${embed}</body></html>`,
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
    // charla.test is this Charla under a name that is not localhost: plain http there is not a
    // "potentially trustworthy" origin, as on a LAN.
    browser = await launchChromium(['--host-resolver-rules=MAP charla.test 127.0.0.1']);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (site ? site.close(resolve) : resolve(null)));
    await app?.close();
  });

  it('the dashboard: login, /main, /configure with a styled toast, /charla-web’s try-out chat', async () => {
    violations = [];
    const owner = await app.owner('csp@example.com');
    const saved = await (await app.http()).inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: {
        business_name: 'Tienda CSP',
        idioma: 'Español',
        business_description: 'Una tienda de barrio.',
      },
    });
    expect(saved.statusCode).toBe(200);
    await app.store.db
      .insertInto('user_profiles')
      .values({ user_id: owner.id, plan: 'free', expires_at: new Date(Date.now() + 30 * DAY) })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: new Date(Date.now() + 30 * DAY) }))
      .execute();
    const [context, page] = await watched();
    const login = await page.goto(`${base}/login`);
    expect(login?.headers()['content-security-policy']).toBe(DASHBOARD_CSP);
    await page.getByLabel('Correo electrónico').waitFor();
    await enforced(page);
    await signInAs(page, base, 'csp@example.com');
    // The stylesheet applies (Tailwind's bg-slate-50 on the body).
    expect(await inPage<string>(page, 'getComputedStyle(document.body).backgroundColor')).toBe(
      'oklch(0.984 0.003 247.858)',
    );
    await shoot(page, 'main');

    await page.goto(`${base}/configure`);
    await page.getByRole('heading', { name: 'Archivos adjuntos' }).waitFor();
    // A refused format shows a toast: sonner's CSS is a file of the build, so the toast is styled
    // (absolutely placed inside its fixed list) under `style-src 'self'`.
    await page
      .getByLabel('Añadir archivo')
      .setInputFiles({ name: 'virus.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
    await page.locator('[data-sonner-toast]', { hasText: 'virus.exe' }).waitFor();
    expect(
      await inPage(page, `getComputedStyle(document.querySelector('[data-sonner-toast]')).position`),
    ).toBe('absolute');
    expect(
      await inPage(page, `getComputedStyle(document.querySelector('[data-sonner-toaster]')).position`),
    ).toBe('fixed');

    await page.goto(`${base}/charla-web`);
    await page.getByRole('heading', { name: 'Tu Landing Web con Charla' }).waitFor();
    // A saved bot's web channel is on (issue 29).
    await page.getByRole('button', { name: 'Desactivar', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Generar Código' }).click();
    await page.getByTestId('widget-code').waitFor();
    await page.getByRole('button', { name: 'Probar el bot web' }).click();
    const chat = page.getByTestId('web-chat');
    await chat.getByLabel('Escribe tu mensaje...').fill('Hola, ¿qué tal?');
    await chat.getByLabel('Escribe tu mensaje...').press('Enter');
    await expect.poll(() => chat.getByTestId('bot-message').count()).toBe(2);
    await enforced(page);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('the IALanding: the chat answers with the PDF shown inline, a photo and an audio', async () => {
    violations = [];
    const [context, page] = await watched();
    const response = await page.goto(`${base}/ialanding/${DEMO_SLUG}`);
    expect(response?.headers()['content-security-policy']).toBe(pageCsp());
    await openLanding(page, `${base}/ialanding/${DEMO_SLUG}`);
    const content = page.getByTestId('ialanding-content');
    const input = page.getByLabel('Escribe tu mensaje...');
    await input.fill('¿Tenéis la carta?');
    await input.press('Enter');
    await expect.poll(() => content.getAttribute('data-type')).toBe('file');
    const pdf = content.locator('object[type="application/pdf"]');
    await pdf.waitFor();
    // Chromium's PDF viewer runs inside the object although /files/ sandboxes the response.
    await expect.poll(() => page.frames().some((f) => f.url().startsWith('chrome-extension://'))).toBe(true);
    await page.waitForTimeout(1500);
    await pdf.screenshot({ path: join(SHOTS, 'csp-ialanding-pdf-object.png') });
    const library = page.getByTestId('ialanding-library');
    await library.getByRole('button', { name: /Foto de la fachada/ }).click();
    await content.locator('img[src*="local-el-pato-pepe"]').waitFor();
    const photo = `document.querySelector('[data-testid="ialanding-content"] img[src*="local-el-pato-pepe"]')`;
    await expect
      .poll(() => inPage<number>(page, `${photo}.complete && ${photo}.naturalWidth`))
      .toBeGreaterThan(0);
    await input.fill('¿Tenéis un audio de saludo?');
    await input.press('Enter');
    await content.locator('audio[src*="saludo-el-pato-pepe"]').waitFor();
    // The player loads nothing until asked (preload none): ask, as a tap on play would.
    const audio = `document.querySelector('[data-testid="ialanding-content"] audio')`;
    await inPage(page, `(${audio}.preload = 'auto', ${audio}.load())`);
    await expect.poll(() => inPage<number>(page, `${audio}.readyState`)).toBeGreaterThan(0);
    await shoot(page, 'ialanding');
    await enforced(page);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('the home page with the assistant answering, the directory and a bot’s page', async () => {
    violations = [];
    const [context, page] = await watched();
    const home = await page.goto(`${base}/`);
    expect(home?.headers()['content-security-policy']).toBe(pageCsp());
    // The inlined CSS applies (the body's margin is 0, not the browser's 8 px).
    expect(await inPage<string>(page, 'getComputedStyle(document.body).margin')).toBe('0px');
    await page.getByRole('button', { name: 'Abrir el asistente' }).click();
    const panel = page.getByRole('dialog', { name: 'Asistente Charla' });
    await panel.getByPlaceholder('Pregunta sobre Charla...').fill('¿Cuánto cuesta?');
    await panel.getByPlaceholder('Pregunta sobre Charla...').press('Enter');
    await panel.locator('.msg.bot', { hasText: '0,90 €' }).waitFor();
    await enforced(page);

    await page.goto(`${base}/facebots`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await inPage<string>(page, 'getComputedStyle(document.body).margin')).toBe('0px');
    await page.goto(`${base}/en/facebots/clinica-sonrisa`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await enforced(page);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('stored files open in a tab: photo, PDF, audio and video show; an HTML or SVG runs no script', async () => {
    violations = [];
    const [context, page] = await watched();
    const photo = await page.goto(fileUrl('image'));
    expect(photo?.headers()['content-security-policy']).toBe(FILES_CSP);
    expect(await inPage<number>(page, 'document.querySelector("img").naturalWidth')).toBeGreaterThan(0);

    await page.goto(fileUrl('pdf'));
    await expect.poll(() => page.frames().some((f) => f.url().startsWith('chrome-extension://'))).toBe(true);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(SHOTS, 'csp-file-pdf.png') });

    for (const media of [fileUrl('audio'), `${base}/files/csp/demo.webm`]) {
      await page.goto(media);
      await expect
        .poll(() => inPage<number>(page, 'document.querySelector("video, audio")?.readyState ?? -1'), {
          message: media,
        })
        .toBeGreaterThan(0);
    }

    for (const url of [`${base}/files/csp/pagina.html`, `${base}/files/csp/dibujo.svg`]) {
      const sandboxed = page.waitForEvent(
        'console',
        (m) => m.text().includes('sandboxed') && m.text().includes('allow-scripts'),
      );
      await page.goto(url);
      await sandboxed;
      expect(await inPage<string>(page, 'document.title'), url).not.toBe('RAN');
      expect(await inPage<unknown>(page, 'window.__ran ?? null'), url).toBeNull();
    }
    expect(violations).toEqual([]);
    await context.close();
  });

  it('the OpenAPI page works on plain http under a name that is not localhost', async () => {
    violations = [];
    const [context, page] = await watched();
    const docs = base.replace('127.0.0.1', 'charla.test');
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
    const res = await page.goto(`${docs}/api/docs`);
    expect(res?.headers()['content-security-policy']).toBe(API_DOCS_CSP);
    await expect
      .poll(() => inPage<number>(page, 'document.querySelectorAll(".opblock").length'))
      .toBeGreaterThan(20);
    await enforced(page);
    expect(failed).toEqual([]);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('the widget on a site with a strict policy of its own: the snippet with a nonce, the two tags, strict-dynamic', async () => {
    violations = [];
    for (const path of ['/', '/dos-etiquetas', '/estricto']) {
      const [context, page] = await watched();
      await page.goto(`${siteOrigin}${path}`);
      const launcher = page.getByRole('button', { name: 'Abrir el chat' });
      await launcher.click();
      const dialog = page.getByRole('dialog', { name: 'El Pato Pepe' });
      await dialog.waitFor();
      const input = dialog.getByRole('textbox', { name: 'Escribe tu mensaje...' });
      await input.fill('¿Tenéis la carta?');
      await input.press('Enter');
      await dialog.getByRole('link', { name: /carta-el-pato-pepe/ }).waitFor();
      await input.fill('¿Tenéis una foto del local?');
      await input.press('Enter');
      await dialog.getByRole('img', { name: /local-el-pato-pepe/ }).waitFor();
      const root = `document.querySelector('[data-charla-key]').shadowRoot`;
      const photo = `${root}.querySelector('.file-img')`;
      await expect
        .poll(() => inPage<number>(page, `${photo}.complete && ${photo}.naturalWidth`))
        .toBeGreaterThan(0);
      // The widget's styles are constructed sheets, which the site's `style-src 'self'` does not stop.
      expect(await inPage<string>(page, `getComputedStyle(${root}.querySelector('.win')).position`)).toBe(
        'fixed',
      );
      // (Under 'strict-dynamic' a script added by a running script is trusted by design.)
      if (path !== '/estricto') await enforced(page);
      expect(violations, path).toEqual([]);
      await context.close();
    }
  });
});
