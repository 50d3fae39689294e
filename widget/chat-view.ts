/**
 * The chat window's DOM (widget/chat.ts): the window with its header, log, typing status, input
 * bar and character counter; the interface texts put on it; the message bubbles with their files
 * (an image, a PDF link, audio and video players, a spoken reply); the row a streamed reply grows
 * in; the buttons of a LIST offer. Building only: the behaviour stays in widget/chat.ts.
 */
import { MAX_MESSAGE_CHARS } from '../engine/limits.ts';
import type { Message } from './chat-store.ts';
import { h } from './chat-util.ts';
import { MIC_ICON } from './chat-voice.ts';
import type { Attachment, WidgetConfig, WidgetTexts } from './shared.ts';

/** Texts used only when the configuration cannot be loaded at all (Spanish, the default language). */
const FALLBACK_TEXTS: WidgetTexts = {
  title: 'Asistente IA',
  typing: 'Escribiendo...',
  placeholder: 'Escribe tu mensaje...',
  send: 'Enviar',
  open: 'Abrir chat',
  close: 'Cerrar',
  error: 'Lo siento, estoy teniendo problemas técnicos. ¿Puedes intentar de nuevo en un momento? 😅',
  openFile: 'Abrir archivo',
  record: 'Grabar un mensaje de voz',
  stopRecording: 'Detener y enviar',
  micError: 'No se pudo acceder al micrófono.',
  team: 'Equipo de {business}',
  person: 'Te atiende una persona',
  personNote: 'Te responderá una persona en cuanto pueda.',
};

/** The character counter shows from this many characters on (80 % of the limit). */
const COUNT_FROM = MAX_MESSAGE_CHARS * 0.8;

const CLOSE_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" d="M6 6l12 12M18 6 6 18"/></svg>';
const SEND_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M3.4 20.4 21 12 3.4 3.6 3.4 10l12.6 2-12.6 2z"/></svg>';

/** The elements of the chat window. */
export interface ChatView {
  /** The dialog itself (hidden until opened). */
  win: HTMLElement;
  title: HTMLHeadingElement;
  subtitle: HTMLParagraphElement;
  avatar: HTMLSpanElement;
  closeButton: HTMLButtonElement;
  /** The messages. */
  log: HTMLDivElement;
  /** "Escribiendo..." while a reply is pending. */
  typing: HTMLDivElement;
  /** The character counter under the input. */
  count: HTMLParagraphElement;
  input: HTMLTextAreaElement;
  sendButton: HTMLButtonElement;
  /** In the form only when the browser can record. */
  micButton: HTMLButtonElement;
  bar: HTMLFormElement;
}

/** The texts in effect: the configuration's, or the Spanish fallback when there is none. */
export function textsOf(config: WidgetConfig | null): WidgetTexts {
  return config?.texts ?? FALLBACK_TEXTS;
}

/** Builds the chat window, hidden, with a microphone button when `withMic`. */
export function buildWindow(withMic: boolean): ChatView {
  const title = h('h2', { class: 'name', id: 'charla-title' });
  const subtitle = h('p', { class: 'sub' });
  const avatar = h('span', { class: 'avatar', 'aria-hidden': 'true' });
  const closeButton = h('button', { type: 'button', class: 'close' });
  closeButton.innerHTML = CLOSE_ICON;
  const log = h('div', { class: 'log', role: 'log', tabindex: '0', 'aria-labelledby': 'charla-title' });
  const typing = h('div', { class: 'typing', role: 'status' });
  const count = h('p', { class: 'count', id: 'charla-count', hidden: true });
  const input = h('textarea', {
    class: 'input',
    rows: '1',
    maxlength: String(MAX_MESSAGE_CHARS),
    'aria-describedby': 'charla-count',
  });
  const sendButton = h('button', { type: 'submit', class: 'send', disabled: true });
  sendButton.innerHTML = SEND_ICON;
  const micButton = h('button', { type: 'button', class: 'mic' });
  micButton.innerHTML = MIC_ICON;
  const bar = h('form', { class: 'bar' }, input, ...(withMic ? [micButton] : []), sendButton);
  const win = h(
    'section',
    { class: 'win', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'charla-title', hidden: true },
    h('header', { class: 'head' }, avatar, h('div', { class: 'who' }, title, subtitle), closeButton),
    log,
    typing,
    bar,
    count,
  );
  return { win, title, subtitle, avatar, closeButton, log, typing, count, input, sendButton, micButton, bar };
}

