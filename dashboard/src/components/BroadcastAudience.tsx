/**
 * The audience of a broadcast per channel (issue 27 §5), as the owner sees it before sending: in
 * the broadcast bar and in the confirmation dialog. Telegram, a WhatsApp linked number and the web
 * (widget and IALanding visitors) with how many get it and how many are left out (blocked the
 * bot, or asked not to get broadcasts: issue 28 §1); WhatsApp Cloud followers counted and marked
 * as needing the approved broadcast template until Meta approves it (issue 28 §1), then sent to.
 */
import { useTranslation } from 'react-i18next';
import type { AudienceAnswer, AudienceCount } from '../lib/broadcasts.ts';

/** The channel's icon, beside its translated name (decorative). */
const ICONS: Record<AudienceCount['audience'], string> = {
  telegram: '✈️',
  whatsapp: '📱',
  web: '🌐',
  whatsappCloud: '☁️',
};

/** The per-channel list; `heading` names it for assistive technology. */
export function AudienceList({ audience, heading }: { audience: AudienceAnswer; heading: string }) {
  const { t } = useTranslation();
  return (
    <ul aria-label={heading} className="divide-y divide-slate-100 rounded-xl border border-slate-200">
      {audience.audiences.map((a) => (
        <li
          key={a.audience}
          data-audience={a.audience}
          className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 px-3 py-2 text-sm"
        >
          <span className="min-w-0 font-medium text-slate-800">
            <span aria-hidden="true">{ICONS[a.audience]} </span>
            {t(`broadcast.audience.${a.audience}`)}
          </span>
          <span className={`ml-auto ${a.sendable ? 'font-semibold text-slate-900' : 'text-slate-600'}`}>
            {a.sendable
              ? t('broadcast.audience.followers', { count: a.count })
              : t('broadcast.audience.followers', { count: a.leftOut })}
          </span>
          {!a.sendable ? (
            <span className="basis-full text-xs text-amber-800">{t('broadcast.audience.template')}</span>
          ) : a.leftOut > 0 ? (
            <span className="basis-full text-xs text-slate-600">
              {t(a.reason === 'optedOut' ? 'broadcast.audience.optedOut' : 'broadcast.audience.blocked', {
                count: a.leftOut,
              })}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
