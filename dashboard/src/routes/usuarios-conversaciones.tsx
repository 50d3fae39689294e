/**
 * `/usuarios-conversaciones` (spec 001 §2 Followers chat screen; issue 14): guarded. The owner's
 * bot's followers and their conversations (components/Conversations.tsx), live. An owner without a
 * bot is told to create one first.
 */
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Conversations } from '../components/Conversations.tsx';
import { ForBot, PageShell } from '../components/PageShell.tsx';
import { requireSession } from '../lib/auth.ts';
import { myChatbotQuery } from '../lib/bot.ts';

/**
 * `?channel=&userId=` opens that conversation (the links of the owner's notifications, issue 27 §1;
 * `chatbotId` and `reservation` may come too and are not needed here). Anything malformed is ignored
 * (checked by hand: a zod schema made when the route tree loads trips the dashboard's CSP probe).
 */
function searchOf(search: Record<string, unknown>): { channel?: string; userId?: string } {
  const { channel, userId } = search;
  // The router reads `userId=34611222333` as a number: taken back as the id's text.
  const id = typeof userId === 'number' ? String(userId) : userId;
  return {
    ...(typeof channel === 'string' && channel.length > 0 && channel.length <= 40 ? { channel } : {}),
    ...(typeof id === 'string' && id.length > 0 && id.length <= 200 ? { userId: id } : {}),
  };
}

export const Route = createFileRoute('/usuarios-conversaciones')({
  validateSearch: searchOf,
  beforeLoad: requireSession,
  component: FollowersScreen,
});

function FollowersScreen() {
  const { t } = useTranslation();
  const bot = useQuery(myChatbotQuery);
  const { channel, userId } = Route.useSearch();
  const initial = channel && userId ? { channel, userId } : null;
  return (
    <PageShell className="min-h-dvh pb-16" main="mx-auto max-w-6xl space-y-4 px-4 py-6">
      <div>
        <h1 className="text-2xl font-bold">{t('conversations.title')}</h1>
        <p className="text-sm text-slate-600">{t('conversations.subtitle')}</p>
      </div>
      <ForBot bot={bot} none={t('conversations.noBot')}>
        {(chatbotId) => <Conversations chatbotId={chatbotId} initial={initial} />}
      </ForBot>
    </PageShell>
  );
}
