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
 * - Messages the business sends the visitor (a reservation reminder, an owner's reply, a broadcast)
 *   show within about a second while the window is open: a live stream (EventSource on
 *   `GET /api/web/:key/pushed/stream`, issue 26 §2), with a poll of `GET /api/web/:key/pushed`
 *   every 60 s as a backstop, or every 15 s when the stream cannot open. Each shows once (the
 *   newest shown id is kept in localStorage).
 * - Issue 27 §3, takeover as the visitor sees it: the owner's messages show as a person (their name,
 *   else "Equipo de <business>") in an amber bubble, with their file; while a person answers the
 *   header says so; a quiet turn (the bot paused for this visitor) adds no bubble, only once the
 *   note "Te responderá una persona". A tab with nothing kept restores the visitor's thread from
 *   `GET /api/web/:key/history` (a new tab, the next day).
 * - Not available (service off, no days left): the window says so and the input stays disabled.
 *   A network failure or a non-OK answer adds a bot message with the configured error text.
 * - Accessible: a dialog labelled by the business name, a log of messages, a status for typing,
 *   focus to the input 300 ms after opening, Escape closes and gives focus back to the button.
 *
 * This file holds the window's behaviour; its parts: chat-view.ts (the DOM), chat-net.ts (the
 * server's routes), chat-pushed.ts (what the business sends), chat-voice.ts (the microphone),
 * chat-store.ts (what the browser keeps) and
 * chat-util.ts (small helpers).
 */

import { type Outcome, type PushedMessage, postMessage, postVoice } from './chat-net.ts';
import { pushedListener, serverMessage } from './chat-pushed.ts';
import { keptConversation, type Message, pushedMark } from './chat-store.ts';
import { visitorId } from './chat-util.ts';
import {
  buildWindow,
  choiceGroup,
  fitInput,
  messageRow,
  showCount,
  showPerson,
  showTexts,
  showTyping,
  streamingRow,
  textsOf,
} from './chat-view.ts';
import { canRecord, voiceRecorder } from './chat-voice.ts';
import {
  addStyles,
  type ChatContext,
  type ChatWindow,
  type FileRef,
  fetchConfig,
  type WidgetReply,
  webApi,
} from './shared.ts';

/** The chat UI's minified CSS (set by scripts/widget.mjs). */
declare const __CHAT_CSS__: string;

/** Spec 001 §9 timings. */
const FOCUS_DELAY_MS = 300;

