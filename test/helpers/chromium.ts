/**
 * Debian's Chromium for browser tests and the dashboard benchmark (DESIGN.md facts): its path
 * (CHROMIUM_PATH overrides) and the flags that keep it off this machine's closed network.
 */
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Chromium's own fake microphone (a beep) instead of a device, with no permission prompt: for the
 * voice recorder.
 */
export const FAKE_MICROPHONE_ARGS = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

/** Launches headless Chromium with those flags, and `extraArgs`. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * Signs in on /login as an owner made by `app.owner(email)` (password "contraseña-segura") and
 * waits until /main has loaded and settled.
 */
export async function signInAs(page: Page, base: string, email: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill('contraseña-segura');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(`${base}/main`);
  await page.waitForLoadState('networkidle');
}

/**
 * Opens a public IALanding and waits until its island has hydrated the server's HTML
 * (`data-ready` on the page), so what the test types and clicks reaches the chat.
 */
export async function openLanding(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('[data-testid="ialanding"][data-ready="true"]').waitFor();
}
