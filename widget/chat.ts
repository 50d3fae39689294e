/**
 * The chat window of the web widget (spec 001 §2 "Floating chat window", §4 "Web chat", §9 sizes),
 * loaded by widget.js on the first open and mounted in the same shadow root as the floating button.
 *
 * - Header with the business name and "Asistente IA"; the greeting first; messages; the typing
 *   indicator "Escribiendo..."; the input "Escribe tu mensaje..." (all texts come from the config,
 *   in the bot's language).
 * - Enter sends, Shift+Enter makes a new line; an empty message is ignored; the input is disabled
 *   while a reply is pending and cleared when it arrives.
 * - Replies stream: `POST /api/web/:key/message` with `Accept: text/event-stream`, read with fetch
 *   and a ReadableStream (`token` events, then `done` with the JSON answer, or `error`).
 * - Files: an image (max 600 px high), a PDF link, audio (preload none) and video (preload metadata)
 *   players. A LIST offer shows the files as buttons that send the chosen file's name; the offered
 *   list and the files already sent go back with the next message (LIST stores the list, any other
 *   action clears it).
 * - The window stays open after a reply until the visitor closes it, on every screen size: spec 001
 *   §4's close 1 s after a reply belongs to the IALanding's chat bar, whose answers show in the
 *   content area above it; here the reply shows only in this window (issue 10).
 * - The input takes at most the server's MAX_MESSAGE_CHARS (engine/limits.ts); from 80 % of it a
 *   counter "n/8000" shows under the input, red at the limit.
 * - A stable visitor id per browser and key in localStorage; the conversation of this tab in
 *   sessionStorage, so it survives moving between the site's pages.
 * - Messages the business sent the visitor (a reservation reminder, an owner's reply) are fetched
 *   when the window opens and every 15 s while it is open (`GET /api/web/:key/pushed`).
 * - Not available (service off, no days left): the window says so and the input stays disabled.
 *   A network failure or a non-OK answer adds a bot message with the configured error text.
 * - Accessible: a dialog labelled by the business name, a log of messages, a status for typing,
 *   focus to the input 300 ms after opening, Escape closes and gives focus back to the button.
 */

import { MAX_MESSAGE_CHARS } from '../engine/limits.ts';
import { h, randomId, readEvents, stored, visitorId } from './chat-util.ts';
import {
  type Attachment,
  addStyles,
  type ChatContext,
  type ChatWindow,
  type FileRef,
  fetchConfig,
  type WidgetConfig,
  type WidgetReply,
  type WidgetTexts,
} from './shared.ts';

/** The chat UI's minified CSS (set by scripts/widget.mjs). */
declare const __CHAT_CSS__: string;

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
};

/** Spec 001 §9 timings. */
const FOCUS_DELAY_MS = 300;
/** The character counter shows from this many characters on (80 % of the limit). */
const COUNT_FROM = MAX_MESSAGE_CHARS * 0.8;
/** Messages kept in sessionStorage for the next page of the site. */
const KEPT_MESSAGES = 60;
/** How often an open window asks for messages the business sent (reminders, replies), ms. */
const PUSHED_POLL_MS = 15_000;

const CLOSE_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" d="M6 6l12 12M18 6 6 18"/></svg>';
const MIC_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.9V21h2v-3.1a7 7 0 0 0 6-6.9z"/></svg>';
const STOP_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="6" y="6" width="12" height="12" rx="2" fill="currentColor"/></svg>';
/** Longest voice message, ms. */
const MAX_RECORDING_MS = 120_000;
const SEND_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M3.4 20.4 21 12 3.4 3.6 3.4 10l12.6 2-12.6 2z"/></svg>';

/** One message of the window. */
interface Message {
  text: string;
  bot: boolean;
  error?: boolean;
  attachment?: Attachment | null;
  /** A spoken reply (`data:audio/ogg;base64,…`); not kept across pages. */
  voice?: string | null;
}

/** What a tab keeps of its conversation. */
interface Kept {
  messages: Message[];
  offered: FileRef[];
  sent: string[];
}

