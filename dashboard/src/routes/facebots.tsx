/**
 * `/facebots`, the public directory of active bots (spec 001 §2 Public directory, §4 Like, §8
 * Directory; issue 16 §4). Public: no session. Sort buttons (populares, recientes, antiguos,
 * relevantes), the category filter, "Crea tu propio bot"; cards with the business name, @username,
 * description, responses and likes in compact numbers, like (once per browser, the count moves at
 * once), share (the Web Share API, else the link is copied), open in Telegram and the IALanding;
 * "No hay bots activos en este momento." and "No se pudieron cargar los bots activos."; more pages
 * on demand.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { CATEGORIES, CATEGORY_LABELS } from '../../../engine/schemas.ts';
import { LanguageSelector } from '../components/LanguageSelector.tsx';
import { Logo } from '../components/ui.tsx';
import { CATEGORY_KEYS } from '../lib/categories.ts';
import { type DirectoryBot, directoryQuery, likeBot, likedBots, SORTS, type Sort } from '../lib/facebots.ts';

export const Route = createFileRoute('/facebots')({ component: Facebots });

function Facebots() {
  const { t } = useTranslation();
  const [sort, setSort] = useState<Sort>('populares');
  const [category, setCategory] = useState('');
  const directory = useInfiniteQuery(directoryQuery(sort, category));
  const bots = directory.data?.pages.flatMap((p) => p.bots) ?? [];

  return (
    <div className="min-h-dvh bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <Link to="/" className="flex items-center gap-2 font-bold text-brand-800">
            <Logo /> {t('facebots.title')}
          </Link>
          <div className="flex items-center gap-3">
            <LanguageSelector />
            <Link
              to="/register"
              className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
            >
              {t('facebots.create')}
            </Link>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl space-y-5 px-4 py-6">
        <div>
          <h1 className="text-2xl font-bold sm:text-3xl">{t('facebots.title')}</h1>
          <p className="text-slate-600">{t('facebots.subtitle')}</p>
        </div>
        <div className="flex flex-wrap items-end justify-between gap-3">
          <fieldset className="flex flex-wrap gap-2">
            <legend className="sr-only">{t('facebots.sortBy')}</legend>
            {SORTS.map((s) => (
              <button
                key={s}
                type="button"
                aria-pressed={sort === s}
                onClick={() => setSort(s)}
                className={`rounded-full border px-3 py-1.5 text-sm font-medium ${
                  sort === s
                    ? 'border-brand-700 bg-brand-700 text-white'
                    : 'border-slate-300 bg-white text-slate-800'
                }`}
              >
                {t(`facebots.sorts.${s}`)}
              </button>
            ))}
          </fieldset>
          <label className="text-sm">
            <span className="mb-1 block font-medium">{t('facebots.category')}</span>
            <select
              value={category}
              onChange={(e) => setCategory(e.target.value)}
              className="rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm"
            >
              <option value="">{t('facebots.allCategories')}</option>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {`${CATEGORY_LABELS[c].split(' ')[0]} ${t(`configure.categories.${CATEGORY_KEYS[c]}`)}`}
                </option>
              ))}
            </select>
          </label>
        </div>
        {directory.isPending ? (
          <p className="text-sm text-slate-600">{t('app.loading')}</p>
        ) : directory.isError ? (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
            {t('facebots.failed')}
          </p>
        ) : bots.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
            {t('facebots.empty')}
          </p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {bots.map((b) => (
              <li key={b.id}>
                <BotCard bot={b} />
              </li>
            ))}
          </ul>
        )}
        {directory.hasNextPage ? (
          <button
            type="button"
            disabled={directory.isFetchingNextPage}
            onClick={() => void directory.fetchNextPage()}
            className="mx-auto block rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold"
          >
            {t('facebots.more')}
          </button>
        ) : null}
      </main>
    </div>
  );
}

function BotCard({ bot }: { bot: DirectoryBot }) {
  const { t, i18n } = useTranslation();
  const [liked, setLiked] = useState(() => likedBots().includes(bot.id));
  const [likes, setLikes] = useState(bot.likes_count);
  const compact = new Intl.NumberFormat(i18n.language, { notation: 'compact', maximumFractionDigits: 1 });
  const landing = bot.ialanding_slug ? `/ialanding/${bot.ialanding_slug}` : null;
  const telegram = bot.telegram_username ? `https://t.me/${bot.telegram_username}` : null;
  const shareUrl = landing ? new URL(landing, window.location.origin).href : telegram;

  async function like() {
    if (liked) return;
    setLiked(true);
    setLikes((n) => n + 1);
    const counted = await likeBot(bot.id);
    if (counted !== null) setLikes(counted);
  }
  async function share() {
    if (!shareUrl) return;
    try {
      if (navigator.share) await navigator.share({ title: bot.business_name, url: shareUrl });
      else {
        await navigator.clipboard.writeText(shareUrl);
        toast.success(t('facebots.copied'));
      }
    } catch {
      // the visitor closed the share sheet
    }
  }

  return (
    <article className="flex h-full flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <div>
        <h2 className="text-lg font-semibold">{bot.business_name}</h2>
        {bot.telegram_username ? <p className="text-sm text-slate-600">@{bot.telegram_username}</p> : null}
      </div>
      <p className="line-clamp-3 flex-1 text-sm text-slate-700">{bot.description}</p>
      <p className="flex gap-4 text-sm text-slate-700">
        <span>
          💬 {t('facebots.responses', { count: bot.responses_count, n: compact.format(bot.responses_count) })}
        </span>
        <span data-testid="likes">❤️ {compact.format(likes)}</span>
      </p>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          aria-pressed={liked}
          onClick={() => void like()}
          className={`rounded-lg border px-3 py-1.5 text-sm font-medium ${liked ? 'border-rose-300 bg-rose-50 text-rose-800' : 'border-slate-300'}`}
        >
          {liked ? t('facebots.liked') : t('facebots.like')}
        </button>
        {shareUrl ? (
          <button
            type="button"
            onClick={() => void share()}
            className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium"
          >
            {t('facebots.share')}
          </button>
        ) : null}
        {telegram ? (
          <a
            href={telegram}
            target="_blank"
            rel="noreferrer"
            className="rounded-lg bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white"
          >
            {t('facebots.openTelegram')}
          </a>
        ) : null}
        {landing ? (
          <a href={landing} className="rounded-lg bg-brand-700 px-3 py-1.5 text-sm font-semibold text-white">
            {t('facebots.landing')}
          </a>
        ) : null}
      </div>
    </article>
  );
}
