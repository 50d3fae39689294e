/**
 * Issue 24 §9 over HTTP: every kind of page Charla serves carries a Content-Security-Policy, and the
 * policy allows exactly the inline code the page has.
 * - Server-rendered pages (the home in each language, a legal page, the Facebots directory, a bot's
 *   page, the IALanding and its "not found" page): the header is engine/http/csp.ts `pageCsp()`; every
 *   inline `<script>` that runs and every `<style>` has its SHA-256 in the header, nothing else
 *   inline is allowed (no `'unsafe-inline'`, no attribute handlers), and the page prints no `style`
 *   or `on…` attribute a strict policy would refuse; the IALanding's data block needs no hash.
 * - The dashboard's index.html (the history fallback and `/index.html`): `DASHBOARD_CSP`, never
 *   framed, and the file has no inline script at all.
 * - Stored files under `/files/`: `FILES_CSP` (`sandbox`) with `nosniff`.
 * - The OpenAPI page: `API_DOCS_CSP`, @fastify/swagger-ui's policy without the
 *   `upgrade-insecure-requests` that broke it on plain http.
 * Before the fix no response had the header, so every check here failed.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EARLY_TAPS } from '../adapters/web/ialanding-page.ts';
import { seedDemo } from '../cli/seed.ts';
import { API_DOCS_CSP, DASHBOARD_CSP, FILES_CSP, pageCsp } from '../engine/http/csp.ts';
import { botSlug, CONTENT, localePath, SITE_LANGUAGES } from '../plugins/site/content/index.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';

/** A policy as directive → sources. */
function parsePolicy(header: string | undefined): Map<string, string[]> {
  const policy = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) policy.set(name.toLowerCase(), sources);
  }
  return policy;
}

/** The CSP hash source of a text. */
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The inline elements of a page that a policy governs: scripts that run (not data blocks) and styles. */
function inlineCode(html: string) {
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attrs]) => !/\bsrc=/.test(attrs ?? ''))
    .filter(([, attrs]) => !/\btype="application\/(ld\+)?json"/.test(attrs ?? ''))
    .map(([, , text]) => text ?? '');
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map(([, text]) => text ?? '');
  return { scripts, styles };
}

