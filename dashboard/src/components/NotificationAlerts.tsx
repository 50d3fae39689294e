/**
 * The owner's alerts while any dashboard page is open (issue 27 §1), mounted once in the app's root
 * for a signed-in owner (routes/__root.tsx): it keeps `GET /api/notifications/stream` open
 * (reconnecting by itself) and shows each `notification` as a card in a live region (`role=status`,
 * read out by screen readers) with its title, text and a link to the conversation or booking; the
 * card goes away after {@link ALERT_MS} or when closed. When the owner has allowed the browser's
 * notifications (the settings' "Activar avisos del navegador") and the tab is not in front, it also
 * shows a system notification; clicking it brings the tab to the front on that page. A click on a
 * Web Push alert (dashboard/public/sw.js) asks an open tab to go to its page the same way.
 */
import { useRouter } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { appPath, type OwnerNotification, openAlertStream } from '../lib/notifications.ts';

/** How long a card stays, ms. */
export const ALERT_MS = 30_000;
/** Cards shown at once (the oldest goes first). */
const MAX_ALERTS = 3;

/** The provider: the stream, the cards, the system notifications. */
export function NotificationAlerts() {
  const { t } = useTranslation();
  const router = useRouter();
  const [alerts, setAlerts] = useState<OwnerNotification[]>([]);
  const go = useCallback(
    (url: string) => {
      const path = appPath(url);
      if (path) router.history.push(path);
      else window.location.assign(url);
    },
    [router],
  );
  const dismiss = useCallback((id: string) => setAlerts((list) => list.filter((a) => a.id !== id)), []);

  useEffect(
    () =>
      openAlertStream((n) => {
        setAlerts((list) => (list.some((a) => a.id === n.id) ? list : [...list, n].slice(-MAX_ALERTS)));
        systemAlert(n, go);
      }),
    [go],
  );

  // A click on a Web Push alert: the service worker focused this tab and says where to go.
  useEffect(() => {
    const sw = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
    if (!sw) return;
    const onMessage = (e: MessageEvent) => {
      const data = e.data as { type?: string; url?: unknown } | null;
      if (data?.type === 'charla:open' && typeof data.url === 'string') go(data.url);
    };
    sw.addEventListener('message', onMessage);
    return () => sw.removeEventListener('message', onMessage);
  }, [go]);

  return (
    <section
      aria-label={t('notifications.alerts.region')}
      className="pointer-events-none fixed top-3 right-3 z-50 flex w-[min(24rem,calc(100vw-1.5rem))] flex-col gap-2"
    >
      <div role="status" aria-live="polite" className="flex flex-col gap-2">
        {alerts.map((a) => (
          <AlertCard key={a.id} alert={a} onClose={() => dismiss(a.id)} onOpen={go} />
        ))}
      </div>
    </section>
  );
}

/** One card: title, text, "Abrir" and the close button; it closes itself after {@link ALERT_MS}. */
function AlertCard({
  alert,
  onClose,
  onOpen,
}: {
  alert: OwnerNotification;
  onClose: () => void;
  onOpen: (url: string) => void;
}) {
  const { t } = useTranslation();
  useEffect(() => {
    const timer = setTimeout(onClose, ALERT_MS);
    return () => clearTimeout(timer);
  }, [onClose]);
  return (
    <div className="pointer-events-auto rounded-xl border border-slate-200 border-l-4 border-l-brand-700 bg-white p-3 text-sm shadow-lg">
      <div className="flex items-start gap-2">
        <span aria-hidden="true" className="text-lg leading-none">
          🔔
        </span>
        <div className="min-w-0 flex-1 space-y-1">
          <p className="font-semibold break-words text-slate-900">{alert.title}</p>
          {alert.body ? <p className="line-clamp-3 break-words text-slate-700">{alert.body}</p> : null}
          <a
            href={alert.url}
            className="inline-block font-medium text-brand-800 underline"
            onClick={(e) => {
              if (appPath(alert.url) === null) return;
              e.preventDefault();
              onOpen(alert.url);
              onClose();
            }}
          >
            {t('notifications.alerts.open')}
          </a>
        </div>
        <button
          type="button"
          onClick={onClose}
          aria-label={t('notifications.alerts.dismiss')}
          className="-m-1 rounded-md p-2 leading-none text-slate-600 hover:bg-slate-100"
        >
          <span aria-hidden="true">✕</span>
        </button>
      </div>
    </div>
  );
}

/**
 * A system notification of `n` when the owner allowed them and this tab is not in front (the card
 * is there when it is). Tagged with the alert's id, so the same alert from another open tab or from
 * Web Push replaces it instead of stacking. A browser that only shows them through a service worker
 * (Chrome on Android) throws: the card and Web Push cover it there.
 */
function systemAlert(n: OwnerNotification, go: (url: string) => void): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  if (document.visibilityState === 'visible' && document.hasFocus()) return;
  try {
    const note = new Notification(n.title, { body: n.body, tag: n.id });
    note.onclick = () => {
      window.focus();
      go(n.url);
      note.close();
    };
  } catch {
    // No constructor here; see above.
  }
}
