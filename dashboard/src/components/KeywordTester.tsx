/**
 * "¿Qué archivo enviaría este mensaje?" on the files screen (issue 29 "Setting up the bot"): the
 * owner types a message as a customer would and sees the file the bot would send, the list it would
 * offer, or that it would answer with text. It runs the engine's own matcher (engine/matching,
 * `matchFiles`, browser-safe and pure) on the same files in the same order the engine reads them,
 * as on a follower's first message (nothing offered or sent before): one path, no server round trip.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matchFiles } from '../../../engine/matching/index.ts';
import type { BotFile } from '../lib/files.ts';

/** `files`: the bot's files as the files screen lists them. */
export function KeywordTester({ files }: { files: readonly BotFile[] }) {
  const { t } = useTranslation();
  const id = useId();
  const [message, setMessage] = useState('');
  const result = message.trim() ? matchFiles(message, files) : null;
  return (
    <section className="space-y-2 rounded-xl border border-slate-200 p-3" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="text-sm font-semibold text-slate-700">
        {t('files.tester.title')}
      </h3>
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        {t('files.tester.hint')}
      </p>
      <label className="block space-y-1 text-sm">
        <span className="font-medium text-slate-700">{t('files.tester.label')}</span>
        <input
          type="text"
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          placeholder={t('files.tester.placeholder')}
          aria-describedby={`${id}-hint`}
          className="block w-full rounded-lg border border-slate-300 px-3 py-2"
        />
      </label>
      <div aria-live="polite" className="text-sm" data-testid="keyword-tester-result">
        {result?.action === 'SEND' ? (
          <p className="font-medium text-brand-800">
            {t('files.tester.send', { file: result.files[0]!.file_name })}
          </p>
        ) : null}
        {result?.action === 'LIST' ? (
          <>
            <p className="font-medium text-brand-800">{t('files.tester.list')}</p>
            <ol className="list-decimal pl-5">
              {result.files.map((f) => (
                <li key={f.id} className="break-all">
                  {f.file_name}
                </li>
              ))}
            </ol>
          </>
        ) : null}
        {result?.action === 'NONE' ? <p className="text-slate-600">{t('files.tester.none')}</p> : null}
      </div>
    </section>
  );
}
