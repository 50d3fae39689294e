/**
 * The warning under a file's keyword field (issue 29 "Setting up the bot"): keywords so common or
 * so short that ordinary messages ("hola", "gracias", "sí", "info", a single letter) would send the
 * file instead of an answer. The check is the engine's own (engine/matching/stoplist.ts, which runs
 * the engine's matcher), so it says exactly what the bot would do. Nothing is shown when all is well.
 */
import { useTranslation } from 'react-i18next';
import { keywordWarnings } from '../../../engine/matching/stoplist.ts';

/** `keyword`: the list as the owner is typing it (commas or spaces between keywords). */
export function KeywordWarning({ keyword }: { keyword: string }) {
  const { t } = useTranslation();
  const warnings = keywordWarnings(keyword);
  if (warnings.length === 0) return null;
  return (
    <ul
      className="space-y-1 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900"
      data-testid="keyword-warning"
    >
      {warnings.map((w) => (
        <li key={w.keyword}>
          {w.kind === 'short'
            ? t('files.keywordShort', { keyword: w.keyword })
            : t('files.keywordCommon', { keyword: w.keyword, message: w.message })}
        </li>
      ))}
    </ul>
  );
}
