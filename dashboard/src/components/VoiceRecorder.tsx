/**
 * The floating voice recorder of /usuarios-conversaciones (spec 001 §2, §4 Voice recorder; issue 14
 * §4): idle → recording → processing → processed (play, stop, discard, send). The owner picks an
 * effect (the recorder's ten presets, then the spec's second list), records with the microphone
 * (MediaRecorder), hears the voice note the server made (`POST /api/apply-audio-effect`), and sends
 * it to the open follower or to every Telegram follower as a broadcast. Failures: "No se pudo
 * acceder al micrófono.", "Error procesando el audio", "Error al enviar el audio.".
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { PRESETS } from '../../../plugins/audio-effects/presets.ts';
import { applyAudioEffect, sendBroadcast, sendVoiceNote } from '../lib/broadcasts.ts';
import { useBroadcastErrorText } from './broadcast-errors.ts';
import { confirmBroadcast } from './confirm-broadcast.tsx';
import { Alert, DangerButton, Options } from './ui.tsx';

/** Spec 001 §2: the recorder's list; the rest of {@link PRESETS} is the spec's second list. */
const RECORDER_PRESETS = PRESETS.slice(0, 10);
const MORE_PRESETS = PRESETS.slice(10);
/** Longest recording, ms (a voice note, not a podcast; keeps it under the 10 MB upload limit). */
export const MAX_RECORDING_MS = 5 * 60_000;

type State =
  | { kind: 'idle' }
  | { kind: 'recording'; startedAt: number }
  | { kind: 'processing' }
  | { kind: 'processed'; recording: Blob; preview: string };