/** Mounts the chat window in the widget's shadow root (hidden until {@link ChatWindow.open}). */
export function mountChat(root: ShadowRoot, context: ChatContext): ChatWindow {
  addStyles(root, __CHAT_CSS__);
  const { host, key, launcher, layer } = context;
  const api = webApi(host, key);
  const visitor = visitorId(key);
  const keptSlot = keptConversation(key);
  const pushed = pushedListener(api, visitor, pushedMark(key), showPushed);

  let config = context.config;
  let texts = textsOf(config);
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
  /** Whether this pause's note "a person will reply" was shown (issue 27 §3). */
  let noted = false;

  // The window; a browser without a microphone API gets no microphone button.
  const view = buildWindow(canRecord());
  const { win, closeButton, log, typing, count, input, sendButton, micButton, bar } = view;
  const mic = voiceRecorder(micButton, {
    blocked: () => pending || !available || !config,
    changed: applyConfig,
    denied: () => void add({ text: texts.micError, bot: true, error: true }),
    recorded: (recording) => void sendVoice(recording),
  });
  layer.append(win);

  /** Puts the configuration's texts on the window. */
  function applyConfig(): void {
    texts = textsOf(config);
    showTexts(view, config, texts, mic.recording);
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
    micButton.disabled = blocked && !mic.recording;
    showCount(count, input.value.length);
    if (choices) for (const b of choices.querySelectorAll('button')) b.disabled = blocked;
  }

  /** Removes the offered choices. */
  function dropChoices(): void {
    choices?.remove();
    choices = null;
  }

  /** Offers the files of a LIST (their names) or a plugin's choices as buttons that send the text. */
  function offer(names: string[], row: HTMLElement): void {
    dropChoices();
    if (!names.length) return;
    choices = choiceGroup(names, view.title.textContent ?? '', (name) => void send(name));
    row.append(choices);
    refresh();
  }

  /** Keeps this tab's conversation for the site's next page. */
  function keep(): void {
    keptSlot.save(messages, offered, sent);
  }

  /** Adds a message to the window and scrolls to it; returns its row. */
  function add(m: Message): HTMLElement {
    messages.push(m);
    const row = messageRow(m, host, texts, scrollDown);
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

  /** Marks a reply pending (the typing indicator, the input disabled) or arrived. */
  function setPending(on: boolean): void {
    pending = on;
    showTyping(typing, on ? texts.typing : null);
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
    const kept = keptSlot.load();
    if (kept?.messages?.length) {
      let last: HTMLElement | null = null;
      for (const m of kept.messages) last = add(m);
      offered = kept.offered ?? [];
      sent = kept.sent ?? [];
      if (last && offered.length)
        offer(
          offered.map((f) => f.file_name),
          last,
        );
    } else {
      if (config.available) add({ text: config.greeting, bot: true });
      // Issue 27 §3: a returning visitor (a new tab, the next day) sees their thread again.
      const past = await pushed.history();
      for (const m of past) add(serverMessage(m, config.person));
      const lastAnswer = past.filter((m) => m.from !== 'user' && !m.broadcast).at(-1);
      if (lastAnswer?.from === 'owner') answering(true);
      if (past.length) keep();
    }
    if (!config.available) unavailable(config.unavailableText ?? texts.error);
  }

  /** Adds the configured error text as a bot message. */
  function fail(): void {
    add({ text: texts.error, bot: true, error: true });
  }

  /** The reply of an outcome; a refusal makes the window unavailable, a failure says so (then null). */
  function replyOf(outcome: Outcome): WidgetReply | null {
    if (outcome.kind === 'reply') return outcome.reply;
    if (outcome.kind === 'unavailable') unavailable(outcome.text ?? config?.unavailableText ?? texts.error);
    else fail();
    return null;
  }

  /** Shows messages the business sent this visitor (an owner's as a person: issue 27 §3). */
  function showPushed(list: PushedMessage[]): void {
    for (const m of list) {
      add(serverMessage(m, config?.person));
      if (m.from === 'owner' && !m.broadcast) answering(true);
    }
    keep();
  }

  /** Issue 27 §3: the header says a person answers (an owner's message, a quiet turn) or the bot. */
  function answering(on: boolean): void {
    if (!on) noted = false;
    showPerson(view, texts, on);
  }

  /** A quiet turn (the owner took over): no bubble; the first time, a note that a person will reply. */
  function quiet(): void {
    answering(true);
    if (!noted) add({ text: texts.personNote, bot: true, note: true });
    noted = true;
  }

  /** Listens for pushed messages while the window is open (not while the bot is unavailable). */
  function listen(): void {
    pushed.unlisten();
    if (config?.available) pushed.listen();
  }

  /** Sends a text message (ignored when empty or when a reply is pending) and shows the reply as it streams. */
  async function send(raw: string): Promise<void> {
    const text = raw.trim();
    if (!text || pending || !available || !config) return;
    dropChoices();
    add({ text, bot: false });
    setPending(true);
    try {
      const outcome = await postMessage(api, { text, visitor, offered, sent }, (token) => {
        streamed ??= log.appendChild(streamingRow());
        streamed.querySelector('.text')!.textContent += token;
        scrollDown();
      });
      streamed?.remove();
      streamed = null;
      const answer = replyOf(outcome);
      if (!answer) return;
      if (answer.silent) return quiet();
      showAnswer(answer);
      if (!isOpen) launcher.setUnread(true);
    } catch {
      fail();
    } finally {
      streamed?.remove();
      streamed = null;
      input.value = '';
      fitInput(input);
      setPending(false);
      keep();
      if (isOpen && document.activeElement === document.body) input.focus();
    }
  }

  /** Shows the bot's answer and offers the files it lists; returns the answer's row. */
  function showAnswer(answer: WidgetReply): HTMLElement {
    answering(false);
    const row = add({
      text: answer.reply,
      bot: true,
      attachment: answer.attachment,
      voice: answer.voice ?? null,
    });
    const { archivos } = answer.contenedorEmpatico;
    sent = answer.archivosEnviados;
    offered = archivos.action === 'LIST' ? archivos.lista : [];
    // Issue 29: a plugin's choices (free slots) as chips when no files are offered.
    offer(offered.length ? offered.map((f) => f.file_name) : (answer.choices ?? []).map((c) => c.label), row);
    return row;
  }

  /** Sends a recording; the visitor's bubble shows what the bot heard, the reply may be spoken. */
  async function sendVoice(recording: Blob): Promise<void> {
    if (!recording.size || pending || !config) return;
    dropChoices();
    const mine = add({ text: '🎤 …', bot: false });
    setPending(true);
    try {
      const answer = replyOf(await postVoice(api, visitor, recording));
      if (!answer) return;
      const heard = `🎤 ${answer.heard && !answer.heard.startsWith('[') ? answer.heard : ''}`.trim();
      mine.querySelector('.text')!.textContent = heard;
      messages[messages.length - 1]!.text = heard;
      if (answer.silent) return quiet();
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

  /** Opens the window (starting the conversation the first time) and listens for pushed messages. */
  function open(): void {
    // The stream sends what is new since the last look first, then each message as it comes.
    if (!started) void start().then(() => isOpen && listen());
    else if (!isOpen) listen();
    if (isOpen) return;
    isOpen = true;
    win.hidden = false;
    launcher.setOpen(true);
    scrollDown();
    clearTimeout(focusTimer);
    focusTimer = setTimeout(() => (input.disabled ? closeButton : input).focus(), FOCUS_DELAY_MS);
  }

  /** Closes the window and gives focus back to the floating button. */
  function close(): void {
    clearTimeout(focusTimer);
    if (!isOpen) return;
    isOpen = false;
    pushed.unlisten();
    win.hidden = true;
    launcher.setOpen(false);
    launcher.focus();
  }

  closeButton.addEventListener('click', close);
  micButton.addEventListener('click', () => void mic.toggle());
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
    fitInput(input);
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
