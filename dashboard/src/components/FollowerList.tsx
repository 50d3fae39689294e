/**
 * The followers' list of /usuarios-conversaciones (issue 14; issue 27 §4): each follower named by
 * what the channel knows (Telegram first name with the @username under it, WhatsApp profile name
 * with the number, the name given in a booking; a nameless web visitor is "Visitante web 12"),
 * channel, last message (one line, cut: the list fits a 390 px phone whatever its length), state,
 * unread count; above it the search (names and message texts), the channel and state filters, and
 * the switch that adds the owner's test chats (left out by default).
 */
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  CONVERSATION_STATUSES,
  FILTER_CHANNELS,
  type FollowersQuery,
  hiddenText,
} from '../../../plugins/conversations/api.ts';
import type { FollowerRow } from '../lib/conversations.ts';
import { SrLabel } from './ui.tsx';

const CHANNEL_ICON: Record<string, string> = {
  telegram: '✈️',
  whatsapp: '🟢',
  web: '🌐',
  ialanding: '🌐',
  test: '🧪',
  cli: '⌨️',
};

/**
 * How a follower is called on the screen (issue 27 §4.2): the name the channel gave (Telegram's
 * first name, WhatsApp's profile name), else the name given in a booking, else their @username or
 * WhatsApp number, else "Visitante web {n}", else their id.
 */
export function followerName(
  t: TFunction,
  f: Pick<FollowerRow, 'name' | 'handle' | 'visitorNo' | 'userId' | 'channel'>,
): string {
  if (f.name) return f.name;
  const phone = followerDetail(f);
  if (phone) return phone;
  if (f.visitorNo) return t('conversations.visitor', { n: f.visitorNo });
  return f.userId;
}

/**
 * What else the channel tells about a follower (issue 27 §4.2): their Telegram `@username` or
 * WhatsApp number as the channel gave it, else a WhatsApp follower's number from their id
 * (`34600111222` or `34600111222@s.whatsapp.net`), else null.
 */
export function followerDetail(f: Pick<FollowerRow, 'channel' | 'userId' | 'handle'>): string | null {
  if (f.handle) return f.handle;
  const phone = f.channel === 'whatsapp' ? /^(\d{6,15})(@s\.whatsapp\.net)?$/.exec(f.userId) : null;
  return phone ? `+${phone[1]}` : null;
}

/** The filters above the list; `onChange` gets the whole new filter. */
export function FollowerFilters({
  filter,
  onChange,
}: {
  filter: FollowersQuery;
  onChange: (f: FollowersQuery) => void;
}) {
  const { t } = useTranslation();
  const select = 'block w-full min-w-0 rounded-lg border border-slate-300 px-2 py-2 text-sm';
  return (
    <div className="space-y-2 p-3">
      <SrLabel htmlFor="conversations-search">{t('conversations.search')}</SrLabel>
      <input
        id="conversations-search"
        type="search"
        value={filter.q ?? ''}
        placeholder={t('conversations.search')}
        onChange={(e) => onChange({ ...filter, q: e.target.value })}
        className="block w-full min-w-0 rounded-lg border border-slate-300 px-3 py-2 text-base"
      />
      <div className="grid grid-cols-2 gap-2 min-[700px]:grid-cols-1">
        <div className="min-w-0">
          <SrLabel htmlFor="conversations-channel">{t('conversations.channelFilter')}</SrLabel>
          <select
            id="conversations-channel"
            value={filter.channel ?? ''}
            onChange={(e) =>
              onChange({ ...filter, channel: (e.target.value || undefined) as FollowersQuery['channel'] })
            }
            className={select}
          >
            <option value="">{t('conversations.allChannels')}</option>
            {FILTER_CHANNELS.map((c) => (
              <option key={c} value={c}>
                {t(`conversations.channels.${c}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="min-w-0">
          <SrLabel htmlFor="conversations-status">{t('conversations.statusFilter')}</SrLabel>
          <select
            id="conversations-status"
            value={filter.status ?? ''}
            onChange={(e) =>
              onChange({ ...filter, status: (e.target.value || undefined) as FollowersQuery['status'] })
            }
            className={select}
          >
            <option value="">{t('conversations.allStatuses')}</option>
            {CONVERSATION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`conversations.status.${s}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={filter.tests === '1'}
          onChange={(e) => onChange({ ...filter, tests: e.target.checked ? '1' : undefined })}
          className="h-4 w-4"
        />
        {t('conversations.showTests')}
      </label>
    </div>
  );
}

/** One follower of the list, as a button that opens their conversation. */
export function FollowerButton({
  follower: f,
  selected,
  onSelect,
}: {
  follower: FollowerRow;
  selected: boolean;
  onSelect: () => void;
}) {
  const { t, i18n } = useTranslation();
  // Today's messages show their time only, older ones their day (as messaging apps do), so the
  // follower's name keeps room on a phone.
  const at = new Date(f.lastAt);
  const today = at.toDateString() === new Date().toDateString();
  const time = new Intl.DateTimeFormat(
    i18n.language,
    today ? { hour: '2-digit', minute: '2-digit' } : { day: 'numeric', month: 'short' },
  ).format(at);
  const full = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-current={selected ? 'true' : undefined}
      // On a phone the floating microphone (VoiceRecorder, 56 px at 16 px from the edge) passes over
      // the rows' right side as the page scrolls: the time and the unread count stay clear of it.
      className={`flex w-full min-w-0 items-start gap-3 border-t border-slate-100 px-3 py-2.5 text-left hover:bg-slate-50 max-[699px]:pr-16 ${selected ? 'bg-brand-50' : ''}`}
    >
      <span aria-hidden="true" className="mt-0.5 text-lg">
        {CHANNEL_ICON[f.channel] ?? '💬'}
      </span>
      <span className="min-w-0 flex-1">
        <span className="flex min-w-0 items-baseline justify-between gap-2">
          <span className="min-w-0 truncate font-semibold">{followerName(t, f)}</span>
          <time
            className="shrink-0 text-xs text-slate-600"
            data-testid="follower-time"
            dateTime={f.lastAt}
            title={full}
          >
            {time}
          </time>
        </span>
        <span className="sr-only">
          {t(`conversations.channels.${f.channel}`, { defaultValue: f.channel })}
        </span>
        {followerDetail(f) && f.name && followerDetail(f) !== f.name ? (
          <span className="block truncate text-xs text-slate-600" data-testid="follower-handle">
            {followerDetail(f)}
          </span>
        ) : null}
        <span className="block truncate text-sm text-slate-600">
          {hiddenText(f.lastText) ? '…' : f.lastText}
        </span>
        <span className="flex flex-wrap gap-x-2">
          {f.status !== 'open' ? (
            <span
              className={`text-xs font-medium ${f.status === 'needs_person' ? 'text-red-700' : 'text-emerald-800'}`}
            >
              {t(`conversations.status.${f.status}`)}
            </span>
          ) : null}
          {f.pausedUntil ? (
            <span className="text-xs font-medium text-amber-800">{t('conversations.pausedShort')}</span>
          ) : null}
        </span>
      </span>
      {f.unread > 0 ? (
        <span className="shrink-0 rounded-full bg-brand-700 px-2 py-0.5 text-xs font-bold text-white">
          <span className="sr-only">{t('conversations.unread', { count: f.unread })}</span>
          <span aria-hidden="true">{f.unread}</span>
        </span>
      ) : null}
    </button>
  );
}