/** Puts the configuration's name, language and texts on the window (the microphone's by `recording`). */
export function showTexts(
  view: ChatView,
  config: WidgetConfig | null,
  texts: WidgetTexts,
  recording: boolean,
): void {
  const { win, title, subtitle, avatar, closeButton, input, sendButton, micButton } = view;
  const name = config?.business_name ?? '';
  title.textContent = name || texts.title;
  subtitle.textContent = win.classList.contains('in') ? texts.person : texts.title;
  avatar.textContent = (name.trim()[0] ?? '•').toUpperCase();
  if (config?.lang) win.lang = config.lang;
  closeButton.setAttribute('aria-label', texts.close);
  closeButton.title = texts.close;
  input.placeholder = texts.placeholder;
  input.setAttribute('aria-label', texts.placeholder);
  sendButton.setAttribute('aria-label', texts.send);
  micButton.setAttribute('aria-label', recording ? texts.stopRecording : texts.record);
  micButton.title = recording ? texts.stopRecording : texts.record;
  sendButton.title = texts.send;
}

/**
 * Issue 27 §3: marks the header while a person answers (the bot is paused for this visitor): the
 * subtitle says so (`texts.person`) instead of "Asistente IA".
 */
export function showPerson(view: ChatView, texts: WidgetTexts, on: boolean): void {
  view.win.classList.toggle('in', on);
  view.subtitle.textContent = on ? texts.person : texts.title;
}

/** Shows the counter "n/8000" from 80 % of the limit on, marked `full` at the limit. */
export function showCount(count: HTMLElement, length: number): void {
  count.hidden = length < COUNT_FROM;
  count.textContent = `${length}/${MAX_MESSAGE_CHARS}`;
  count.classList.toggle('full', length >= MAX_MESSAGE_CHARS);
}

/** Grows the input with its text, up to 120 px. */
export function fitInput(input: HTMLTextAreaElement): void {
  input.style.height = '';
  if (input.scrollHeight > input.clientHeight)
    input.style.height = `${Math.min(input.scrollHeight + 2, 120)}px`;
}

/** Shows the typing indicator with `text`, or nothing when `text` is null. */
export function showTyping(typing: HTMLElement, text: string | null): void {
  typing.replaceChildren();
  if (text !== null)
    typing.append(h('span', { class: 'dots', 'aria-hidden': 'true' }, h('i'), h('i'), h('i')), text);
}

/**
 * A file of a message, or null for an address that is not http(s): `host` resolves a relative
 * address; `onLoad` runs when an image has loaded (its height is known then).
 */
function fileNode(a: Attachment, host: string, texts: WidgetTexts, onLoad: () => void): HTMLElement | null {
  const parsed = new URL(a.url, `${host}/`);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  const url = parsed.href;
  switch (a.type) {
    case 'image': {
      const img = h('img', { class: 'file-img', src: url, alt: a.name });
      img.addEventListener('load', onLoad, { once: true });
      return img;
    }
    case 'pdf':
    case 'document':
      return h(
        'a',
        { class: 'file-pdf', href: url, target: '_blank', rel: 'noopener noreferrer' },
        h('span', { class: 'pdf-icon', 'aria-hidden': 'true' }, a.type === 'pdf' ? 'PDF' : 'DOC'),
        h('span', { class: 'fname' }, a.name),
        h('span', { class: 'sr' }, ` (${texts.openFile})`),
      );
    case 'audio':
      return h('audio', { controls: true, preload: 'none', src: url, 'aria-label': a.name });
    default:
      return h('video', {
        controls: true,
        preload: 'metadata',
        playsinline: true,
        src: url,
        'aria-label': a.name,
      });
  }
}

/**
 * A message's row: its text, its file and its spoken reply. `host` resolves a file's relative
 * address; `onLoad` runs when an image in it has loaded.
 */
export function messageRow(m: Message, host: string, texts: WidgetTexts, onLoad: () => void): HTMLElement {
  if (m.note) return h('div', { class: 'row note' }, m.text);
  const body = h('div', { class: `msg${m.error ? ' err' : ''}` });
  if (m.person) body.append(h('p', { class: 'by' }, m.person));
  if (m.text) body.append(h('p', { class: 'text' }, m.text));
  const file = m.attachment ? fileNode(m.attachment, host, texts, onLoad) : null;
  if (file) body.append(file);
  if (m.voice?.startsWith('data:audio/'))
    body.append(h('audio', { controls: true, src: m.voice, class: 'voice', 'aria-label': texts.record }));
  return h('div', { class: `row ${m.bot ? 'bot' : 'user'}${m.person ? ' person' : ''}` }, body);
}

/** The row a streamed reply grows in (hidden from screen readers: the full reply follows). */
export function streamingRow(): HTMLElement {
  return h(
    'div',
    { class: 'row bot', 'aria-hidden': 'true' },
    h('div', { class: 'msg' }, h('p', { class: 'text' })),
  );
}

/**
 * The buttons of an offer (a LIST's file names, or a plugin's choices such as free slots: issue
 * 29), labelled `label`; a click calls `onChoose` with the button's text.
 */
export function choiceGroup(names: string[], label: string, onChoose: (name: string) => void): HTMLElement {
  const choices = h('div', { class: 'choices', role: 'group', 'aria-label': label });
  for (const name of names) {
    const choice = h('button', { type: 'button', class: 'choice' }, name);
    choice.addEventListener('click', () => onChoose(name));
    choices.append(choice);
  }
  return choices;
}
