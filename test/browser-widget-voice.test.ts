/**
 * Issue 15 in Chromium: on a restaurant's site (another origin) with the widget, a visitor presses
 * the microphone (Chromium's fake microphone), speaks, stops; the recording goes to
 * `POST /api/web/:key/voice`, is transcribed by the local OpenAI-audio server, answered by the local
 * LLM, and the bot's voice reply (the owner turned "Respuestas de voz" on) plays inline. The
 * visitor's bubble shows what the bot heard. Screenshot; axe finds nothing serious.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL, seedDemo } from '../cli/seed.ts';
import { embedSnippet } from '../widget/snippet.ts';
import { createTestApp, fakeLlm, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, FAKE_MICROPHONE_ARGS, launchChromium, signInAs } from './helpers/chromium.ts';
import { type FakeOpenAi, startFakeOpenAi } from './servers/openai.ts';
import { type SpeechServers, startSpeechServers } from './servers/speech.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const WIDGET_BUILT = existsSync(new URL('../dist/widget/widget.js', import.meta.url));
const GREETING = readFileSync(new URL('../assets/demo/saludo-el-pato-pepe.ogg', import.meta.url));

describe.skipIf(!existsSync(CHROMIUM_PATH) || !WIDGET_BUILT)('the widget’s microphone in Chromium', () => {
  let browser: Browser;
  let app: TestApp;
  let llm: FakeOpenAi;
  let servers: SpeechServers;
  let site: Server;
  let siteOrigin: string;
  let base: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    servers = await startSpeechServers(GREETING);
    llm = await startFakeOpenAi();
    app = await createTestApp('pglite', {
      llm: fakeLlm(llm.baseURL),
      env: {
        CHARLA_STT_BASE_URL: servers.openaiBase,
        CHARLA_TTS_BASE_URL: servers.openaiBase,
      },
    });
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    app.setBaseUrl(base);
    const demo = await seedDemo(app);
    await app.owner(DEMO_EMAIL);
    await app.store.db
      .updateTable('chatbots')
      .set({ enable_audio: true })
      .where('id', '=', demo.bot.id)
      .execute();
    site = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>El Pato Pepe</title></head><body><main><h1>El Pato Pepe</h1></main>${embedSnippet(base, demo.bot.charla_key!)}</body></html>`,
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
    browser = await launchChromium(FAKE_MICROPHONE_ARGS);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await llm?.close();
    await servers?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('sends a voice message, shows what the bot heard and plays its spoken answer', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      locale: 'es-ES',
      permissions: ['microphone'],
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${siteOrigin}/`);
    await page.getByRole('button', { name: 'Abrir el chat' }).click();
    const dialog = page.getByRole('dialog', { name: 'El Pato Pepe' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Grabar un mensaje de voz' }).click();
    await dialog.getByRole('button', { name: 'Detener y enviar' }).waitFor();
    await new Promise((r) => setTimeout(r, 1500));
    await dialog.getByRole('button', { name: 'Detener y enviar' }).click();
    await dialog.getByText('🎤 ¿A qué hora abrís el sábado?').waitFor();
    await dialog.getByText('Respuesta: ¿A qué hora abrís el sábado?').waitFor();
    // What the browser recorded reached the transcription server.
    const heard = servers.transcriptions.at(-1)!;
    expect(heard.file.length).toBeGreaterThan(1000);
    expect(heard.filename).toMatch(/\.(webm|ogg)$/);
    // The spoken answer is inline, decodable, and playing.
    const voice = dialog.locator('audio.voice');
    await voice.waitFor();
    expect(await voice.getAttribute('src')).toMatch(/^data:audio\/ogg;base64,/);
    await expect
      .poll(() =>
        voice.evaluate((a) => {
          const d = (a as unknown as { duration: number }).duration;
          return Number.isFinite(d) ? d : 0;
        }),
      )
      .toBeGreaterThan(0.5);
    await expect
      .poll(() => voice.evaluate((a) => (a as unknown as { currentTime: number }).currentTime))
      .toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, 'widget-voice-1280.png') });
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('the owner’s test chat sends a voice message and plays the spoken reply', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      locale: 'es-ES',
      permissions: ['microphone'],
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await signInAs(page, base, DEMO_EMAIL);
    await page.getByRole('button', { name: 'Probar el chatbot' }).click();
    const chat = page.getByRole('region', { name: 'Chat de El Pato Pepe' });
    await chat.getByRole('button', { name: 'Grabar un mensaje de voz' }).click();
    await chat.getByRole('button', { name: 'Detener y enviar' }).waitFor();
    await new Promise((r) => setTimeout(r, 1200));
    await chat.getByRole('button', { name: 'Detener y enviar' }).click();
    await chat.getByText('🎤 ¿A qué hora abrís el sábado?').waitFor();
    await chat.getByText('Respuesta: ¿A qué hora abrís el sábado?').waitFor();
    expect(await chat.getByTestId('voice-reply').getAttribute('src')).toMatch(/^data:audio\/ogg;base64,/);
    await page.screenshot({ path: join(SHOTS, 'test-chat-voice-1280.png') });
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
