/**
 * The web channel's screens in Chromium (issue 6), on a real Charla (PGlite) listening on a port:
 * - an owner without a bot opens /charla-web from the /main card: the load rules gave them a bot
 *   named after the e-mail, with a key and an IALanding; Activar turns the service Activo (stored);
 *   Generar Código shows the widget snippet, Copiar puts it on the clipboard and reads "Copiado" for
 *   2 s; the try-out window answers through the web channel; "Entrar a mi IALANDING" lands on
 *   /ialanding/<slug> 500 ms later, an empty landing ("Tu IALANDING está listo");
 * - a visitor on the demo landing (El Pato Pepe) sees the greeting, asks "¿Tenéis la carta?" with
 *   Enter, sees "Escribiendo..." and then the answer and the menu PDF in the content area; Shift+Enter
 *   adds a line; a library card shows its file; the page title is the business's;
 * - a landing whose service is off shows the server's text and a disabled input; unknown and
 *   inactive slugs show "IALanding no encontrada";
 * - the HTML the server sends for the demo landing carries its <title> and og:title, and with
 *   JavaScript off shows the business, the greeting and the library (issue 16: server-rendered);
 *   a card tapped and text typed before the island hydrated the page take effect once it is live,
 *   with no hydration error;
 * - screenshots of both screens at 1280 and 375 px (test-results/screenshots/), no sideways scroll,
 *   and no serious or critical axe violation.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAVAILABLE_TEXTS } from '../adapters/web/texts.ts';
import { seedDemo } from '../cli/seed.ts';
import { GREETINGS } from '../engine/conversation/texts.ts';
import { embedSnippet } from '../widget/snippet.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, openLanding, signInAs } from './helpers/chromium.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
const DAY = 86_400_000;
const DEMO_SLUG = 'ialanding-el-pato-pepe';

/** Runs a JavaScript expression in the page (the tsconfig has no DOM library); a promise is awaited. */
const inPage = <T = unknown>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('web channel screens in Chromium', () => {
  let app: TestApp;
  let base: string;
  let browser: Browser;

  /** Full-page screenshots at 1280 and 375 px; returns the page's width at each (wider = sideways scroll). */
  const shoot = async (page: Page, name: string) => {
    const widths: Record<number, number> = {};
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
      await page.waitForTimeout(150);
      widths[width] = await inPage<number>(page, 'document.documentElement.scrollWidth');
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    return widths;
  };
  const signIn = (page: Page, email: string) => signInAs(page, base, email);
  const db = () => app.store.db;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await createTestApp('pglite');
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    // The demo: El Pato Pepe with its menu PDF, photo and audio, web service on; its owner has days.
    const demo = await seedDemo(app);
    await db()
      .insertInto('user_profiles')
      .values({ user_id: demo.ownerId, plan: 'free', expires_at: new Date(Date.now() + 30 * DAY) })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: new Date(Date.now() + 30 * DAY) }))
      .execute();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('an owner opens /charla-web: load rules, Activar, the snippet copied, the try-out chat and the IALanding', async () => {
    const owner = await app.owner('tienda@example.com');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await signIn(page, 'tienda@example.com');

    // The /main card leads here.
    await page.getByRole('link', { name: /Landing web con IA/ }).click();
    await page.waitForURL(`${base}/charla-web`);
    await page.getByRole('heading', { name: 'Tu Landing Web con Charla' }).waitFor();
    await page.getByTestId('channel-name').waitFor();

    // Load rules: a bot named after the e-mail, with a key and an IALanding.
    const bot = await db()
      .selectFrom('chatbots')
      .selectAll()
      .where('user_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(bot.business_name).toBe('tienda');
    expect(bot.charla_key).toMatch(/^[\w-]{20,}$/);
    const landing = await db()
      .selectFrom('ialandings')
      .selectAll()
      .where('chatbot_id', '=', bot.id)
      .executeTakeFirstOrThrow();
    expect(landing.slug).toBe('ialanding-tienda');
    expect(await page.getByTestId('channel-name').textContent()).toBe('tienda');
    expect(await page.getByTestId('channel-info').textContent()).toContain(bot.charla_key!);
    expect(await page.getByTestId('web-days').textContent()).toBe('30');
    const notice = page.getByTestId('shared-notice');
    expect(await notice.getByRole('link').getAttribute('href')).toBe('/configure');

    // The service: Inactivo → Activar → Activo, stored.
    expect(bot.web_enabled).toBe(false);
    expect(await page.getByTestId('web-status').textContent()).toBe('Inactivo');
    await page.getByRole('button', { name: 'Activar', exact: true }).click();
    await page.getByRole('button', { name: 'Desactivar', exact: true }).waitFor();
    expect(await page.getByTestId('web-status').textContent()).toBe('Activo');
    const stored = await db()
      .selectFrom('chatbots')
      .select('web_enabled')
      .where('id', '=', bot.id)
      .executeTakeFirstOrThrow();
    expect(stored.web_enabled).toBe(true);

    // Generar Código → the snippet; Copiar → clipboard, "Copiado" for 2 s.
    await page.getByRole('button', { name: 'Generar Código' }).click();
    const code = await page.getByTestId('widget-code').textContent();
    expect(code).toBe(embedSnippet(base, bot.charla_key!));
    await page.getByRole('button', { name: 'Copiar' }).click();
    const copiedAt = Date.now();
    await page.getByRole('button', { name: /Copiado/ }).waitFor();
    expect(await inPage<string>(page, 'navigator.clipboard.readText()')).toBe(code);
    await page.getByRole('button', { name: 'Copiar' }).waitFor({ timeout: 6000 });
    const shownFor = Date.now() - copiedAt;
    expect(shownFor).toBeGreaterThanOrEqual(1900);
    expect(shownFor).toBeLessThan(5000);
    expect(await page.getByText('Cómo instalarlo en WordPress').count()).toBe(1);

    const widths = await shoot(page, 'charla-web');
    expect(widths[1280]).toBeLessThanOrEqual(1280);
    expect(widths[375]).toBeLessThanOrEqual(375);
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 812 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The try-out window talks through the web channel.
    await page.getByRole('button', { name: 'Probar el bot web' }).click();
    const chat = page.getByTestId('web-chat');
    await chat.getByText('Asistente IA').waitFor();
    // The bot's own words come in its language (a new bot speaks the interface language, issue 10).
    await chat.getByText(GREETINGS.es.replace('{business}', 'tienda')).waitFor();
    await chat.getByLabel('Escribe tu mensaje...').fill('Hola, ¿qué tal?');
    const answered = page.waitForResponse((r) => r.url().includes(`/api/web/${bot.charla_key}/message`));
    await chat.getByLabel('Escribe tu mensaje...').press('Enter');
    expect((await answered).status()).toBe(200);
    // The greeting, then the reply.
    await expect.poll(() => chat.getByTestId('bot-message').count()).toBe(2);
    expect(await chat.getByTestId('user-message').textContent()).toBe('Hola, ¿qué tal?');
    await shoot(page, 'charla-web-chat');
    await chat.getByRole('button', { name: 'Cerrar el chat' }).click();

    // Entrar a mi IALANDING → /ialanding/<slug>, 500 ms later.
    const clickedAt = Date.now();
    await page.getByRole('button', { name: 'Entrar a mi IALANDING' }).click();
    await page.waitForURL(`${base}/ialanding/ialanding-tienda`);
    expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(480);
    await page.getByTestId('ialanding-business').waitFor();
    expect(await page.getByTestId('ialanding-business').textContent()).toBe('tienda');
    // The landing speaks its bot's language (Spanish here, the interface language it was created in).
    await page.getByRole('heading', { name: 'Tu IALANDING está listo' }).waitFor();
    expect(await inPage<string>(page, 'document.title')).toBe('tienda · Asistente IA');
    expect(await inPage<string>(page, 'document.documentElement.lang')).toBe('es');
    await context.close();
  });

  it('a visitor of the demo IALanding asks for the menu and sees the answer and the PDF', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    // A short delay on the turn, so "Escribiendo..." is seen before the answer.
    await page.route('**/api/web/*/message', async (route) => {
      await new Promise((r) => setTimeout(r, 700));
      await route.continue();
    });
    await openLanding(page, `${base}/ialanding/${DEMO_SLUG}`);
    await page.getByTestId('ialanding-business').waitFor();
    expect(await page.getByTestId('ialanding-business').textContent()).toBe('El Pato Pepe');
    expect(await inPage<string>(page, 'document.title')).toBe('El Pato Pepe · Asistente IA');
    expect(await inPage<string>(page, 'document.documentElement.lang')).toBe('es');
    const content = page.getByTestId('ialanding-content');
    expect(await content.textContent()).toContain('¡Hola! Soy el asistente de El Pato Pepe');
    // The library: a card per file, with its type, what it is (its context, never its keywords) and "Ver →".
    const library = page.getByTestId('ialanding-library');
    expect(await library.getByRole('button').count()).toBe(3);
    expect(await library.getByText('Ver →').count()).toBe(3);
    await library
      .getByText('La carta completa de El Pato Pepe: entrantes, principales, postres y precios.')
      .waitFor();
    expect(await library.getByText('menu · carta · precios').count()).toBe(0);
    expect(await page.getByText('Las respuestas se mostrarán arriba').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Hecho con Charla' }).getAttribute('href')).toBe('/');

    const input = page.getByLabel('Escribe tu mensaje...');
    // Shift+Enter adds a line and sends nothing.
    await input.fill('Hola');
    await input.press('Shift+Enter');
    expect(await input.inputValue()).toBe('Hola\n');
    expect(await content.getAttribute('data-type')).toBe('welcome');

    await input.fill('¿Tenéis la carta?');
    const turn = page.waitForResponse((r) => r.url().includes('/message') && r.request().method() === 'POST');
    await input.press('Enter');
    await content.getByText('Escribiendo...').waitFor();
    expect(await input.isDisabled()).toBe(true);
    const sse = await (await turn).text();
    const done = JSON.parse(/event: done\ndata: (.*)/.exec(sse)![1]!) as {
      reply: string;
      attachment: { url: string; name: string; type: string } | null;
    };
    expect(done.attachment?.type).toBe('pdf');
    await expect.poll(() => content.getAttribute('data-type')).toBe('file');
    expect(await page.getByTestId('ialanding-content-text').textContent()).toBe(done.reply);
    expect(await content.textContent()).toContain('¿Tenéis la carta?');
    const pdfLink = content.getByRole('link', { name: /carta-el-pato-pepe/ });
    expect(await pdfLink.getAttribute('href')).toBe(done.attachment!.url);
    expect(await content.locator('object[type="application/pdf"]').getAttribute('data')).toBe(
      done.attachment!.url,
    );
    const pdf = await fetch(new URL(done.attachment!.url, base));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
    expect(await input.inputValue()).toBe('');
    expect(await input.isDisabled()).toBe(false);
    // The browser keeps one visitor id.
    const { charla_key: key } = (await (await fetch(`${base}/api/ialanding/${DEMO_SLUG}`)).json()) as {
      charla_key: string;
    };
    expect(await inPage<string>(page, `localStorage.getItem('charla:${key}:visitor')`)).toMatch(
      /^[0-9a-f]{32}$/,
    );

    await shoot(page, 'ialanding-answer');
    expect(await seriousViolations(page)).toEqual([]);

    // A message that matches two files gets a LIST offer, shown as buttons; a button picks by number.
    await input.fill('¿Tenéis una foto del local y un audio de saludo?');
    await input.press('Enter');
    const offers = content.getByRole('list', { name: 'Elige una opción' });
    await offers.waitFor();
    expect(await offers.getByRole('button').count()).toBe(2);
    await shoot(page, 'ialanding-offers');
    const picked = page.waitForRequest((r) => r.url().includes('/message') && r.method() === 'POST');
    await offers.getByRole('button', { name: /audio/ }).click();
    const pick = (await picked).postDataJSON() as { userMessage: string; archivosMostrados: unknown[] };
    expect(pick.userMessage).toMatch(/^[12]$/);
    expect(pick.archivosMostrados).toHaveLength(2);
    await content.locator('audio[src*="saludo-el-pato-pepe"]').waitFor();

    // A library card shows its file in the content area.
    await library.getByRole('button', { name: /Foto de la fachada/ }).click();
    await expect.poll(() => content.getAttribute('data-type')).toBe('file');
    await content.locator('img[src*="local-el-pato-pepe"]').waitFor();
    const widths = await shoot(page, 'ialanding');
    expect(widths[1280]).toBeLessThanOrEqual(1280);
    expect(widths[375]).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 375, height: 812 });
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('a landing whose service is off says so and keeps the input off; unknown and inactive slugs are not found', async () => {
    const bot = await db()
      .selectFrom('chatbots')
      .selectAll()
      .where('business_name', '=', 'tienda')
      .executeTakeFirstOrThrow();
    // An English bot: the landing speaks its bot's language, whatever the visitor's interface language.
    await db()
      .updateTable('chatbots')
      .set({ web_enabled: false, idioma: 'English' })
      .where('id', '=', bot.id)
      .execute();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await openLanding(page, `${base}/ialanding/ialanding-tienda`);
    await page.getByText(UNAVAILABLE_TEXTS.en.replace('{business}', 'tienda')).waitFor();
    expect(await page.getByLabel('Type your message…').isDisabled()).toBe(true);
    await shoot(page, 'ialanding-unavailable');
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`${base}/ialanding/ialanding-nadie`);
    await page.getByRole('heading', { name: 'IALanding no encontrada' }).waitFor();

    await db().updateTable('ialandings').set({ is_active: false }).where('chatbot_id', '=', bot.id).execute();
    await page.goto(`${base}/ialanding/ialanding-tienda`);
    await page.getByRole('heading', { name: 'IALanding no encontrada' }).waitFor();
    await shoot(page, 'ialanding-not-found');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('the HTML of the demo landing carries its title and Open Graph title', async () => {
    const res = await fetch(`${base}/ialanding/${DEMO_SLUG}`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<title>[^<]*El Pato Pepe[^<]*<\/title>/);
    expect(html).toMatch(/<meta property="og:title" content="El Pato Pepe">/);
  });

  it('shows the landing before any script runs; a tap and text from before hydration are kept', async () => {
    // JavaScript off: the server's HTML alone has the business, the greeting and the library.
    const off = await browser.newContext({ viewport: { width: 375, height: 812 }, javaScriptEnabled: false });
    const bare = await off.newPage();
    await bare.goto(`${base}/ialanding/${DEMO_SLUG}`);
    expect(await bare.getByTestId('ialanding-business').textContent()).toBe('El Pato Pepe');
    await bare.getByRole('heading', { level: 1, name: 'Habla con El Pato Pepe' }).waitFor();
    expect(await bare.getByTestId('ialanding-content').textContent()).toContain(
      '¡Hola! Soy el asistente de El Pato Pepe',
    );
    expect(await bare.getByTestId('ialanding-library').getByText('Ver →').count()).toBe(3);
    await bare.screenshot({ path: join(SHOTS, 'ialanding-no-script-375.png'), fullPage: true });
    await off.close();

    // The island arrives late (a slow phone): the visitor types first, then sends once it is live.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    // The island's script is held until the visitor has tapped and typed (not a timer: a slow CI
    // machine types slower than any fixed delay).
    let release!: () => void;
    const typed = new Promise<void>((r) => (release = r));
    await page.route('**/site/ialanding-island-*.js', async (route) => {
      await typed;
      await route.continue();
    });
    await page.goto(`${base}/ialanding/${DEMO_SLUG}`, { waitUntil: 'commit' });
    // A tap on a library card and some typing, all before the page is live.
    await page
      .getByTestId('ialanding-library')
      .getByRole('button', { name: /Foto de la fachada/ })
      .click();
    const box = page.getByLabel('Escribe tu mensaje...');
    await box.pressSequentially('¿Tenéis la carta?');
    expect(await page.locator('[data-ready="true"]').count()).toBe(0);
    release();
    await page.locator('[data-testid="ialanding"][data-ready="true"]').waitFor();
    // Once live, the tapped card shows its photo.
    const content = page.getByTestId('ialanding-content');
    await content.locator('img[src*="local-el-pato-pepe"]').waitFor();
    const send = page.getByRole('button', { name: 'Enviar' });
    await expect.poll(() => send.isEnabled()).toBe(true);
    await send.click();
    await expect
      .poll(() => page.getByTestId('ialanding-content-title').textContent())
      .toContain('carta-el-pato-pepe.pdf');
    // Hydration matched the server's HTML: React reported nothing.
    expect(errors).toEqual([]);
    await context.close();
  });
});
