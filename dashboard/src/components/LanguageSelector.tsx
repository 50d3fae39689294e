/** The language selector (spec 000 §1): es, en, fr, de, it, ru, hi, remembered in the browser. */
import { useTranslation } from 'react-i18next';
import { APP_LANGUAGES, type AppLanguage, setLanguage } from '../i18n/index.ts';

export function LanguageSelector() {
  const { t, i18n } = useTranslation();
  return (
    <label className="flex items-center gap-2 text-sm text-slate-600">
      <span className="sr-only sm:not-sr-only">{t('app.language')}</span>
      <select
        aria-label={t('app.language')}
        className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-800"
        value={i18n.language}
        onChange={(e) => void setLanguage(e.target.value as AppLanguage)}
      >
        {APP_LANGUAGES.map((l) => (
          <option key={l.code} value={l.code}>
            {l.label}
          </option>
        ))}
      </select>
    </label>
  );
}
