/**
 * The chat window's microphone (widget/chat.ts): the button records a voice message with
 * MediaRecorder (at most {@link MAX_RECORDING_MS}) and a second click stops it and hands the
 * recording over to be sent. While recording the button shows a stop square, has the class `rec`
 * and `aria-pressed="true"`. A browser without a microphone API gets no button.
 */

/** Longest voice message, ms. */
const MAX_RECORDING_MS = 120_000;

/** The microphone button's icon. */
export const MIC_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.9V21h2v-3.1a7 7 0 0 0 6-6.9z"/></svg>';
const STOP_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="6" y="6" width="12" height="12" rx="2" fill="currentColor"/></svg>';

/** Whether this browser can record voice messages (MediaRecorder and getUserMedia). */
export function canRecord(): boolean {
  return typeof MediaRecorder !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia);
}

/** What the microphone asks of the chat window. */
export interface RecorderHooks {
  /** True when a recording may not start now (a reply pending, the bot not available). */
  blocked(): boolean;
  /** A recording started or stopped: the button's label follows. */
  changed(): void;
  /** The microphone could not be opened (no permission, no device). */
  denied(): void;
  /** A recording ended: send it. */
  recorded(recording: Blob): void;
}

/** The microphone of one chat window. */
export interface VoiceRecorder {
  /** True while a recording is under way. */
  readonly recording: boolean;
  /** The button's click: starts a recording, or stops the one under way (which then is sent). */
  toggle(): Promise<void>;
}

/** Shows on the button whether it is recording. */
function showRecording(button: HTMLButtonElement, on: boolean): void {
  button.classList.toggle('rec', on);
  button.innerHTML = on ? STOP_ICON : MIC_ICON;
  button.setAttribute('aria-pressed', String(on));
}

/** Records voice messages with the microphone button `button`. */
export function voiceRecorder(button: HTMLButtonElement, hooks: RecorderHooks): VoiceRecorder {
  let recorder: MediaRecorder | null = null;
  return {
    get recording() {
      return recorder !== null;
    },
    async toggle() {
      if (recorder) {
        recorder.stop();
        return;
      }
      if (hooks.blocked()) return;
      let stream: MediaStream;
      try {
        stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      } catch {
        hooks.denied();
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
        showRecording(button, false);
        hooks.changed();
        hooks.recorded(new Blob(chunks, { type: r.mimeType || 'audio/webm' }));
      };
      r.start(250);
      showRecording(button, true);
      hooks.changed();
    },
  };
}
