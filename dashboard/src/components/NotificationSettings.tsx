/**
 * "Avisos" on /gestion (issue 27 §1): which events reach the owner on which route (e-mail, their
 * Telegram, Web Push on their devices, an alert in the open dashboard), as a grid of events ×
 * routes at 700 px and more and one card per event below; and the mails' language. Each toggle is
 * saved at once (`PUT /api/notifications/settings`), shown before the server answers and put back,
 * with an error, when the save fails. The Telegram column is off until the owner links their
 * Telegram on the Conversations screen; the push column is off when the server has no Web Push
 * (the operator can turn it on). This browser's permission and push subscription are below
 * (components/NotificationDevice.tsx).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { APP_LANGUAGES } from '../i18n/index.ts';
import {
  applyPatch,
  KNOWN_KINDS,
  type MailLanguage,
  type NotifyRoute,
  notificationSettingsQuery,
  ROUTES,
  type NotificationSettings as Settings,
  type SettingsPatch,
  saveNotificationSettings,
} from '../lib/notifications.ts';
import { NotificationDevice } from './NotificationDevice.tsx';
import { Alert, Select } from './ui.tsx';

const KEY = notificationSettingsQuery.queryKey;
const SAVE_KEY = ['notification-settings', 'save'];

/**
 * The patch that undoes `patch` on `before` (only what it changed): a failed save puts back its own
 * change and leaves a later toggle, still saving, alone.
 */
function undoOf(before: Settings, patch: SettingsPatch): SettingsPatch {
  const events: SettingsPatch['events'] = {};
  for (const [kind, routes] of Object.entries(patch.events ?? {})) {
    events[kind] = Object.fromEntries(
      Object.keys(routes).map((r) => [r, before.events[kind]?.[r as NotifyRoute] ?? false]),
    );
  }
  return { ...(patch.language ? { language: before.language } : {}), events };
}

/** The section, for the signed-in owner. */
export function NotificationSettings() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const settings = useQuery(notificationSettingsQuery);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationKey: SAVE_KEY,
    mutationFn: saveNotificationSettings,
    onMutate: async (patch: SettingsPatch) => {
      await queryClient.cancelQueries({ queryKey: KEY });
      const before = queryClient.getQueryData<Settings>(KEY);
      if (before) queryClient.setQueryData<Settings>(KEY, applyPatch(before, patch));
      setError(null);
      return { undo: before ? undoOf(before, patch) : null };
    },
    onError: (_err, _patch, result) => {
      const undo = result?.undo;
      if (undo) queryClient.setQueryData<Settings>(KEY, (now) => (now ? applyPatch(now, undo) : now));
      setError(t('notifications.saveError'));
    },
    onSuccess: (data) => {
      // Only the last save's answer is the whole truth; earlier ones may miss a later toggle.
      if (queryClient.isMutating({ mutationKey: SAVE_KEY }) <= 1) queryClient.setQueryData(KEY, data);
    },
  });

  return (
    <section
      id="avisos"
      aria-labelledby="notifications-title"
      className="scroll-mt-4 space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="space-y-1">
        <h2 id="notifications-title" className="text-lg font-semibold">
          {t('notifications.title')}
        </h2>
        <p className="text-sm text-slate-700">{t('notifications.text')}</p>
      </div>
      {settings.isError ? <Alert tone="error">{t('notifications.loadError')}</Alert> : null}
      {settings.data ? (
        <>
          <EventGrid data={settings.data} onChange={(patch) => save.mutate(patch)} />
          {error ? <Alert tone="error">{error}</Alert> : null}
          <div className="max-w-xs">
            <Select
              label={t('notifications.language')}
              value={settings.data.language}
              onChange={(v) => save.mutate({ language: v as MailLanguage })}
            >
              {APP_LANGUAGES.map((l) => (
                <option key={l.code} value={l.code}>
                  {l.label}
                </option>
              ))}
            </Select>
          </div>
          <NotificationDevice pushAvailable={settings.data.pushAvailable} />
        </>
      ) : null}
    </section>
  );
}

/** Why a column is off, as the id of the note its checkboxes point to, or null when it is on. */
function offNote(route: NotifyRoute, data: Settings): string | null {
  if (route === 'telegram' && !data.telegramLinked) return 'notify-telegram-note';
  if (route === 'push' && !data.pushAvailable) return 'notify-push-note';
  return null;
}

/** The events × routes checkboxes, and the notes of the columns that are off. */
function EventGrid({ data, onChange }: { data: Settings; onChange: (patch: SettingsPatch) => void }) {
  const { t } = useTranslation();
  const kinds = KNOWN_KINDS.filter((k) => data.events[k]);
  const cell = 'min-[700px]:border-t min-[700px]:border-slate-200 min-[700px]:py-3';
  return (
    <div className="space-y-3">
      <div className="space-y-3 min-[700px]:grid min-[700px]:grid-cols-[minmax(0,1fr)_repeat(4,minmax(5.5rem,auto))] min-[700px]:gap-x-4 min-[700px]:space-y-0">
        <div aria-hidden="true" className="hidden min-[700px]:contents">
          <span className="pb-2 text-sm font-semibold text-slate-700">{t('notifications.event')}</span>
          {ROUTES.map((r) => (
            <span key={r} className="pb-2 text-center text-sm font-semibold text-slate-700">
              {t(`notifications.routes.${r}`)}
            </span>
          ))}
        </div>
        {kinds.map((kind) => (
          <fieldset
            key={kind}
            aria-labelledby={`notify-${kind}`}
            className="min-w-0 rounded-xl border border-slate-200 p-3 min-[700px]:contents"
          >
            <div className={`${cell} min-w-0`}>
              <p id={`notify-${kind}`} className="font-medium text-slate-900">
                {t(`notifications.events.${kind}.title`)}
              </p>
              <p className="text-sm text-slate-600">{t(`notifications.events.${kind}.text`)}</p>
            </div>
            <div className="mt-2 grid grid-cols-2 gap-2 min-[700px]:contents">
              {ROUTES.map((route) => {
                // A column that is off shows empty: nothing goes that way now, whatever was chosen.
                const note = offNote(route, data);
                return (
                  <label
                    key={route}
                    className={`flex min-h-11 items-center gap-2 text-sm min-[700px]:justify-center ${cell} ${note ? 'text-slate-500' : 'text-slate-800'}`}
                  >
                    <input
                      type="checkbox"
                      checked={note === null && (data.events[kind]?.[route] ?? false)}
                      disabled={note !== null}
                      aria-describedby={note ?? undefined}
                      onChange={(e) => onChange({ events: { [kind]: { [route]: e.target.checked } } })}
                      className="h-5 w-5 shrink-0 rounded border-slate-300 accent-brand-700 disabled:cursor-not-allowed"
                    />
                    <span className="min-[700px]:sr-only">{t(`notifications.routes.${route}`)}</span>
                  </label>
                );
              })}
            </div>
          </fieldset>
        ))}
      </div>
      {!data.telegramLinked ? (
        <p id="notify-telegram-note" className="text-sm text-slate-700">
          <span className="font-semibold">{t('notifications.routes.telegram')}:</span>{' '}
          {t('notifications.telegramNote')}{' '}
          <Link to="/usuarios-conversaciones" className="font-medium text-brand-800 underline">
            {t('notifications.telegramLink')}
          </Link>
        </p>
      ) : null}
      {!data.pushAvailable ? (
        <p id="notify-push-note" className="text-sm text-slate-700">
          <span className="font-semibold">{t('notifications.routes.push')}:</span>{' '}
          {t('notifications.pushUnavailable')}
        </p>
      ) : null}
    </div>
  );
}
