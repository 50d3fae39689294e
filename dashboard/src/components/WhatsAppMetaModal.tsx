/**
 * The WhatsApp connection's Meta modal (spec 000 §4, §9; issue 13): the Facebook login flow with its
 * progress states (loading, authenticating, fetching_businesses, fetching_whatsapp, success, error)
 * and Cancel; on success the page reloads after 1 s. When Meta cannot reach this server's public
 * address the modal warns (issue 28 §3: the number would connect and never receive a message).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { postJson, type WhatsAppTarget } from '../lib/whatsapp.ts';
import { Alert, Button } from './ui.tsx';
import { Modal, RELOAD_AFTER_MS } from './WhatsAppModals.tsx';
import { cloudSetupQuery, WebhookWarning } from './WhatsAppWebhookPanel.tsx';

/** The Meta connection's states (spec 000 §4). */
type MetaState =
  | 'loading'
  | 'authenticating'
  | 'fetching_businesses'
  | 'fetching_whatsapp'
  | 'success'
  | 'error';

interface FacebookSdk {
  init(options: { appId: string; version: string; xfbml: boolean; cookie: boolean }): void;
  login(
    callback: (r: { authResponse?: { accessToken: string } | null }) => void,
    options: { scope: string },
  ): void;
}
declare global {
  interface Window {
    FB?: FacebookSdk;
    fbAsyncInit?: () => void;
  }
}

/** Loads Meta's JavaScript SDK once and initialises it with the app id; rejects with `failure`. */
function loadFacebookSdk(appId: string, version: string, failure: string): Promise<FacebookSdk> {
  return new Promise((resolve, reject) => {
    const ready = () => {
      if (!window.FB) return reject(new Error(failure));
      window.FB.init({ appId, version, xfbml: false, cookie: false });
      resolve(window.FB);
    };
    if (window.FB) return ready();
    window.fbAsyncInit = ready;
    const script = document.createElement('script');
    script.src = 'https://connect.facebook.net/es_ES/sdk.js';
    script.async = true;
    script.onerror = () => reject(new Error(failure));
    document.head.appendChild(script);
    setTimeout(() => reject(new Error(failure)), 15_000);
  });
}

/** Thrown when the owner cancelled the flow (nothing is shown). */
class Cancelled extends Error {}

/** The Facebook login flow with its progress and Cancel. */
export function MetaModal({ chatbotId, config, onClose }: WhatsAppTarget & { onClose: () => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<MetaState>('loading');
  const [error, setError] = useState<string | null>(null);
  const cancelled = useRef(false);
  /** Issue 28 §3: the login can succeed and still no message arrive when Meta cannot reach us. */
  const setup = useQuery(cloudSetupQuery);

  useEffect(() => {
    const step = (s: MetaState) => {
      if (cancelled.current) throw new Cancelled();
      setState(s);
    };
    const run = async () => {
      step('loading');
      const fb = await loadFacebookSdk(
        config.meta.appId ?? '',
        config.meta.graphVersion,
        t('whatsapp.meta.errors.sdk'),
      );
      step('authenticating');
      const accessToken = await new Promise<string>((resolve, reject) =>
        fb.login(
          (r) =>
            r.authResponse?.accessToken
              ? resolve(r.authResponse.accessToken)
              : reject(new Error(t('whatsapp.meta.errors.notConnected'))),
          {
            scope: config.meta.scope,
          },
        ),
      );
      step('fetching_businesses');
      const { business } = await postJson<{ business: { id: string } }>('/api/meta/businesses', {
        accessToken,
      });
      step('fetching_whatsapp');
      const { account, phoneNumber } = await postJson<{
        account: { id: string };
        phoneNumber: { id: string };
      }>('/api/meta/whatsapp-accounts', { accessToken, businessId: business.id });
      step('fetching_whatsapp');
      await postJson('/api/connect-whatsapp-cloud', {
        chatbotId,
        phoneNumberId: phoneNumber.id,
        businessAccountId: account.id,
        accessToken,
        fromFacebookLogin: true,
      });
      step('success');
      setTimeout(() => window.location.reload(), RELOAD_AFTER_MS);
    };
    run().catch((err: Error) => {
      if (cancelled.current) return;
      setState('error');
      setError(err.message);
    });
  }, [chatbotId, config, t]);

  return (
    <Modal title={t('whatsapp.meta.title')} onClose={onClose}>
      <p
        className="text-sm text-slate-800"
        aria-live="polite"
        data-testid="whatsapp-meta-state"
        data-state={state}
      >
        {t(`whatsapp.meta.states.${state}`)}
      </p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <WebhookWarning setup={setup.data} />
      <div className="flex justify-end">
        <Button
          variant="secondary"
          className="sm:w-auto"
          onClick={() => {
            cancelled.current = true;
            onClose();
          }}
        >
          {state === 'error' ? t('whatsapp.close') : t('whatsapp.cancel')}
        </Button>
      </div>
    </Modal>
  );
}
