/**
 * `/ialanding/$slug`, the public IALanding (spec 001 §2, §3, §4, §8; issue 6): a page of the business
 * that changes while a visitor chats with its bot. Public: no session, no owner header.
 * - "Cargando IALanding..." with a spinner while it loads; an error panel with the spec's texts: "URL
 *   no válida" (no slug), "IALanding no encontrada" (unknown or inactive), "No se encontró la
 *   configuración del bot para este IALanding." (its bot is gone), "Error cargando la página".
 * - The page speaks its bot's language (the `lang` of the landing), whatever the interface language
 *   of the browser: the visitor is the bot's audience and the bot answers in that language. The
 *   loading and error states, shown before the bot is known, use the interface language.
 * - Header with the business name; hero; the dynamic content area (spec 001 §3 "Dynamic content
 *   item": welcome, text or file) showing the greeting first, then the latest answer, or the file
 *   the answer sent or the visitor picked in the library (image, PDF, audio, video); "Escribiendo..."
 *   (or the reply as it streams) while the bot answers; a LIST offer as buttons.
 * - The file library: cards by type with the file's context text (issue 10 §7: not its keywords,
 *   which are the owner's triggers) and "Ver →"; "Tu IALANDING está listo" when there are no files.
 * - The hero shows the bot's public description (issue 10 §7), never the behaviour instructions
 *   of its business description, and the "respuestas sin IA" banner while no LLM is configured.
 * - The chat bar at the bottom (one column under 700 px, a floating bar above), with "Las
 *   respuestas se mostrarán arriba" and the producer link; Enter sends, Shift+Enter adds a line.
 *   When the service is off or the owner has no days, the server's text shows and the input is off.
 * The server sends this page's HTML with the landing's title and Open Graph tags; the page sets the
 * same title when reached inside the app.
 */
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IalandingErrorPanel, Landing } from '../components/IalandingPage.tsx';
import { type AppLanguage, i18n, isAppLanguage, loadLanguage } from '../i18n/index.ts';
import { IalandingLoadError, ialandingQuery } from '../lib/web.ts';
import type { Ialanding } from '../lib/web-chat.ts';

export const Route = createFileRoute('/ialanding/$slug')({
  component: IalandingPage,
});

function IalandingPage() {
  const { slug } = Route.useParams();
  const { t } = useTranslation();
  const landing = useQuery(ialandingQuery(slug));
  const [lang, setLang] = useState<AppLanguage | null>(null);
  const wanted = landing.data?.lang;

  // The bot's language texts, loaded without changing the interface language.
  useEffect(() => {
    if (wanted === undefined) return;
    const code = isAppLanguage(wanted) ? wanted : (i18n.language as AppLanguage);
    let cancelled = false;
    void loadLanguage(code).then(() => !cancelled && setLang(code));
    return () => {
      cancelled = true;
    };
  }, [wanted]);

  if (landing.isError) {
    const reason = landing.error instanceof IalandingLoadError ? landing.error.reason : 'load';
    return <IalandingErrorPanel reason={reason} t={t} onRetry={() => void landing.refetch()} />;
  }
  if (!landing.data || !lang) {
    return (
      <main className="flex min-h-dvh flex-col items-center justify-center gap-4" aria-busy="true">
        <span
          aria-hidden="true"
          className="h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-700"
        />
        <p role="status" className="text-slate-700">
          {t('landing.loading')}
        </p>
      </main>
    );
  }
  return <LandingInLanguage data={landing.data} lang={lang} />;
}

/** The landing with the texts of its bot's language. */
function LandingInLanguage({ data, lang }: { data: Ialanding; lang: AppLanguage }) {
  const { t } = useTranslation(undefined, { lng: lang });
  return <Landing data={data} lang={lang} t={t} />;
}
