/**
 * The web search and voice switches of /configure (issue 15 §4; spec 000 §1 optional features):
 * "Búsqueda web" and "Respuestas de voz" with what this server can do (`GET /api/web-search/status`,
 * `GET /api/voice/status`): an option the server cannot serve is shown off and disabled with the
 * reason; with a speech server, the voice picker and a preview button (`POST /api/voice/preview`);
 * and whether followers' voice notes are transcribed.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { sendJson } from '../lib/api.ts';
import { voiceStatusQuery, webSearchStatusQuery } from '../lib/voice.ts';
import { Options } from './ui.tsx';

/** One switch that may be unavailable. */
function Option({
  label,
  checked,
  onChange,
  available,
  reason,
}: {
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  available: boolean;
  reason: string;
}) {
  const hint = useId();
  return (
    <div>
      <label className={`flex items-center gap-2 text-sm ${available ? 'text-slate-800' : 'text-slate-500'}`}>
        <input
          type="checkbox"
          checked={available && checked}
          disabled={!available}
          aria-describedby={available ? undefined : hint}
          onChange={(e) => onChange(e.target.checked)}
          className="h-4 w-4 shrink-0 rounded border-slate-300 accent-brand-700"
        />
        {label}
      </label>
      {available ? null : (
        <p id={hint} className="ml-6 text-xs text-slate-600">
          {reason}
        </p>
      )}
    </div>
  );
}

/** The controls; values and setters come from the configuration form. */
export function VoiceSearchControls(props: {
  webSearch: boolean;
  onWebSearch: (v: boolean) => void;
  audio: boolean;
  onAudio: (v: boolean) => void;
  voice: string | null;
  onVoice: (v: string | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const search = useQuery(webSearchStatusQuery);
  const voice = useQuery(voiceStatusQuery);
  const [playing, setPlaying] = useState(false);
  const audio = useRef<HTMLAudioElement | null>(null);
  const voiceId = useId();
  const voices = voice.data?.voices ?? [];
  const picked = props.voice && voices.includes(props.voice) ? props.voice : (voices[0] ?? '');

  async function preview() {
    setPlaying(true);
    try {
      const res = await sendJson('/api/voice/preview', { voice: picked, lang: i18n.language.slice(0, 2) });
      if (!res.ok) throw new Error(String(res.status));
      const url = URL.createObjectURL(await res.blob());
      audio.current?.pause();
      audio.current = new Audio(url);
      audio.current.onended = () => URL.revokeObjectURL(url);
      await audio.current.play();
    } catch {
      toast.error(t('voice.previewError'));
    } finally {
      setPlaying(false);
    }
  }

  if (!search.data || !voice.data) return null;
  return (
    <div className="space-y-3">
      <Option
        label={t('configure.webSearch')}
        checked={props.webSearch}
        onChange={props.onWebSearch}
        available={search.data.available}
        reason={t('voice.searchUnavailable')}
      />
      <Option
        label={t('voice.replies')}
        checked={props.audio}
        onChange={props.onAudio}
        available={voice.data.speaking}
        reason={t('voice.speakingUnavailable')}
      />
      {voice.data.speaking && props.audio ? (
        <div className="ml-6 flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor={voiceId} className="mb-1 block text-xs font-medium text-slate-700">
              {t('voice.voice')}
            </label>
            <select
              id={voiceId}
              value={picked}
              onChange={(e) => props.onVoice(e.target.value)}
              className="rounded-lg border border-slate-300 px-2 py-1.5 text-sm"
            >
              <Options values={voices} />
            </select>
          </div>
          <button
            type="button"
            disabled={playing || !picked}
            onClick={() => void preview()}
            className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm disabled:opacity-50"
          >
            ▶ {playing ? t('voice.previewing') : t('voice.preview')}
          </button>
        </div>
      ) : null}
      <p className="text-xs text-slate-600">
        {voice.data.hearing ? t('voice.hearing') : t('voice.hearingUnavailable')}
      </p>
    </div>
  );
}
