/**
 * `/charla-web`, "Tu Landing Web con Charla" (spec 001 §2, §4, §8; issue 6): guarded like /configure.
 * - Opening it runs the web channel load rules on the server (`GET /api/charla-web`: a bot, its key
 *   and its IALanding are created when missing).
 * - The notice that the web bot shares the Telegram bot's configuration, with a link to /configure.
 * - The channel: name, Charla Key, service Activo/Inactivo with Activar/Desactivar (the screen changes
 *   only when the server answers with success; a failure changes nothing), and the plan: "Plan
 *   premium", the days remaining, or "Sin días" with the red warning that the bot is paused
 *   (components/PlanStatus.tsx; its Gestión link waits for that screen, lib/features.ts).
 * - "Entrar a mi IALANDING": creates or updates the IALanding, then goes to /ialanding/<slug> 500 ms
 *   later; failures show the spec's alert texts as error toasts (the dashboard's alerts).
 * - The widget (components/WebService.tsx): "Generar Código" shows the embeddable snippet, "Copiar"
 *   turns into "Copiado" for 2 s, and the WordPress install steps; while the service is Inactivo it
 *   warns that the widget will not answer, with an Activar button.
 * - "Publicar en Facebots" (components/PublishCard.tsx, issue 29): a new bot is private until published.
 * - A floating button opens a chat window that talks to the bot through the web channel.
 * Mobile layout below 700 px (spec 001 §9): one column.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { PageShell, PageTitle } from '../components/PageShell.tsx';
import { PausedWarning, PlanSummary } from '../components/PlanStatus.tsx';
import { PublishCard } from '../components/PublishCard.tsx';
import { Alert, Button } from '../components/ui.tsx';
import { WebChatPanel } from '../components/WebChat.tsx';
import { WebCard as Card, useWebToggle, WidgetSection } from '../components/WebService.tsx';
import { sendJson } from '../lib/api.ts';
import { requireSession } from '../lib/auth.ts';
import { myChatbotQuery } from '../lib/bot.ts';
import { enabled } from '../lib/features.ts';
import { type CharlaWeb, charlaWebQuery } from '../lib/web.ts';

/** Spec 001 §9: the IALanding redirect waits 500 ms. */
const IALANDING_REDIRECT_MS = 500;

export const Route = createFileRoute('/charla-web')({
  beforeLoad: requireSession,
  component: CharlaWebScreen,
});

function CharlaWebScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const web = useQuery(charlaWebQuery);
  const botId = web.data?.chatbot.id;

  // The load may have created the owner's bot: the status bar and /main read it too.
  useEffect(() => {
    if (botId) void queryClient.invalidateQueries({ queryKey: myChatbotQuery.queryKey });
  }, [botId, queryClient]);

  return (
    <PageShell
      className="min-h-dvh pb-24"
      main="mx-auto max-w-5xl space-y-6 px-4 py-6 min-[700px]:py-8"
      after={
        web.data ? (
          <WebChatPanel chatKey={web.data.chatbot.charla_key} business={web.data.chatbot.business_name} />
        ) : null
      }
    >
      <PageTitle title={t('web.title')} subtitle={t('web.subtitle')} />
      <div
        className="flex flex-col gap-2 rounded-xl border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-900 min-[700px]:flex-row min-[700px]:items-center min-[700px]:justify-between"
        data-testid="shared-notice"
      >
        <p>{t('web.sharedNotice')}</p>
        <Link to="/configure" className="shrink-0 font-semibold text-sky-900 underline hover:no-underline">
          {t('web.sharedLink')}
        </Link>
      </div>
      {web.isPending ? (
        <p role="status" className="text-slate-600">
          {t('web.loading')}
        </p>
      ) : web.isError ? (
        <div className="space-y-3">
          <Alert tone="error">{t('web.loadError')}</Alert>
          <Button variant="secondary" className="w-auto" onClick={() => void web.refetch()}>
            {t('web.retry')}
          </Button>
        </div>
      ) : (
        <WebChannel data={web.data} refetch={async () => (await web.refetch()).data} />
      )}
    </PageShell>
  );
}

function WebChannel({ data, refetch }: { data: CharlaWeb; refetch: () => Promise<CharlaWeb | undefined> }) {
  return (
    <>
      <div className="grid gap-6 min-[700px]:grid-cols-2">
        <ChannelInfo data={data} />
        <IalandingCard data={data} />
      </div>
      <WidgetSection data={data} refetch={refetch} />
      {enabled('facebots') ? (
        <PublishCard chatbotId={data.chatbot.id} webEnabled={data.chatbot.web_enabled} />
      ) : null}
    </>
  );
}