/** Mounts the chat window in the widget's shadow root (hidden until {@link ChatWindow.open}). */
export function mountChat(root: ShadowRoot, context: ChatContext): ChatWindow {
  addStyles(root, __CHAT_CSS__);
  const { host, key, launcher, layer } = context;
  const api = `${host}/api/web/${encodeURIComponent(key)}`;
  const visitor = visitorId(key);
  const keptSlot = stored(() => sessionStorage, `charla:${key}:chat`);
  // The last message the business sent this browser that was shown (adapters/web/pushed.ts).
  const pushedSlot = stored(() => localStorage, `charla:${key}:pushed`);
  let pushedTimer: ReturnType<typeof setInterval> | undefined;

  let config: WidgetConfig | null = context.config;
  let texts = config?.texts ?? FALLBACK_TEXTS;
  const messages: Message[] = [];
  let offered: FileRef[] = [];
  let sent: string[] = [];
  let pending = false;
  let available = true;
  let started = false;
  let isOpen = false;
  let focusTimer: ReturnType<typeof setTimeout> | undefined;
  let streamed: HTMLElement | null = null;
  let choices: HTMLElement | null = null;

  // The window.
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
  // A browser without a microphone API gets no button.
  const canRecord = typeof MediaRecorder !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia);
  let recorder: MediaRecorder | null = null;
  const bar = h('form', { class: 'bar' }, input, ...(canRecord ? [micButton] : []), sendButton);
  const win = h(
    'section',
    { class: 'win', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'charla-title', hidden: true },
    h('header', { class: 'head' }, avatar, h('div', { class: 'who' }, title, subtitle), closeButton),
    log,
    typing,
    bar,
    count,
  );
  layer.append(win);

  /** Puts the configuration's texts on the window. */
  function applyConfig(): void {
    texts = config?.texts ?? FALLBACK_TEXTS;
    const name = config?.business_name ?? '';
    title.textContent = name || texts.title;
    subtitle.textContent = texts.title;
    avatar.textContent = (name.trim()[0] ?? '•').toUpperCase();
    if (config?.lang) win.lang = config.lang;
    closeButton.setAttribute('aria-label', texts.close);
    closeButton.title = texts.close;
    input.placeholder = texts.placeholder;
    input.setAttribute('aria-label', texts.placeholder);
    sendButton.setAttribute('aria-label', texts.send);
    micButton.setAttribute('aria-label', recorder ? texts.stopRecording : texts.record);
    micButton.title = recorder ? texts.stopRecording : texts.record;
    sendButton.title = texts.send;
  }
  applyConfig();

  const scrollDown = () => {
    log.scrollTop = log.scrollHeight;
  };

  /** Enables or disables the input, the send button and the offered choices. */
  function refresh(): void {
    const blocked = pending || !available || !config;
    input.disabled = blocked;
    sendButton.disabled = blocked || !input.value.trim();
    micButton.disabled = blocked && !recorder;
    const length = input.value.length;
    count.hidden = length < COUNT_FROM;
    count.textContent = `${length}/${MAX_MESSAGE_CHARS}`;
    count.classList.toggle('full', length >= MAX_MESSAGE_CHARS);
    if (choices) for (const b of choices.querySelectorAll('button')) b.disabled = blocked;
  }

  function fileNode(a: Attachment): HTMLElement | null {
    const parsed = new URL(a.url, `${host}/`);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
    const url = parsed.href;
    switch (a.type) {
      case 'image': {
        const img = h('img', { class: 'file-img', src: url, alt: a.name });
        img.addEventListener('load', scrollDown, { once: true });
        return img;
      }
      case 'pdf':
        return h(
          'a',
          { class: 'file-pdf', href: url, target: '_blank', rel: 'noopener noreferrer' },
          h('span', { class: 'pdf-icon', 'aria-hidden': 'true' }, 'PDF'),
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

  function bubble(m: Message): HTMLElement {
    const body = h('div', { class: `msg${m.error ? ' err' : ''}` });
    if (m.text) body.append(h('p', { class: 'text' }, m.text));
    const file = m.attachment ? fileNode(m.attachment) : null;
    if (file) body.append(file);
    if (m.voice?.startsWith('data:audio/'))
      body.append(h('audio', { controls: true, src: m.voice, class: 'voice', 'aria-label': texts.record }));
    return h('div', { class: `row ${m.bot ? 'bot' : 'user'}` }, body);
  }

  /** Offers the files of a LIST as buttons that send the chosen file's name. */
  function offer(list: FileRef[], row: HTMLElement): void {
    choices?.remove();
    choices = null;
    if (!list.length) return;
    choices = h('div', { class: 'choices', role: 'group', 'aria-label': title.textContent ?? '' });
    for (const file of list) {
      const choice = h('button', { type: 'button', class: 'choice' }, file.file_name);
      choice.addEventListener('click', () => void send(file.file_name));
      choices.append(choice);
    }
    row.append(choices);
    refresh();
  }

  function keep(): void {
    const kept = messages.slice(-KEPT_MESSAGES).map(({ voice: _voice, ...m }) => m);
    keptSlot.set(JSON.stringify({ messages: kept, offered, sent } satisfies Kept));
  }

  function add(m: Message): HTMLElement {
    messages.push(m);
    const row = bubble(m);
    log.append(row);
    scrollDown();
    return row;
  }

  /** Makes the window say the bot is not available, and keeps the input disabled. */
  function unavailable(text: string): void {
    if (available && messages[messages.length - 1]?.text !== text) add({ text, bot: true });
    available = false;
    win.classList.add('off');
    refresh();
  }

  function setPending(on: boolean): void {
    pending = on;
    typing.replaceChildren();
    if (on)
      typing.append(
        h('span', { class: 'dots', 'aria-hidden': 'true' }, h('i'), h('i'), h('i')),
        texts.typing,
      );
    refresh();
  }

  /** Starts the conversation on the first open: the configuration, then this tab's messages or the greeting. */
  async function start(): Promise<void> {
    started = true;
    if (!config) {
      const fetched = await fetchConfig(host, key);
      config = fetched && fetched !== 'missing' ? fetched : null;
      applyConfig();
    }
    refresh();
    if (!config) {
      started = false; // the next open tries again
      if (messages[messages.length - 1]?.text !== texts.error) fail();
      return;
    }
    let kept: Kept | null = null;
    try {
      kept = JSON.parse(keptSlot.get() ?? 'null') as Kept | null;
    } catch {
      kept = null;
    }
    if (kept?.messages?.length) {
      let last: HTMLElement | null = null;
      for (const m of kept.messages) last = add(m);
      offered = kept.offered ?? [];
      sent = kept.sent ?? [];
      if (last && offered.length) offer(offered, last);
    } else if (config.available) {
      add({ text: config.greeting, bot: true });
    }
    if (!config.available) unavailable(config.unavailableText ?? texts.error);
  }

  /** The error text a non-OK answer carries, if any. */
  async function errorText(res: Response): Promise<string | null> {
    try {
      const body = (await res.json()) as { error?: unknown };
      return typeof body.error === 'string' && body.error ? body.error : null;
    } catch {
      return null;
    }
  }

  function fail(): void {
    add({ text: texts.error, bot: true, error: true });
  }

  /** Shows what the business sent this visitor since the last look (a reminder, an owner's reply). */
  async function fetchPushed(): Promise<void> {
    if (!config?.available) return;
    const after = pushedSlot.get();
    try {
      const res = await fetch(
        `${api}/pushed?visitorId=${encodeURIComponent(visitor)}${after ? `&after=${encodeURIComponent(after)}` : ''}`,
      );
      if (!res.ok) return;
      const body = (await res.json()) as { messages: Array<{ text: string }>; last: string | null };
      for (const m of body.messages) add({ text: m.text, bot: true });
      if (body.messages.length) keep();
      if (body.last) pushedSlot.set(body.last);
    } catch {
      // offline for a moment: the next look gets them
    }
  }

  async function send(raw: string): Promise<void> {
    const text = raw.trim();
    if (!text || pending || !available || !config) return;
    choices?.remove();
    choices = null;
    add({ text, bot: false });
    setPending(true);
    try {
      const res = await fetch(`${api}/message`, {
        method: 'POST',
        credentials: 'omit',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        // No messageHistory: the server keeps this visitor's conversation (by visitorId), which
        // outlives the page and cannot be made up by the page.
        body: JSON.stringify({
          userMessage: text,
          visitorId: visitor,
          messageId: randomId(),
          ...(offered.length ? { archivosMostrados: offered } : {}),
          ...(sent.length ? { archivosEnviados: sent } : {}),
        }),
      });
      if (res.status === 403) {
        unavailable((await errorText(res)) ?? config.unavailableText ?? texts.error);
        return;
      }
      if (!res.ok) return fail();
      let reply: WidgetReply | null = null;
      let failed = false;
      if (res.body && (res.headers.get('content-type') ?? '').includes('text/event-stream')) {
        await readEvents(res.body, (event, data) => {
          if (event === 'token') {
            streamed ??= log.appendChild(
              h(
                'div',
                { class: 'row bot', 'aria-hidden': 'true' },
                h('div', { class: 'msg' }, h('p', { class: 'text' })),
              ),
            );
            streamed.querySelector('.text')!.textContent += (data as { text: string }).text;
            scrollDown();
          } else if (event === 'done') reply = data as WidgetReply;
          else if (event === 'error') failed = true;
        });
      } else {
        reply = (await res.json()) as WidgetReply;
      }
      streamed?.remove();
      streamed = null;
      const answer = reply as WidgetReply | null;
      if (failed || !answer) return fail();
      showAnswer(answer);
      if (!isOpen) launcher.setUnread(true);
    } catch {
      fail();
    } finally {
      streamed?.remove();
      streamed = null;
      input.value = '';
      resize();
      setPending(false);
      keep();
      if (isOpen && document.activeElement === document.body) input.focus();
    }
  }

  /** Shows the bot's answer and offers the files it lists; returns the answer's row. */
  function showAnswer(answer: WidgetReply): HTMLElement {
    const row = add({
      text: answer.reply,
      bot: true,
      attachment: answer.attachment,
      voice: answer.voice ?? null,
    });
    const { archivos } = answer.contenedorEmpatico;
    sent = answer.archivosEnviados;
    offered = archivos.action === 'LIST' ? archivos.lista : [];
    offer(offered, row);
    return row;
  }

  /** The microphone button: starts a recording, or stops it and sends it as a voice message. */
  async function toggleRecording(): Promise<void> {
    if (recorder) {
      recorder.stop();
      return;
    }
    if (pending || !available || !config) return;
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      add({ text: texts.micError, bot: true, error: true });
      return;
    }
    const chunks: Blob[] = [];
    const r = new MediaRecorder(stream);
    recorder = r;
    const cap = setTimeout(() => r.state === 'recording' && r.stop(), MAX_RECORDING_MS);
    r.ondataavailable = (e) => {
      if (e.data.size) chunks.push(e.data);
    };
    r.onstop = () => {
      clearTimeout(cap);
      for (const track of stream.getTracks()) track.stop();
      recorder = null;
      micButton.classList.remove('rec');
      micButton.innerHTML = MIC_ICON;
      micButton.setAttribute('aria-pressed', 'false');
      applyConfig();
      void sendVoice(new Blob(chunks, { type: r.mimeType || 'audio/webm' }));
    };
    r.start(250);
    micButton.classList.add('rec');
    micButton.innerHTML = STOP_ICON;
    micButton.setAttribute('aria-pressed', 'true');
    applyConfig();
  }

  /** Sends a recording; the visitor's bubble shows what the bot heard, the reply may be spoken. */
  async function sendVoice(recording: Blob): Promise<void> {
    if (!recording.size || pending || !config) return;
    choices?.remove();
    choices = null;
    const mine = add({ text: '🎤 …', bot: false });
    setPending(true);
    try {
      const form = new FormData();
      form.append('visitorId', visitor);
      form.append('messageId', randomId());
      form.append('audio', recording, 'voz.webm');
      const res = await fetch(`${api}/voice`, { method: 'POST', credentials: 'omit', body: form });
      if (res.status === 403) {
        unavailable((await errorText(res)) ?? config.unavailableText ?? texts.error);
        return;
      }
      if (!res.ok) return fail();
      const answer = (await res.json()) as WidgetReply;
      const heard = `🎤 ${answer.heard && !answer.heard.startsWith('[') ? answer.heard : ''}`.trim();
      mine.querySelector('.text')!.textContent = heard;
      messages[messages.length - 1]!.text = heard;
      const row = showAnswer(answer);
      // The visitor just spoke: play the answer (the click on the microphone allows it).
      void row
        .querySelector<HTMLAudioElement>('audio.voice')
        ?.play()
        .catch(() => {});
    } catch {
      fail();
    } finally {
      setPending(false);
      keep();
    }
  }

  function resize(): void {
    input.style.height = '';
    if (input.scrollHeight > input.clientHeight)
      input.style.height = `${Math.min(input.scrollHeight + 2, 120)}px`;
  }

  function open(): void {
    if (!started) void start().then(fetchPushed);
    else void fetchPushed();
    if (isOpen) return;
    isOpen = true;
    clearInterval(pushedTimer);
    pushedTimer = setInterval(() => void fetchPushed(), PUSHED_POLL_MS);
    win.hidden = false;
    launcher.setOpen(true);
    scrollDown();
    clearTimeout(focusTimer);
    focusTimer = setTimeout(() => (input.disabled ? closeButton : input).focus(), FOCUS_DELAY_MS);
  }

  function close(): void {
    clearTimeout(focusTimer);
    if (!isOpen) return;
    isOpen = false;
    clearInterval(pushedTimer);
    win.hidden = true;
    launcher.setOpen(false);
    launcher.focus();
  }

  closeButton.addEventListener('click', close);
  micButton.addEventListener('click', () => void toggleRecording());
  bar.addEventListener('submit', (e) => {
    e.preventDefault();
    void send(input.value);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void send(input.value);
    }
  });
  input.addEventListener('input', () => {
    resize();
    refresh();
  });
  win.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      close();
    }
  });

  return { open, close };
}
