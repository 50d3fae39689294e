/**
 * "Este navegador" in the notification settings (issue 27 §1): the browser's permission for system
 * alerts (asked only when the owner clicks "Activar avisos del navegador"), and, when the server
 * has Web Push, this device's subscription ("Activar push en este dispositivo" / "Desactivar").
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api.ts';
import { currentPushSubscription, disablePush, enablePush, pushSupported } from '../lib/notifications.ts';
import { Alert, Button } from './ui.tsx';

/** The browser's notification permission, or `unsupported`. */
type Permission = NotificationPermission | 'unsupported';

const permissionNow = (): Permission =>
  typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;

/** The push errors the screen has words for (else `server`). */
const PUSH_ERRORS = ['denied', 'unsupported', 'noKey', 'subscribe', 'network'];

/** The block, below the grid; `pushAvailable`: the server can send Web Push. */
export function NotificationDevice({ pushAvailable }: { pushAvailable: boolean }) {
  const { t } = useTranslation();
  const [permission, setPermission] = useState<Permission>(permissionNow);
  const [subscribed, setSubscribed] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!pushAvailable) return;
    let live = true;
    currentPushSubscription().then(
      (sub) => live && setSubscribed(sub !== null),
      () => live && setSubscribed(false),
    );
    return () => {
      live = false;
    };
  }, [pushAvailable]);

  async function askPermission() {
    if (typeof Notification === 'undefined') return;
    setPermission(await Notification.requestPermission());
  }

  async function togglePush(on: boolean) {
    setBusy(true);
    setError(null);
    try {
      if (on) await enablePush();
      else await disablePush();
      setSubscribed(on);
    } catch (err) {
      const code = err instanceof ApiError ? err.code : 'network';
      setError(t(`notifications.push.errors.${PUSH_ERRORS.includes(code) ? code : 'server'}`));
    } finally {
      setPermission(permissionNow());
      setBusy(false);
    }
  }

  return (
    <div className="space-y-3 border-t border-slate-200 pt-4">
      <h3 className="font-semibold">{t('notifications.browser.title')}</h3>
      <p className="text-sm text-slate-700">{t('notifications.browser.text')}</p>
      {permission === 'default' ? (
        <Button variant="secondary" className="min-[700px]:w-auto" onClick={() => void askPermission()}>
          {t('notifications.browser.enable')}
        </Button>
      ) : (
        <p role="status" className="text-sm text-slate-700">
          {t(`notifications.browser.${permission}`)}
        </p>
      )}
      {pushAvailable && pushSupported() ? (
        <div className="space-y-2">
          <p className="text-sm text-slate-700">
            {subscribed ? t('notifications.push.on') : t('notifications.push.off')}
          </p>
          {subscribed !== null ? (
            <Button
              variant={subscribed ? 'secondary' : 'primary'}
              className="min-[700px]:w-auto"
              disabled={busy || permission === 'denied'}
              onClick={() => void togglePush(!subscribed)}
            >
              {subscribed ? t('notifications.push.disable') : t('notifications.push.enable')}
            </Button>
          ) : null}
        </div>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </div>
  );
}
