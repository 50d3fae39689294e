/**
 * `/main` (spec 000 §2): guarded; the status bar and header (components/AppHeader.tsx), the
 * greeting (business name, else the e-mail's local part, else "Usuario"), the plan and days
 * remaining with the paused warning (components/PlanStatus.tsx), the first steps
 * (components/FirstSteps.tsx, issue 10), the four cards, the promotional block (no testimonials:
 * issue 29), and the floating test chat (components/TestChat.tsx); "Tu bot" and the other screens
 * are in the navigation (components/AppNav.tsx). Cards and links whose screens are not built yet (lib/features.ts)
 * show as "coming soon" instead of leading nowhere. A pending password recovery goes to
 * /update-password first.
 */

import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, redirect } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { FirstSteps } from '../components/FirstSteps.tsx';
import { MultilingualBanner } from '../components/MultilingualBanner.tsx';
import { DirectoryLink, PageShell } from '../components/PageShell.tsx';
import { PausedWarning, PlanSummary } from '../components/PlanStatus.tsx';
import { TestChat } from '../components/TestChat.tsx';
import { WhatsAppSubView } from '../components/WhatsAppConnect.tsx';
import { meQuery, NEEDS_PASSWORD_UPDATE, requireSession } from '../lib/auth.ts';
import { myChatbotQuery } from '../lib/bot.ts';
import { enabled, type Feature } from '../lib/features.ts';

export const Route = createFileRoute('/main')({
  beforeLoad: async (match) => {
    await requireSession(match);
    if (localStorage.getItem(NEEDS_PASSWORD_UPDATE) === 'true') {
      localStorage.removeItem(NEEDS_PASSWORD_UPDATE);
      throw redirect({ to: '/update-password' });
    }
  },
  component: Main,
});

/**
 * The four cards: `to` for screens that exist; `feature` and `path` for screens still to come,
 * shown as "coming soon" until their switch in lib/features.ts is on.
 */
const CARDS: {
  key: string;
  icon: string;
  to?: '/configure' | '/charla-web';
  feature?: Feature;
  path?: string;
}[] = [
  {
    key: 'configure',
    to: '/configure',
    icon: 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm7.4-3a7.4 7.4 0 0 0-.1-1.2l2-1.6-2-3.4-2.4 1a7.6 7.6 0 0 0-2-1.2L14.5 3h-5l-.4 2.6a7.6 7.6 0 0 0-2 1.2l-2.4-1-2 3.4 2 1.6a7.4 7.4 0 0 0 0 2.4l-2 1.6 2 3.4 2.4-1a7.6 7.6 0 0 0 2 1.2l.4 2.6h5l.4-2.6a7.6 7.6 0 0 0 2-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2Z',
  },
  {
    key: 'followers',
    feature: 'followers',
    path: '/usuarios-conversaciones',
    icon: 'M4 5h16v10H9l-5 4V5Z',
  },
  {
    key: 'web',
    to: '/charla-web',
    icon: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm-7 9h14M12 3c2.5 2.5 3.5 5.5 3.5 9S14.5 18.5 12 21c-2.5-2.5-3.5-5.5-3.5-9S9.5 5.5 12 3Z',
  },
  { key: 'gestion', feature: 'gestion', path: '/gestion', icon: 'M4 6h16v14H4V6Zm0 4h16M8 3v5M16 3v5' },
];

