/**
 * `/ayuda/llm`: how to connect a real LLM (issue 10 §6), the target of the "respuestas sin IA"
 * banner. Public, in the interface language; it says what the offline responder does. Which settings
 * turn the LLM on (the README's "Using a real LLM") shows only to an operator: an owner never sees
 * environment variable names, only that their operator can enable it (issue 29).
 */
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { LanguageSelector } from '../components/LanguageSelector.tsx';
import { BrandMark } from '../components/ui.tsx';
import { meQuery } from '../lib/auth.ts';

export const Route = createFileRoute('/ayuda/llm')({
  component: LlmHelp,
});

/** The settings of each way (README "Configuration"); shell lines, not translated. */
const COMMANDS = {
  openai: 'OPENAI_API_KEY=sk-... CHARLA_LLM_MODEL=gpt-4o-mini npm start',
  local: 'OPENAI_BASE_URL=http://127.0.0.1:11434/v1 CHARLA_LLM_MODEL=llama3.1 npm start',
} as const;

/** The ways to run the model, in the order the page explains them. */
const WAYS = ['openai', 'local'] as const;

function LlmHelp() {
  const { t } = useTranslation();
  // Issue 29: the server's settings are the operator's business; an owner is told who can help.
  const operator = useQuery(meQuery).data?.operator === true;
  return (
    <div className="min-h-dvh bg-slate-50">
      <header className="mx-auto flex max-w-3xl items-center justify-between px-4 py-4">
        <Link to="/main" className="flex items-center gap-2 font-bold text-slate-900">
          <BrandMark />
        </Link>
        <LanguageSelector />
      </header>
      <main className="mx-auto max-w-3xl space-y-5 px-4 pb-12">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          {t('help.llm.title')}
        </h1>
        <p className="text-slate-700">{t('help.llm.offline')}</p>
        {operator ? (
          <>
            <p className="text-slate-700">{t('help.llm.who')}</p>
            {WAYS.map((way) => (
              <section key={way} className="space-y-2" aria-labelledby={`llm-${way}`}>
                <h2 id={`llm-${way}`} className="text-lg font-semibold text-slate-900">
                  {t(`help.llm.${way}Title`)}
                </h2>
                <p className="text-slate-700">{t(`help.llm.${way}`)}</p>
                <pre className="overflow-x-auto rounded-lg bg-slate-900 p-3 text-sm text-white">
                  <code>{COMMANDS[way]}</code>
                </pre>
              </section>
            ))}
            <p className="text-slate-700">{t('help.llm.after')}</p>
          </>
        ) : (
          <p className="text-slate-700" data-testid="llm-owner-note">
            {t('help.llm.ownerNote')}
          </p>
        )}
        <Link
          to="/main"
          className="inline-flex rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
        >
          {t('help.llm.back')}
        </Link>
      </main>
    </div>
  );
}