describe.each(dialectsOf(import.meta.url))('Content-Security-Policy headers (%s)', (kind) => {
  let app: TestApp;
  let http: FastifyInstance;
  let fileKeys: Record<string, string>;

  beforeAll(async () => {
    app = await createTestApp(kind, { llm: null });
    http = await app.http();
    const demo = await seedDemo(app, () => {});
    fileKeys = Object.fromEntries(demo.files.map((f) => [f.file_type, f.file_url]));
  });
  afterAll(async () => {
    await app?.close();
  });

  const page = (url: string) => http.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

  /** The checks every server-rendered page passes; returns its policy. */
  const checkServerPage = async (url: string, status = 200) => {
    const res = await page(url);
    expect(res.statusCode, url).toBe(status);
    const header = res.headers['content-security-policy'] as string | undefined;
    expect(header, url).toBe(pageCsp());
    const policy = parsePolicy(header);
    const scriptSrc = policy.get('script-src') ?? [];
    const styleSrc = policy.get('style-src') ?? [];
    const { scripts, styles } = inlineCode(res.body);
    for (const text of scripts)
      expect(scriptSrc, `${url}: inline script ${text.slice(0, 60)}`).toContain(sha256(text));
    for (const text of styles) expect(styleSrc, `${url}: inline style`).toContain(sha256(text));
    // Nothing else inline runs: no keyword that lets any inline code through.
    for (const sources of [scriptSrc, styleSrc])
      expect(
        sources.filter((s) => /unsafe|\*|data:|https?:$/.test(s)),
        url,
      ).toEqual([]);
    expect(policy.get('script-src-attr'), url).toEqual(["'none'"]);
    // Attributes a strict policy refuses are not printed (they would be dropped in the browser).
    expect(res.body.match(/<[^>]+\sstyle="[^>]*>/g) ?? [], url).toEqual([]);
    expect(res.body.match(/<[^>]+\son[a-z]+="[^>]*>/g) ?? [], url).toEqual([]);
    // A script injected into the page would not run: its hash is not allowed, no keyword lets it.
    expect(scriptSrc).not.toContain(sha256('alert(document.cookie)'));
    expect(policy.get('object-src'), url).not.toContain('*');
    expect(policy.get('base-uri'), url).toEqual(["'self'"]);
    expect(policy.get('form-action'), url).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors'), url).toEqual(["'self'"]);
    expect(policy.get('default-src'), url).toEqual(["'self'"]);
    return { policy, body: res.body, scripts, styles };
  };

  it('the public site’s pages allow their inlined CSS by hash and nothing else inline', async () => {
    for (const lang of SITE_LANGUAGES) {
      const { styles } = await checkServerPage(localePath(lang, ''));
      expect(styles).toHaveLength(1);
    }
    await checkServerPage('/legal/privacy');
    await checkServerPage('/en/legal/tos');
    await checkServerPage('/facebots');
    const sample = CONTENT.es.facebots.bots[0]!;
    const { body } = await checkServerPage(`/facebots/${botSlug(sample.name)}`);
    // The JSON-LD is a data block: it never runs and needs no hash.
    expect(body).toContain('<script type="application/ld+json">');
    // The site script is a file from Charla itself.
    expect(body).toMatch(/<script type="module" src="\/site\/site-[\w-]+\.js"><\/script>/);
  });

  it('the IALanding allows its early-tap recorder by hash; its data block needs none', async () => {
    const { scripts, policy, body } = await checkServerPage('/ialanding/ialanding-el-pato-pepe');
    expect(scripts).toEqual([EARLY_TAPS]);
    expect(policy.get('script-src')).toContain(sha256(EARLY_TAPS));
    expect(body).toContain('<script type="application/json" id="ialanding-data">');
    // The PDF shown inline is an <object> from Charla's /files/.
    expect(policy.get('object-src')).toContain("'self'");
    // The "not found" page carries the policy too.
    await checkServerPage('/ialanding/ialanding-nadie', 404);
  });

  it('the dashboard’s page is never framed and has no inline script', async () => {
    for (const url of ['/login', '/main', '/configure', '/charla-web', '/index.html']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.headers['content-security-policy'], url).toBe(DASHBOARD_CSP);
      expect(inlineCode(res.body).scripts, url).toEqual([]);
      expect(inlineCode(res.body).styles, url).toEqual([]);
    }
    const policy = parsePolicy(DASHBOARD_CSP);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('script-src')?.filter((s) => /unsafe|\*|^https?:$/.test(s))).toEqual([]);
    expect(policy.get('style-src')).toEqual(["'self'"]);
    // An API path or a file is not the app's page.
    const api = await page('/api/no-such-route');
    expect(api.headers['content-security-policy']).toBeUndefined();
  });

  it('stored files are sandboxed, with nosniff, whatever their type', async () => {
    for (const key of Object.values(fileKeys)) {
      const url = `/files/${key.split('/').map(encodeURIComponent).join('/')}`;
      const res = await http.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-security-policy'], url).toBe(FILES_CSP);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
    const policy = parsePolicy(FILES_CSP);
    expect(policy.get('sandbox')).toEqual(['allow-same-origin']);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    // An HTML file that got into storage some other way is sandboxed too: it cannot script.
    await app.storage.put('csp-test/pagina.html', new TextEncoder().encode('<script>alert(1)</script>'));
    const html = await http.inject({ method: 'GET', url: '/files/csp-test/pagina.html' });
    expect(html.headers['content-security-policy']).toBe(FILES_CSP);
    expect(Object.keys(fileKeys).sort()).toEqual(['audio', 'image', 'pdf']);
  });

  it('the OpenAPI page has its policy, without upgrade-insecure-requests (it broke plain http)', async () => {
    const res = await http.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBe(API_DOCS_CSP);
    const policy = parsePolicy(API_DOCS_CSP);
    expect(policy.has('upgrade-insecure-requests')).toBe(false);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
  });
});
