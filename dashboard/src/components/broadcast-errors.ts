/**
 * The spec's broadcast and voice errors (spec 001 §5, §8), which the server sends in Spanish, and
 * the refusal of a broadcast to nobody (issue 27 §5, by its `code`), shown in the dashboard's
 * language; any other server text is shown as it came.
 */
import { useTranslation } from 'react-i18next';
import { PROCESSING_ERROR, VOICE_SEND_ERROR } from '../../../plugins/audio-effects/api.ts';
import { BroadcastError, NETWORK_ERROR, NO_AUDIENCE_CODE, NOTHING_TO_SEND } from '../lib/broadcasts.ts';

/** Returns a function from a failure to the text to show. */
export function useBroadcastErrorText(fallbackKey = 'broadcast.error'): (err: unknown) => string {
  const { t } = useTranslation();
  return (err) => {
    const message = err instanceof BroadcastError ? err.message : '';
    // Issue 27 §5: a broadcast that would reach nobody is refused.
    if (err instanceof BroadcastError && err.code === NO_AUDIENCE_CODE) return t('broadcast.noAudience');
    if (message === NOTHING_TO_SEND) return t('broadcast.nothing');
    if (message === NETWORK_ERROR) return t('broadcast.network');
    if (message === VOICE_SEND_ERROR) return t('recorder.sendError');
    if (message === PROCESSING_ERROR) return t('recorder.processError');
    const file = /^Error al enviar archivo: (.*)$/s.exec(message);
    if (file) return t('broadcast.fileError', { error: file[1] });
    return message || t(fallbackKey);
  };
}
