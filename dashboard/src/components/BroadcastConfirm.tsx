/**
 * The confirmation before a broadcast goes out (issue 27 §5), instead of the browser's
 * `window.confirm`: a modal dialog (role dialog, aria-modal, labelled by its title, described by
 * its summary) that shows what is sent and the audience per channel, fresh from the server; focus
 * moves into it, Tab stays inside, Escape or Cancel closes it and focus returns to where it was.
 * Sending is offered only when the broadcast reaches someone. When WhatsApp Cloud followers get it
 * (the broadcast template is approved, issue 28 §1) it says how many, as that template, and that
 * Meta charges each marketing message (with a link to Meta's prices).
 */
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { AudienceAnswer } from '../lib/broadcasts.ts';
import { AudienceList } from './BroadcastAudience.tsx';
import { Alert, Dialog, useEscape } from './ui.tsx';

/** The dialog. `audience` undefined while it loads, null when it could not be read. */
export function BroadcastConfirm({
  what,
  audience,
  onConfirm,
  onCancel,
}: {
  /** What is sent, as one line (text, file name, voice note). */
  what: string;
  audience: AudienceAnswer | null | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const descId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const reachable = audience?.reachable ?? 0;
  const cloud = audience?.audiences.find((a) => a.audience === 'whatsappCloud' && a.sendable && a.count > 0);
  useEscape(onCancel);

  // Focus goes into the dialog at once (its panel while the counts load) and back on close.
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    panel.current?.focus();
    return () => before?.focus?.();
  }, []);
  // Once the counts are in: on "send" when it reaches someone, else on "cancel".
  const loaded = audience !== undefined;
  useEffect(() => {
    if (loaded && reachable >= 0) panel.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [loaded, reachable]);

  // Tab and Shift+Tab cycle through the dialog's own controls.
  useEffect(() => {
    const el = panel.current;
    if (!el) return;
    const trap = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Tab') return;
      const items = [...el.querySelectorAll<HTMLElement>('button:not([disabled]), [href], [tabindex="0"]')];
      if (items.length === 0) return;
      const first = items[0]!;
      const last = items.at(-1)!;
      if (e.shiftKey && (document.activeElement === first || document.activeElement === el)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    };
    el.addEventListener('keydown', trap);
    return () => el.removeEventListener('keydown', trap);
  }, []);

  return (
    <Dialog labelledBy={titleId} panel="w-full max-w-md">
      <div
        ref={panel}
        tabIndex={-1}
        aria-describedby={descId}
        className="max-h-[calc(100dvh-2rem)] space-y-4 overflow-y-auto rounded-2xl bg-white p-5 shadow-xl outline-none"
      >
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {t('broadcast.confirmTitle')}
        </h2>
        <div>
          <p className="text-xs font-medium uppercase tracking-wide text-slate-600">
            {t('broadcast.preview')}
          </p>
          <p className="mt-1 line-clamp-4 break-words whitespace-pre-wrap rounded-lg bg-slate-50 p-2 text-sm">
            {what}
          </p>
        </div>
        {audience === undefined ? (
          <p className="text-sm text-slate-600">{t('broadcast.audience.loading')}</p>
        ) : audience === null ? (
          <Alert tone="error">{t('broadcast.audience.loadError')}</Alert>
        ) : (
          <AudienceList audience={audience} heading={t('broadcast.audience.title')} />
        )}
        {cloud ? (
          <div data-cloud-cost="" className="space-y-1">
            <p className="text-sm text-slate-800">{t('broadcast.cloud.reach', { count: cloud.count })}</p>
            <p className="rounded-lg border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
              {t('broadcast.cloud.cost')}{' '}
              <a
                href="https://developers.facebook.com/docs/whatsapp/pricing"
                target="_blank"
                rel="noreferrer"
                className="font-medium underline"
              >
                {t('broadcast.cloud.pricing')}
              </a>
            </p>
          </div>
        ) : null}
        <p id={descId} className="text-sm font-medium text-slate-800">
          {audience && reachable === 0
            ? t('broadcast.noAudience')
            : audience
              ? t('broadcast.confirmReach', { count: reachable })
              : ''}
        </p>
        <div className="flex flex-wrap justify-end gap-2">
          <button
            type="button"
            onClick={onCancel}
            data-autofocus={reachable === 0 ? '' : undefined}
            className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800"
          >
            {t('broadcast.cancel')}
          </button>
          <button
            type="button"
            onClick={onConfirm}
            disabled={!audience || reachable === 0}
            data-autofocus={reachable === 0 ? undefined : ''}
            className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white disabled:bg-slate-400"
          >
            {t('broadcast.confirmSend', { count: reachable })}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
