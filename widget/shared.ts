/**
 * What the widget's two parts share: the bot's public web configuration
 * (`GET /api/web/:key/config`), the reply of `POST /api/web/:key/message`, the contract between the
 * loader (widget.js, the floating button) and the chat UI it loads on the first open, and the small
 * helpers each part bundles its own copy of.
 */
import type { ArchivosBlock, Attachment } from '../engine/schemas.ts';

export type { Attachment, FileRef } from '../engine/schemas.ts';

/** The interface texts of the widget, already in the bot's language (the server's type). */
import type { WidgetTexts } from '../adapters/web/texts.ts';

export type { WidgetTexts };

/** `GET /api/web/:key/config`. */
export interface WidgetConfig {
  chatbotId: string;
  business_name: string;
  idioma: string;
  /** es, en, fr, de, it, ru or hi. */
  lang: string;
  greeting: string;
  /** False when the owner switched the web service off or has no days left. */
  available: boolean;
  /** What the window says when the bot is not available. */
  unavailableText: string | null;
  texts: WidgetTexts;
  /** Issue 27 §3: who the visitor sees when the owner writes (their name, else "Equipo de …"). */
  person?: string;
}

/** `POST /api/web/:key/message` (the `done` event of the stream). */
export interface WidgetReply {
  reply: string;
  attachment: Attachment | null;
  archivosEnviados: string[];
  contenedorEmpatico: { archivos: ArchivosBlock };
  offline: boolean;
  duplicate: boolean;
  /** True when the bot stayed quiet (a person took the conversation over): nothing to show. */
  silent?: boolean;
  /** The visitor's message as the bot understood it (a voice message's transcript). */
  heard?: string;
  /** The reply as a voice note (`data:audio/ogg;base64,…`) when the bot speaks. */
  voice?: string | null;
  /** Issue 29: what a plugin offers to pick (free slots); sending a label picks it. */
  choices?: Array<{ id: string; label: string }>;
}

/** What the loader lends the chat UI: its floating button. */
export interface Launcher {
  /** Shows or hides the floating button (hidden while the window is open). */
  setOpen(open: boolean): void;
  /** Marks an unread reply on the button. */
  setUnread(unread: boolean): void;
  focus(): void;
}

/** What the loader passes to the chat UI. */
export interface ChatContext {
  /** Where the chat window goes: the loader's layer in the shadow root (top layer when supported). */
  layer: HTMLElement;
  /** The app's origin, e.g. "https://charla.example.com". */
  host: string;
  key: string;
  /** The configuration the loader fetched, or null when that failed (the chat UI tries again). */
  config: WidgetConfig | null;
  launcher: Launcher;
}

/** The chat UI, mounted once in the widget's shadow root. */
export interface ChatWindow {
  open(): void;
  close(): void;
}

/** The chat UI module (dist/widget/chat-<hash>.js). */
export interface ChatModule {
  mountChat(root: ShadowRoot, context: ChatContext): ChatWindow;
}

/** The base address of a key's web routes (`<host>/api/web/<key>`). */
export const webApi = (host: string, key: string) => `${host}/api/web/${encodeURIComponent(key)}`;

/** The config route of a key. */
export const configUrl = (host: string, key: string) => `${webApi(host, key)}/config`;

/** Fetches a key's configuration: the config, 'missing' for an unknown key (404), or null on failure. */
export async function fetchConfig(host: string, key: string): Promise<WidgetConfig | 'missing' | null> {
  try {
    const res = await fetch(configUrl(host, key), { credentials: 'omit' });
    if (res.status === 404) return 'missing';
    if (!res.ok) return null;
    return (await res.json()) as WidgetConfig;
  } catch {
    return null;
  }
}

/**
 * Adds a style sheet to a shadow root: a constructed sheet where supported (a host page's CSP on
 * inline styles does not apply to it), else a <style> element.
 */
export function addStyles(root: ShadowRoot, css: string): void {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } catch {
    const style = document.createElement('style');
    style.textContent = css;
    root.prepend(style);
  }
}
