/**
 * A microphone button for the owner's test chat (issue 15 §4): a click starts recording
 * (MediaRecorder), another stops it and hands the recording over; "No se pudo acceder al micrófono."
 * when the browser gives none. At most 2 minutes. Hidden where the browser cannot record.
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';

/** Longest recording, ms. */
const MAX_RECORDING_MS = 120_000;

export function MicButton({
  disabled,
  onRecorded,
}: {
  disabled: boolean;
  onRecorded: (audio: Blob) => void;
}) {
  const { t } = useTranslation();
  const [recording, setRecording] = useState(false);
  const recorder = useRef<MediaRecorder | null>(null);
  if (typeof MediaRecorder === 'undefined' || !navigator.mediaDevices?.getUserMedia) return null;

  async function toggle() {
    if (recorder.current) {
      recorder.current.stop();
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      toast.error(t('chat.micError'));
      return;
    }
    const chunks: Blob[] = [];
    const r = new MediaRecorder(stream);
    recorder.current = r;
    const cap = setTimeout(() => r.state === 'recording' && r.stop(), MAX_RECORDING_MS);
    r.ondataavailable = (e) => {
      if (e.data.size) chunks.push(e.data);
    };
    r.onstop = () => {
      clearTimeout(cap);
      for (const track of stream.getTracks()) track.stop();
      recorder.current = null;
      setRecording(false);
      const audio = new Blob(chunks, { type: r.mimeType || 'audio/webm' });
      if (audio.size) onRecorded(audio);
    };
    r.start(250);
    setRecording(true);
  }

  return (
    <button
      type="button"
      aria-pressed={recording}
      aria-label={recording ? t('chat.stopRecording') : t('chat.record')}
      title={recording ? t('chat.stopRecording') : t('chat.record')}
      disabled={disabled && !recording}
      onClick={() => void toggle()}
      className={`rounded-lg border px-3 py-2 text-sm disabled:opacity-50 ${
        recording ? 'border-red-700 bg-red-700 text-white' : 'border-slate-300 bg-white text-brand-800'
      }`}
    >
      <span aria-hidden="true">{recording ? '■' : '🎙️'}</span>
    </button>
  );
}
