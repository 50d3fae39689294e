/**
 * /main's first steps (issue 10): a short checklist with its progress, in the order a new owner
 * needs them: describe the bot → add files → connect a channel → put the widget on your site. Each
 * step links to where it is done and is ticked from the server's data: a saved description, at
 * least one file, a Telegram token (or a WhatsApp number), and the widget seen loading on another
 * site (`widget_origin`, recorded by `GET /api/web/:key/config`). Once every step is done the list
 * gives way to one line saying so.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { MyChatbot } from '../lib/bot.ts';
import { filesQuery } from '../lib/files.ts';

/** One step: its locale key, where it is done, and whether it is. */
interface Step {
  key: 'describe' | 'files' | 'channel' | 'widget';
  to: '/configure' | '/charla-web';
  hash?: string;
  done: boolean;
  /** Shown under a done step (the site where the widget was seen). */
  note?: string;
}

/** The checklist for the owner's bot (null while they have none). */
export function FirstSteps({ bot }: { bot: MyChatbot | null }) {
  const { t } = useTranslation();
  const files = useQuery({ ...filesQuery(bot?.id ?? ''), enabled: Boolean(bot) });
  const steps: Step[] = [
    { key: 'describe', to: '/configure', done: Boolean(bot?.business_description.trim()) },
    { key: 'files', to: '/configure', hash: 'archivos', done: (files.data?.length ?? 0) > 0 },
    {
      key: 'channel',
      to: '/configure',
      hash: 'telegram',
      done: Boolean(bot?.telegram_connected || bot?.whatsapp_number),
    },
    {
      key: 'widget',
      to: '/charla-web',
      hash: 'widget',
      done: Boolean(bot?.widget_origin),
      ...(bot?.widget_origin ? { note: t('firstSteps.widget.seen', { site: bot.widget_origin }) } : {}),
    },
  ];
  const done = steps.filter((s) => s.done).length;
  if (bot && files.isPending) return null;
  if (done === steps.length) {
    return (
      <p
        className="rounded-xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900"
        data-testid="first-steps-done"
      >
        {t('firstSteps.allDone')}
      </p>
    );
  }
  const next = steps.find((s) => !s.done)?.key;
  return (
    <section
      aria-labelledby="first-steps-title"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      data-testid="first-steps"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="first-steps-title" className="text-lg font-semibold">
          {t('firstSteps.title')}
        </h2>
        <p className="text-sm text-slate-600" id="first-steps-progress">
          {t('firstSteps.progress', { done, total: steps.length })}
        </p>
      </div>
      <div
        role="progressbar"
        aria-labelledby="first-steps-title"
        aria-describedby="first-steps-progress"
        aria-valuemin={0}
        aria-valuemax={steps.length}
        aria-valuenow={done}
        className="mt-3 h-2 overflow-hidden rounded-full bg-slate-100"
      >
        <div
          className="h-full rounded-full bg-brand-700"
          style={{ width: `${(done / steps.length) * 100}%` }}
        />
      </div>
      <ol className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {steps.map((step, i) => (
          <li
            key={step.key}
            data-done={step.done}
            className={`flex gap-3 rounded-xl border p-3 ${
              step.key === next ? 'border-brand-600 bg-brand-50/60' : 'border-slate-200'
            }`}
          >
            <span
              aria-hidden="true"
              className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-sm font-semibold ${
                step.done ? 'bg-emerald-600 text-white' : 'border border-slate-300 text-slate-600'
              }`}
            >
              {step.done ? '✓' : i + 1}
            </span>
            <div className="min-w-0 space-y-0.5">
              <Link
                to={step.to}
                {...(step.hash ? { hash: step.hash } : {})}
                className={`block font-semibold hover:underline ${step.done ? 'text-slate-500' : 'text-brand-800'}`}
              >
                {t(`firstSteps.${step.key}.title`)}
              </Link>
              {step.done ? null : (
                <p className="text-xs text-slate-600">{t(`firstSteps.${step.key}.text`)}</p>
              )}
              <p className={`text-xs font-medium ${step.done ? 'text-emerald-700' : 'text-slate-500'}`}>
                {step.done ? t('firstSteps.done') : t('firstSteps.todo')}
                {step.note ? <span className="block break-all font-normal">{step.note}</span> : null}
              </p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
