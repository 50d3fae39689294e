/**
 * `/admin`, the operator's screen (issue 26 §6): only for an owner with the operator role (others
 * are sent to /main; the API refuses them too). Owners and their days with the grant-days form,
 * coupons with the create form, bots with their channels' health, and the recent failures.
 */
import { createFileRoute, redirect } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { BotsPanel, CouponsPanel, ErrorsPanel, OwnersPanel } from '../components/AdminPanels.tsx';
import { PageShell, PageTitle } from '../components/PageShell.tsx';
import { meQuery, requireSession } from '../lib/auth.ts';

export const Route = createFileRoute('/admin')({
  beforeLoad: async (args) => {
    await requireSession(args);
    const me = await args.context.queryClient.ensureQueryData(meQuery);
    if (!me?.operator) throw redirect({ to: '/main' });
  },
  component: Admin,
});

function Admin() {
  const { t } = useTranslation();
  return (
    <PageShell className="min-h-dvh pb-16" main="mx-auto max-w-5xl space-y-6 px-4 py-6 min-[700px]:py-8">
      <PageTitle title={t('admin.title')} subtitle={t('admin.subtitle')} />
      <div className="grid gap-6 min-[1000px]:grid-cols-2">
        <OwnersPanel />
        <CouponsPanel />
      </div>
      <BotsPanel />
      <ErrorsPanel />
    </PageShell>
  );
}
