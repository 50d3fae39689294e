/**
 * The public IALanding's island: the server sends the whole page as HTML (adapters/web/
 * ialanding-page.ts, rendered by ialanding-ssr.tsx from the same components with React), and this
 * script hydrates it so the chat, the file library and the offers work. It reads the landing and its
 * texts from the page's `#ialanding-data` JSON, so it makes no request of its own before the visitor
 * writes, and it carries no router, query client or dictionary. Text typed and a button tapped
 * before it was live are taken over. Built by scripts/site.mjs into
 * dist/site with Preact's React-compatible runtime in place of react-dom (issue 16: 28 KB instead of
 * 88 KB gzip, and a slow phone's main thread is not held for a quarter of a second).
 */
import { hydrateRoot } from 'react-dom/client';
import { Landing } from './components/IalandingPage.tsx';
import { landingTranslator } from './lib/landing-texts.ts';
import type { IalandingPageData } from './lib/web-chat.ts';

const data = document.getElementById('ialanding-data')?.textContent;
const root = document.getElementById('root');
if (data && root) {
  const { landing, texts } = JSON.parse(data) as IalandingPageData;
  const t = landingTranslator(landing.lang, texts);
  // Hydrate in a task of its own, after the one that evaluated this script: two short tasks
  // instead of one long one on a slow phone.
  setTimeout(() => {
    // What the visitor typed into the page before it was live: the chat bar takes it over.
    const typed = root.querySelector('textarea')?.value ?? '';
    hydrateRoot(root, <Landing data={landing} lang={landing.lang} t={t} typed={typed} />);
    // A button tapped before now (the page's inline script kept it): tap it again, live.
    const early = (window as { __charlaEarlyTap?: HTMLButtonElement }).__charlaEarlyTap;
    if (early) setTimeout(() => early.isConnected && early.click(), 0);
  }, 0);
}
