/**
 * The web service parts of /charla-web (spec 001 §2, §4; issue 10): switching the service on or off
 * (the screen changes only when the server answers with success, spec 001 §4), the widget section
 * and the cards the screen is made of.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { embedSnippet } from '../../../widget/snippet.ts';
import { sendJson } from '../lib/api.ts';
import { type CharlaWeb, charlaWebQuery } from '../lib/web.ts';
import { Button } from './ui.tsx';

/** Spec 001 §9: the copy confirmation shows for 2000 ms. */
const COPIED_MS = 2000;

/**
 * Switches the bot's web service (`POST /api/charla-web/toggle`); the cached channel changes only
 * on a 200, and a failure (HTTP or network) leaves it as it was (spec 001 §4: not shown).
 */
export function useWebToggle(chatbot: CharlaWeb['chatbot']) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  async function toggle() {
    setBusy(true);
    try {
      const res = await sendJson('/api/charla-web/toggle', {
        chatbotId: chatbot.id,
        enabled: !chatbot.web_enabled,
      });
      if (!res.ok) return;
      const body = (await res.json()) as { web_enabled: boolean };
      queryClient.setQueryData<CharlaWeb>(charlaWebQuery.queryKey, (old) =>
        old ? { ...old, chatbot: { ...old.chatbot, web_enabled: body.web_enabled } } : old,
      );
    } catch {
      // Network failure: the status stays as it was.
    } finally {
      setBusy(false);
    }
  }
  return { toggle, busy };
}

/**
 * The widget: the warning while the service is Inactivo (with Activar), the snippet on demand, its
 * copy button and the WordPress steps. `id="widget"` is where /main's first steps lead.
 */
export function WidgetSection({
  data,
  refetch,
}: {
  data: CharlaWeb;
  refetch: () => Promise<CharlaWeb | undefined>;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [generating, setGenerating] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const { toggle, busy } = useWebToggle(data.chatbot);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function generate() {
    let key: string | undefined = data.chatbot.charla_key;
    if (!key) {
      // Spec 001 §4: generating the code without a key generates one, then reads the channel again.
      setGenerating(true);
      try {
        const res = await sendJson('/api/charla-web/key', { chatbotId: data.chatbot.id });
        if (res.ok) key = (await refetch())?.chatbot.charla_key;
      } catch {
        key = undefined;
      } finally {
        setGenerating(false);
      }
      if (!key) {
        toast.error(t('web.widget.generateError'));
        return;
      }
    }
    setCode(embedSnippet(window.location.origin, key));
  }

  async function copy() {
    if (!code) return;
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPIED_MS);
    } catch {
      toast.error(t('web.widget.copyError'));
    }
  }

  return (
    <WebCard title={t('web.widget.title')} testId="widget-section" id="widget">
      <p className="text-sm text-slate-700">{t('web.widget.text')}</p>
      {data.chatbot.web_enabled ? null : (
        <div
          role="status"
          className="flex flex-col gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 min-[700px]:flex-row min-[700px]:items-center min-[700px]:justify-between"
          data-testid="widget-inactive"
        >
          <p>{t('web.widget.inactiveWarning')}</p>
          <button
            type="button"
            onClick={() => void toggle()}
            disabled={busy}
            className="w-fit shrink-0 rounded-lg bg-brand-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            {t('web.widget.activate')}
          </button>
        </div>
      )}
      <Button onClick={() => void generate()} disabled={generating} className="min-[700px]:w-auto">
        {t('web.widget.generate')}
      </Button>
      {code ? (
        <div className="space-y-2">
          <div className="flex items-center justify-between gap-2">
            <h3 className="text-sm font-medium text-slate-700">{t('web.widget.codeLabel')}</h3>
            <button
              type="button"
              onClick={() => void copy()}
              aria-live="polite"
              className={`rounded-lg px-3 py-1.5 text-sm font-semibold ${
                copied ? 'bg-emerald-600 text-white' : 'border border-slate-300 bg-white hover:bg-slate-50'
              }`}
            >
              {copied ? `✓ ${t('web.widget.copied')}` : t('web.widget.copy')}
            </button>
          </div>
          <pre
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1, axe scrollable-region-focusable)
            tabIndex={0}
            className="max-h-64 overflow-auto rounded-xl bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100"
            data-testid="widget-code"
          >
            <code>{code}</code>
          </pre>
        </div>
      ) : null}
      <div className="rounded-xl border border-slate-200 bg-slate-50 p-4">
        <h3 className="text-sm font-semibold text-slate-800">{t('web.widget.wordpress')}</h3>
        <ol className="mt-2 list-decimal space-y-1.5 pl-5 text-sm text-slate-700">
          {(['s1', 's2', 's3', 's4'] as const).map((key) => (
            <li key={key}>{t(`web.widget.steps.${key}`)}</li>
          ))}
        </ol>
      </div>
    </WebCard>
  );
}

/** A card of /charla-web: a titled white box. */
export function WebCard({
  title,
  testId,
  id,
  children,
}: {
  title: string;
  testId: string;
  id?: string;
  children: ReactNode;
}) {
  return (
    <section
      className="scroll-mt-4 space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      data-testid={testId}
      id={id}
    >
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}
