/**
 * "Publicar en Facebots" (issue 29 §"Setting up the bot"), on /charla-web: a new bot is private
 * until its owner publishes it. The card says whether it is published, what the Facebots listing
 * shows (name, description, category, IALanding link, Telegram), what is still missing (a
 * description, the web service on), and publishes or unpublishes through
 * `POST /api/facebots/publish/:chatbotId` (plugins/facebots/publish.ts). A refusal shows its code's
 * text in the interface language.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { CATEGORY_LABELS, type Category } from '../../../engine/schemas.ts';
import { CATEGORY_KEYS, type PublishState } from '../../../plugins/facebots/api.ts';
import { getJson, sendJson } from '../lib/api.ts';
import { Button } from './ui.tsx';
import { WebCard } from './WebService.tsx';

/** The card; `webEnabled` refreshes it when the service is switched on or off above it. */
export function PublishCard({ chatbotId, webEnabled }: { chatbotId: string; webEnabled: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const queryKey = ['facebots-publish', chatbotId, webEnabled];
  const state = useQuery({
    queryKey,
    queryFn: () => getJson<PublishState>(`/api/facebots/publish/${encodeURIComponent(chatbotId)}`),
  });
  const [busy, setBusy] = useState(false);

  async function send(published: boolean) {
    setBusy(true);
    try {
      const res = await sendJson(`/api/facebots/publish/${encodeURIComponent(chatbotId)}`, { published });
      const body = (await res.json().catch(() => ({}))) as PublishState & { code?: string };
      if (!res.ok) {
        toast.error(body.code ? t(`publish.errors.${body.code}`) : t('publish.failed'));
        return;
      }
      queryClient.setQueryData(queryKey, body);
      toast.success(published ? t('publish.published') : t('publish.unpublished'));
    } catch {
      toast.error(t('publish.failed'));
    } finally {
      setBusy(false);
    }
  }

  const data = state.data;
  const category = data?.listing.category as Category | undefined;
  const categoryText =
    category && CATEGORY_LABELS[category]
      ? `${CATEGORY_LABELS[category].split(' ')[0]} ${t(`configure.categories.${CATEGORY_KEYS[category]}`)}`
      : (category ?? '');
  const landing = data?.listing.ialanding_slug
    ? `${window.location.origin}/ialanding/${data.listing.ialanding_slug}`
    : null;

  return (
    <WebCard title={t('publish.title')} testId="publish-card" id="facebots">
      {!data ? (
        <p role="status" className="text-sm text-slate-600">
          {state.isError ? t('publish.failed') : t('publish.loading')}
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-700" data-testid="publish-status">
            <span
              className={`mr-2 inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${
                data.published_at ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-700'
              }`}
            >
              {data.published_at ? t('publish.statePublished') : t('publish.statePrivate')}
            </span>
            {data.published_at ? t('publish.publishedText') : t('publish.privateText')}
          </p>
          <div className="space-y-2 text-sm">
            <p className="font-semibold text-slate-800">
              {data.published_at ? t('publish.showing') : t('publish.shows')}
            </p>
            <dl className="grid gap-x-3 gap-y-1 text-slate-700 min-[700px]:grid-cols-[10rem_1fr]">
              <dt className="text-slate-600">{t('publish.fields.name')}</dt>
              <dd className="font-semibold">{data.listing.business_name}</dd>
              <dt className="text-slate-600">{t('publish.fields.description')}</dt>
              <dd className="line-clamp-3">{data.listing.description || '—'}</dd>
              <dt className="text-slate-600">{t('publish.fields.category')}</dt>
              <dd>{categoryText}</dd>
              <dt className="text-slate-600">{t('publish.fields.ialanding')}</dt>
              <dd className="break-all">{landing ?? '—'}</dd>
              {data.listing.telegram_username ? (
                <>
                  <dt className="text-slate-600">{t('publish.fields.telegram')}</dt>
                  <dd>@{data.listing.telegram_username}</dd>
                </>
              ) : null}
            </dl>
            <p className="text-xs text-slate-600">{t('publish.counts')}</p>
          </div>
          {data.blockers.length && !data.published_at ? (
            <ul className="list-disc space-y-1 pl-5 text-sm text-amber-900" data-testid="publish-blockers">
              {data.blockers.map((b) => (
                <li key={b}>{t(`publish.errors.${b}`)}</li>
              ))}
            </ul>
          ) : null}
          <div className="flex flex-wrap gap-3">
            {data.published_at ? (
              <>
                <Button
                  variant="secondary"
                  className="min-[700px]:w-auto"
                  disabled={busy}
                  onClick={() => void send(false)}
                >
                  {t('publish.unpublish')}
                </Button>
                <a
                  href="/facebots"
                  className="inline-flex items-center rounded-lg px-3 py-2 text-sm font-semibold text-brand-700 underline hover:no-underline"
                >
                  {t('publish.see')}
                </a>
              </>
            ) : (
              <Button
                className="min-[700px]:w-auto"
                disabled={busy || data.blockers.length > 0}
                onClick={() => void send(true)}
              >
                {t('publish.publish')}
              </Button>
            )}
          </div>
        </>
      )}
    </WebCard>
  );
}