function Main() {
  const { t } = useTranslation();
  const { data: me } = useQuery(meQuery);
  const bot = useQuery(myChatbotQuery);
  if (!me) return null;
  const name = bot.data?.business_name || me.email.split('@')[0] || t('main.fallbackName');

  return (
    <PageShell
      className="min-h-dvh pb-24"
      main="mx-auto max-w-5xl space-y-6 px-4 py-8"
      after={
        <>
          {/* Issue 29: "Tu bot" is in the navigation; only the test chat floats here. */}
          {bot.isSuccess ? <TestChat chatbotId={bot.data?.id ?? null} /> : null}
        </>
      }
    >
      <MultilingualBanner />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight">{t('main.greeting', { name })}</h1>
        <div className="rounded-xl border border-slate-200 bg-white px-4 py-2">
          <PlanSummary info={me} testId="days-remaining" />
        </div>
      </div>
      <PausedWarning info={me} />
      {bot.isSuccess ? (
        <p className="text-slate-700" data-testid="my-bot">
          {bot.data ? (
            <>
              {t('main.yourBot')}: <strong>{bot.data.business_name}</strong>
            </>
          ) : (
            t('main.noBot')
          )}
        </p>
      ) : null}
      {bot.isSuccess ? <FirstSteps bot={bot.data} /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {CARDS.map((card) => {
          const open = card.to ?? (card.feature && enabled(card.feature) ? card.path : undefined);
          const body = (
            <>
              <div className="flex items-start justify-between gap-3">
                <svg
                  aria-hidden="true"
                  viewBox="0 0 24 24"
                  className={`h-7 w-7 fill-none ${open ? 'stroke-brand-700' : 'stroke-slate-400'}`}
                  strokeWidth="1.8"
                  strokeLinejoin="round"
                  strokeLinecap="round"
                >
                  <path d={card.icon} />
                </svg>
                {open ? null : (
                  <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900">
                    {t('main.soon')}
                  </span>
                )}
              </div>
              <h2 className={`mt-2 text-lg font-semibold ${open ? '' : 'text-slate-600'}`}>
                {t(`main.cards.${card.key}.title`)}
              </h2>
              <p className={`mt-1 text-sm ${open ? 'text-slate-600' : 'text-slate-500'}`}>
                {t(`main.cards.${card.key}.text`)}
              </p>
              {open ? (
                <span className="mt-3 inline-block text-sm font-semibold text-brand-700">{`${t('main.open')} →`}</span>
              ) : null}
            </>
          );
          const linkClass =
            'block rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-600 hover:shadow';
          if (card.to)
            return (
              <Link key={card.key} to={card.to} className={linkClass} data-testid={`card-${card.key}`}>
                {body}
              </Link>
            );
          if (open)
            return (
              <a key={card.key} href={open} className={linkClass} data-testid={`card-${card.key}`}>
                {body}
              </a>
            );
          return (
            <div
              key={card.key}
              aria-disabled="true"
              data-testid={`card-${card.key}`}
              className="rounded-2xl border border-slate-200 bg-slate-50 p-5"
            >
              {body}
            </div>
          );
        })}
      </div>
      {bot.isSuccess ? <WhatsAppSubView chatbotId={bot.data?.id ?? null} /> : null}
      <Promo />
      {/* Issue 29: no testimonials here (spec 000 §2's eight were invented; an owner's own dashboard
          shows none). */}
    </PageShell>
  );
}

/** The promotional block about the AI technology, with the button that opens the directory popup. */
function Promo() {
  const { t } = useTranslation();
  return (
    <section
      aria-labelledby="promo-title"
      className="rounded-2xl bg-gradient-to-br from-brand-700 to-brand-800 p-6 text-white shadow-sm"
    >
      <h2 id="promo-title" className="text-xl font-semibold">
        {t('main.promo.title')}
      </h2>
      <p className="mt-2 max-w-3xl text-sm text-white/90">
        {t('main.promo.text')}
        {enabled('facebots') ? ` ${t('main.promo.directory')}` : null}
      </p>
      {enabled('facebots') ? <DirectoryButton /> : null}
    </section>
  );
}

/** The button that opens the public directory in its 1200x800 popup (while Facebots is on). */
function DirectoryButton() {
  const { t } = useTranslation();
  return (
    <DirectoryLink className="mt-4 inline-flex items-center gap-2 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50">
      {t('main.promo.button')}
      <span className="sr-only">({t('main.promo.popupNote')})</span>
    </DirectoryLink>
  );
}
