/**
 * widget.js, the loader a business's website runs (through the snippet of {@link ./snippet.ts}):
 * for each `<div data-charla-key>` on the page it opens a Shadow DOM, fetches the bot's web
 * configuration and shows one floating button labelled in the bot's language. The chat UI
 * (chat-<hash>.js, its styles inside) is imported from the app host only when the visitor first
 * opens the chat. Vanilla TypeScript, no framework: it runs on every page view of the site.
 */
import { addStyles, type ChatModule, type ChatWindow, fetchConfig, type Launcher } from './shared.ts';

/** File name of the chat UI chunk in dist/widget (set by scripts/widget.mjs). */
declare const __CHAT_FILE__: string;
/** The loader's minified CSS (set by scripts/widget.mjs). */
declare const __LOADER_CSS__: string;

const ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M12 3C6.5 3 2 6.9 2 11.7c0 2.4 1.1 4.6 3 6.2-.2 1.4-.8 2.7-1.8 3.7 2 0 3.8-.7 5.2-1.8 1.1.3 2.3.5 3.6.5 5.5 0 10-3.9 10-8.6S17.5 3 12 3Zm-4.5 10a1.3 1.3 0 1 1 0-2.6 1.3 1.3 0 0 1 0 2.6Zm4.5 0a1.3 1.3 0 1 1 0-2.6 1.3 1.3 0 0 1 0 2.6Zm4.5 0a1.3 1.3 0 1 1 0-2.6 1.3 1.3 0 0 1 0 2.6Z"/></svg>';

const current = document.currentScript;
/** Origin of widget.js itself: the app host when the container does not name one. */
const scriptHost = current instanceof HTMLScriptElement && current.src ? new URL(current.src).origin : '';

/** Mounts the widget in one container (once). */
function mount(container: HTMLElement): void {
  const key = container.dataset.charlaKey?.trim();
  const host = (container.dataset.charlaHost || scriptHost).replace(/\/+$/, '');
  if (!key || !host || container.shadowRoot) return;
  const root = container.attachShadow({ mode: 'open' });
  addStyles(root, __LOADER_CSS__);
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'launch';
  button.hidden = true;
  button.setAttribute('aria-haspopup', 'dialog');
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-label', 'Chat');
  button.innerHTML = `${ICON}<span class="dot" hidden></span>`;
  const dot = button.lastElementChild as HTMLElement;
  // Everything lives in one layer. Shown as a popover it goes to the top layer, where the page's
  // stacking, opacity, filters and transforms of its ancestors no longer reach it.
  const layer = document.createElement('div');
  layer.className = 'layer';
  layer.append(button);
  root.append(layer);
  if (typeof layer.showPopover === 'function') {
    layer.setAttribute('popover', 'manual');
    try {
      layer.showPopover();
    } catch {
      // Not in the top layer: the layer stays a fixed box above the page (z-index).
    }
  }

  const launcher: Launcher = {
    setOpen(open) {
      button.hidden = open;
      button.setAttribute('aria-expanded', String(open));
      if (open) dot.hidden = true;
    },
    setUnread(unread) {
      dot.hidden = !unread;
    },
    focus() {
      button.focus();
    },
  };

  const loadingConfig = fetchConfig(host, key);
  void loadingConfig.then((config) => {
    // An unknown key shows nothing: there is no bot to talk to.
    if (config === 'missing') return button.remove();
    if (config) {
      button.setAttribute('aria-label', config.texts.open);
      button.title = config.texts.open;
    }
    button.hidden = false;
  });

  let chat: ChatWindow | null = null;
  let loading = false;
  let attempt = 0;
  button.addEventListener('click', async () => {
    if (chat) return chat.open();
    if (loading) return;
    loading = true;
    button.classList.add('busy');
    button.setAttribute('aria-busy', 'true');
    try {
      const config = await loadingConfig;
      // A failed import is not retried from the module map: a new query string makes a new request.
      const url = `${host}/widget/${__CHAT_FILE__}${attempt++ ? `?retry=${attempt}` : ''}`;
      const module = (await import(url)) as ChatModule;
      chat = module.mountChat(root, {
        layer,
        host,
        key,
        config: config && config !== 'missing' ? config : null,
        launcher,
      });
      chat.open();
    } catch {
      // The chat UI did not load (network): the next click tries again.
    } finally {
      loading = false;
      button.classList.remove('busy');
      button.removeAttribute('aria-busy');
    }
  });
}

/** Mounts every container on the page that is not mounted yet. */
function scan(): void {
  for (const container of document.querySelectorAll<HTMLElement>('[data-charla-key]')) mount(container);
}

const page = window as Window & { __charlaWidget?: { scan: () => void } };
if (page.__charlaWidget) {
  page.__charlaWidget.scan();
} else {
  page.__charlaWidget = { scan };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan);
  else scan();
}
