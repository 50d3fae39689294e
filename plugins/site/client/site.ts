/**
 * The public site's only eager script (issue 16 §2: the pages are HTML from the server; this adds
 * what needs a browser). A few hundred bytes gzipped, so the home page stays far under its 60 KB
 * budget:
 * - the language selector keeps the query and the hash and reloads after 100 ms (spec 001 §4,
 *   §9 "language switch reload 100 ms"); a `languageChanged` event carrying a language does the same;
 * - the assistant's button loads its React island (./assistant.tsx) on the first click;
 * - the like (once per browser, `likedBots`, count shown at once) and share (Web Share API, else
 *   copy the address) buttons of the directory and the bot pages, and the directory's category
 *   filter, sent on change.
 */

/** Spec 001 §9: language switch reload delay, ms. */
const LANGUAGE_RELOAD_MS = 100;
/** Spec 001 §9: copy confirmation, ms. */
const COPIED_MS = 2000;
const LIKED = 'likedBots';
const VISITOR = 'facebotsVisitor';
const LANGS = ['es', 'en', 'fr', 'de', 'it', 'hi', 'ru'];

/** Goes to `href` in another language, keeping this page's query and hash. */
function switchTo(href: string): void {
  const url = new URL(href, location.href);
  url.search = location.search;
  url.hash = location.hash;
  setTimeout(() => location.assign(url.href), LANGUAGE_RELOAD_MS);
}

/** The same page in `lang` (spec 001 §4: the first path segment is the language). */
function pathIn(lang: string): string {
  const parts = location.pathname.split('/').filter(Boolean);
  if (LANGS.includes(parts[0] ?? '')) parts.shift();
  const rest = parts.join('/');
  const prefix = lang === 'es' ? '' : `/${lang}`;
  return rest ? `${prefix}/${rest}` : `${prefix}/`;
}

function likedBots(): string[] {
  try {
    const list = JSON.parse(localStorage.getItem(LIKED) ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function visitor(): string {
  let id = localStorage.getItem(VISITOR);
  if (!id) {
    id = `v-${crypto.randomUUID()}`;
    localStorage.setItem(VISITOR, id);
  }
  return id;
}

function compact(n: number): string {
  return new Intl.NumberFormat(document.documentElement.lang, {
    notation: 'compact',
    maximumFractionDigits: 1,
  }).format(n);
}

function showLiked(button: HTMLElement): void {
  button.setAttribute('aria-pressed', 'true');
  button.textContent = `♥ ${button.dataset.likedText ?? ''}`;
}

async function like(button: HTMLElement): Promise<void> {
  const id = button.dataset.like ?? '';
  if (likedBots().includes(id)) return;
  localStorage.setItem(LIKED, JSON.stringify([...likedBots(), id]));
  showLiked(button);
  const count = document.querySelector<HTMLElement>(`[data-like-count="${CSS.escape(id)}"]`);
  const before = Number(button.dataset.count ?? '0');
  if (count) count.textContent = compact(before + 1);
  try {
    const res = await fetch(`/api/facebots/${encodeURIComponent(id)}/like`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ visitorId: visitor() }),
    });
    if (res.ok && count) count.textContent = compact(((await res.json()) as { likes: number }).likes);
  } catch {
    // Offline: the browser remembers the like; the count shown stays.
  }
}

async function share(button: HTMLElement): Promise<void> {
  const url = new URL(button.dataset.url ?? location.href.split('#')[0] ?? location.href, location.href).href;
  if (navigator.share) {
    try {
      await navigator.share({ title: button.dataset.share ?? document.title, url });
      return;
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
    }
  }
  await navigator.clipboard?.writeText(url).catch(() => {});
  const status = document.querySelector<HTMLElement>('[data-share-status]');
  if (status) {
    status.textContent = button.dataset.copied ?? '';
    setTimeout(() => {
      status.textContent = '';
    }, COPIED_MS);
  }
}

/** The island, once asked for (a second click while it loads does not load it twice). */
const island: { loading?: Promise<void> } = {};

function openAssistant(): void {
  const root = document.getElementById('assistant');
  if (!root) return;
  island.loading ??= import('./assistant.tsx').then(({ mountAssistant }) => mountAssistant(root));
}

document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target : null;
  if (!target) return;
  const langLink = target.closest<HTMLAnchorElement>('a[data-lang-switch]');
  if (langLink && !event.metaKey && !event.ctrlKey && !event.shiftKey) {
    event.preventDefault();
    switchTo(langLink.href);
    return;
  }
  if (target.closest('[data-assistant-open]')) {
    openAssistant();
    return;
  }
  const likeButton = target.closest<HTMLElement>('[data-like]');
  if (likeButton) {
    void like(likeButton);
    return;
  }
  const shareButton = target.closest<HTMLElement>('[data-share]');
  if (shareButton) void share(shareButton);
});

// The directory's category filter is sent as soon as it changes.
document.addEventListener('change', (event) => {
  const select = event.target instanceof HTMLSelectElement ? event.target : null;
  if (select?.hasAttribute('data-autosubmit')) select.form?.requestSubmit();
});

// Spec 001 §4: the language can also change through a `languageChanged` event carrying a language.
window.addEventListener('languageChanged', (event) => {
  const lang = (event as CustomEvent<{ language?: string } | string>).detail;
  const code = typeof lang === 'string' ? lang : lang?.language;
  if (code && LANGS.includes(code)) switchTo(pathIn(code));
});

for (const button of document.querySelectorAll<HTMLElement>('[data-like]')) {
  if (likedBots().includes(button.dataset.like ?? '')) showLiked(button);
}