/** The button and its panel; `follower` is the open conversation, if any. */
export function VoiceRecorder({
  chatbotId,
  follower,
}: {
  chatbotId: string;
  follower: { channel: string; userId: string; name: string } | null;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const errorText = useBroadcastErrorText('recorder.sendError');
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [preset, setPreset] = useState<string>('natural');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const recorder = useRef<MediaRecorder | null>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const presetId = useId();
  const panelId = useId();

  // The recording clock, and the cap.
  useEffect(() => {
    if (state.kind !== 'recording') return;
    const timer = setInterval(() => {
      const ms = Date.now() - state.startedAt;
      setElapsed(ms);
      if (ms >= MAX_RECORDING_MS) recorder.current?.stop();
    }, 250);
    return () => clearInterval(timer);
  }, [state]);
  // Free the preview and the microphone when leaving.
  useEffect(
    () => () => {
      if (state.kind === 'processed') URL.revokeObjectURL(state.preview);
    },
    [state],
  );
  useEffect(
    () => () => {
      for (const track of recorder.current?.stream.getTracks() ?? []) track.stop();
    },
    [],
  );

  async function process(recording: Blob, withPreset: string) {
    setState({ kind: 'processing' });
    try {
      const note = await applyAudioEffect(recording, withPreset);
      setState({ kind: 'processed', recording, preview: URL.createObjectURL(note) });
    } catch {
      setError(t('recorder.processError'));
      setState({ kind: 'idle' });
    }
  }

  async function record() {
    setError(null);
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      setError(t('recorder.micError'));
      return;
    }
    const chunks: Blob[] = [];
    const r = new MediaRecorder(stream);
    recorder.current = r;
    r.ondataavailable = (e) => {
      if (e.data.size) chunks.push(e.data);
    };
    r.onstop = () => {
      for (const track of stream.getTracks()) track.stop();
      void process(new Blob(chunks, { type: r.mimeType || 'audio/webm' }), preset);
    };
    r.start(250);
    setElapsed(0);
    setState({ kind: 'recording', startedAt: Date.now() });
  }

  function discard() {
    audio.current?.pause();
    setState({ kind: 'idle' });
  }

  async function send(to: 'follower' | 'all') {
    if (state.kind !== 'processed' || sending) return;
    if (to === 'all' && !(await confirmBroadcast(chatbotId, `🎤 ${t(`recorder.presets.${preset}`)}`))) return;
    setSending(true);
    setError(null);
    try {
      if (to === 'follower' && follower) {
        await sendVoiceNote(chatbotId, follower, state.recording, preset);
        toast.success(t('recorder.sentTo', { name: follower.name }));
        await queryClient.invalidateQueries({ queryKey: ['conversations', chatbotId] });
      } else {
        const { total } = await sendBroadcast(chatbotId, { audio: state.recording, preset });
        toast.success(t('broadcast.started', { count: total }));
        await queryClient.invalidateQueries({ queryKey: ['broadcasts', chatbotId] });
      }
      discard();
      setOpen(false);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSending(false);
    }
  }

  const seconds = Math.floor(elapsed / 1000);
  const clock = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

  return (
    <div className="fixed right-4 bottom-[calc(var(--nav-bottom,0px)+1rem)] z-40 flex flex-col items-end gap-2">
      {open ? (
        <section
          id={panelId}
          aria-label={t('recorder.title')}
          className="w-[min(22rem,calc(100vw-2rem))] space-y-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-xl"
        >
          <h2 className="font-semibold">{t('recorder.title')}</h2>
          <div>
            <label htmlFor={presetId} className="mb-1 block text-sm font-medium">
              {t('recorder.effect')}
            </label>
            <select
              id={presetId}
              value={preset}
              disabled={state.kind === 'recording' || state.kind === 'processing'}
              onChange={(e) => {
                setPreset(e.target.value);
                // A new effect on the same recording: process it again.
                if (state.kind === 'processed') void process(state.recording, e.target.value);
              }}
              className="block w-full rounded-lg border border-slate-300 px-2 py-2 text-sm"
            >
              <Options values={RECORDER_PRESETS} text={(p) => t(`recorder.presets.${p}`)} />
              <optgroup label={t('recorder.more')}>
                <Options values={MORE_PRESETS} text={(p) => t(`recorder.presets.${p}`)} />
              </optgroup>
            </select>
          </div>
          {error ? <Alert tone="error">{error}</Alert> : null}
          {state.kind === 'idle' ? (
            <button
              type="button"
              onClick={() => void record()}
              className="w-full rounded-lg bg-red-700 px-4 py-2 text-sm font-semibold text-white"
            >
              ● {t('recorder.record')}
            </button>
          ) : null}
          {state.kind === 'recording' ? (
            <div className="flex items-center justify-between gap-2">
              <p role="status" className="text-sm font-medium text-red-800">
                {t('recorder.recording')} {clock}
              </p>
              <button
                type="button"
                onClick={() => recorder.current?.stop()}
                className="rounded-lg bg-slate-800 px-4 py-2 text-sm font-semibold text-white"
              >
                ■ {t('recorder.stopRecording')}
              </button>
            </div>
          ) : null}
          {state.kind === 'processing' ? (
            <p role="status" className="text-sm text-slate-700">
              {t('recorder.processing')}
            </p>
          ) : null}
          {state.kind === 'processed' ? (
            <div className="space-y-2">
              {/* biome-ignore lint/a11y/useMediaCaption: the owner's own recording, heard before sending */}
              <audio ref={audio} controls src={state.preview} className="w-full" />
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  onClick={() => void audio.current?.play()}
                  className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm"
                >
                  ▶ {t('recorder.play')}
                </button>
                <button
                  type="button"
                  onClick={() => {
                    if (!audio.current) return;
                    audio.current.pause();
                    audio.current.currentTime = 0;
                  }}
                  className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm"
                >
                  ■ {t('recorder.stop')}
                </button>
                <DangerButton look="quietMedium" onClick={discard} label={t('recorder.discard')} />
              </div>
              <div className="flex flex-wrap gap-2">
                {follower ? (
                  <button
                    type="button"
                    disabled={sending}
                    onClick={() => void send('follower')}
                    className="rounded-lg bg-brand-700 px-3 py-2 text-sm font-semibold text-white disabled:bg-slate-400"
                  >
                    {t('recorder.sendTo', { name: follower.name })}
                  </button>
                ) : null}
                <button
                  type="button"
                  disabled={sending}
                  onClick={() => void send('all')}
                  className="rounded-lg border border-brand-700 px-3 py-2 text-sm font-semibold text-brand-800 disabled:opacity-50"
                >
                  {t('recorder.sendAll')}
                </button>
              </div>
            </div>
          ) : null}
        </section>
      ) : null}
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={open ? t('recorder.close') : t('recorder.open')}
        onClick={() => setOpen((v) => !v)}
        className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-700 text-2xl text-white shadow-lg hover:bg-brand-800"
      >
        <span aria-hidden="true">{open ? '✕' : '🎙️'}</span>
      </button>
    </div>
  );
}
