/**
 * The "respuestas sin IA" banner (issue 10 §6): while no LLM is configured, the test chat and the web
 * try-out chat on /charla-web say that replies come from the offline responder
 * (the bot's description and files), with a link to how to connect an LLM. The server says whether
 * it is offline (`offline` in `/api/chatbot-config/:id`, `/api/web/:key/config` and
 * `/api/ialanding/:slug`); nothing shows until it has said so, or when an LLM is configured. Operator
 * text: owner screens only, never the IALanding or the widget (issue 29).
 */
import type { TFunction } from 'i18next';

/** The help page on connecting an LLM, served by every Charla (routes/ayuda.llm.tsx). */
export const LLM_HELP_PATH = '/ayuda/llm';

/**
 * @param offline the server's flag; undefined while unknown.
 * @param t the translator of the surface (the IALanding passes its bot-language one).
 * @param className extra classes (the IALanding shows it as a centred pill; chats as a strip).
 */
export function OfflineBanner({
  offline,
  t,
  className = '',
}: {
  offline: boolean | undefined;
  t: TFunction;
  className?: string;
}) {
  if (!offline) return null;
  return (
    <p
      role="note"
      data-testid="offline-banner"
      className={`flex flex-wrap items-center justify-center gap-x-2 gap-y-0.5 bg-amber-50 px-3 py-1.5 text-center text-xs text-amber-900 ${className}`}
    >
      <span>
        <span aria-hidden="true">🔌 </span>
        <strong>{t('offline.badge')}</strong>
      </span>
      <a
        href={LLM_HELP_PATH}
        target="_blank"
        rel="noopener"
        className="font-semibold underline hover:no-underline"
      >
        {t('offline.link')}
      </a>
    </p>
  );
}