/** The channel info block: name, key, service status and toggle, the plan and days remaining. */
function ChannelInfo({ data }: { data: CharlaWeb }) {
  const { t } = useTranslation();
  const { chatbot } = data;
  const { toggle, busy } = useWebToggle(chatbot);

  return (
    <Card title={t('web.info.title')} testId="channel-info">
      <dl className="space-y-4 text-sm">
        <Row label={t('web.info.name')}>
          <span className="font-semibold" data-testid="channel-name">
            {chatbot.business_name}
          </span>
        </Row>
        <Row label={t('web.info.key')}>
          <code className="block rounded-md bg-slate-100 px-2 py-1 font-mono text-xs break-all text-slate-800">
            {chatbot.charla_key ?? '—'}
          </code>
          {/* Issue 29: what the key is, where it is shown. */}
          <p className="mt-1 text-xs text-slate-600">{t('web.info.keyHint')}</p>
        </Row>
        <Row label={t('web.info.status')}>
          <div className="flex flex-wrap items-center gap-3">
            <span
              data-testid="web-status"
              className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ${
                chatbot.web_enabled ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-700'
              }`}
            >
              <span
                aria-hidden="true"
                className={`h-2 w-2 rounded-full ${chatbot.web_enabled ? 'bg-emerald-500' : 'bg-slate-500'}`}
              />
              {chatbot.web_enabled ? t('web.info.active') : t('web.info.inactive')}
            </span>
            <button
              type="button"
              onClick={() => void toggle()}
              disabled={busy}
              className={`rounded-lg px-3 py-1.5 text-sm font-semibold disabled:opacity-60 ${
                chatbot.web_enabled
                  ? 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50'
                  : 'bg-brand-700 text-white hover:bg-brand-800'
              }`}
            >
              {chatbot.web_enabled ? t('web.info.deactivate') : t('web.info.activate')}
            </button>
          </div>
          {chatbot.web_enabled ? null : (
            <p className="mt-1 text-xs text-slate-600">{t('web.info.inactiveHint')}</p>
          )}
        </Row>
        <Row label={t('plan.title')}>
          <PlanSummary info={data} testId="web-days" />
          <PausedWarning info={data} className="mt-2" />
        </Row>
      </dl>
    </Card>
  );
}

/** "Entrar a mi IALANDING": create or update the IALanding, then open it 500 ms later. */
function IalandingCard({ data }: { data: CharlaWeb }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [entering, setEntering] = useState(false);
  const slug = data.ialanding?.slug;
  const address = slug ? `${window.location.origin}/ialanding/${slug}` : null;

  async function enter() {
    const chatbotId = data.chatbot.id;
    const key = data.chatbot.charla_key;
    if (!chatbotId || !key) {
      toast.error(t('web.ialanding.missing'));
      return;
    }
    setEntering(true);
    try {
      const res = await sendJson('/api/charla-web/ialanding', { chatbotId, key });
      if (res.status === 400) {
        toast.error(t('web.ialanding.missing'));
        setEntering(false);
        return;
      }
      const body = (await res.json()) as { slug?: string };
      if (!res.ok || !body.slug) throw new Error(String(res.status));
      const target = body.slug;
      setTimeout(
        () => void navigate({ to: '/ialanding/$slug', params: { slug: target } }),
        IALANDING_REDIRECT_MS,
      );
    } catch {
      toast.error(t('web.ialanding.error'));
      setEntering(false);
    }
  }

  return (
    <Card title={t('web.ialanding.title')} testId="ialanding-card">
      <p className="text-sm text-slate-700">{t('web.ialanding.text')}</p>
      {address ? (
        <p className="text-sm">
          <span className="text-slate-600">{t('web.ialanding.address')}: </span>
          <code className="font-mono text-xs break-all text-slate-800">{address}</code>
        </p>
      ) : null}
      <Button onClick={() => void enter()} disabled={entering} className="min-[700px]:w-auto">
        <span aria-hidden="true">🚀</span>
        {entering ? t('web.ialanding.entering') : t('web.ialanding.enter')}
      </Button>
    </Card>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 min-[700px]:grid-cols-[10rem_1fr] min-[700px]:gap-3">
      <dt className="text-slate-600">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}
