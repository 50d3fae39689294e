/**
 * The owner's data on /gestion (issue 26 §5): "Descargar mis datos" downloads everything as a ZIP
 * (`GET /api/account/export`), and the danger zone's "Eliminar mi cuenta" opens a dialog that
 * asks for the current password before the account and all its data are deleted; /login then says
 * so. Errors are shown in the owner's language by the server's code.
 */
import { type FormEvent, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteAccount, downloadExport } from '../lib/account.ts';
import { ApiError } from '../lib/api.ts';
import { Alert, Button, DangerButton, Dialog, Field, useEscape } from './ui.tsx';

/** The translation key of an account action's failure, by the server's code. */
function dataError(err: unknown, fallback: string): string {
  const code = err instanceof ApiError ? err.code : 'network';
  return ['wrongPassword', 'noPassword', 'tooMany', 'exportTooMany', 'network'].includes(code)
    ? `gestion.data.errors.${code}`
    : `gestion.data.errors.${fallback}`;
}

/** "Tus datos": download everything (issue 26 §5), and the danger zone that deletes the account. */
export function AccountData() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  async function download() {
    setBusy(true);
    setError(null);
    try {
      await downloadExport();
    } catch (err) {
      // The export's own limit (a few an hour) has its own words.
      const code = err instanceof ApiError ? err.code : 'network';
      setError(t(dataError(code === 'tooMany' ? new ApiError('exportTooMany', '') : err, 'export')));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section
      aria-labelledby="data-title"
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="space-y-2">
        <h2 id="data-title" className="text-lg font-semibold">
          {t('gestion.data.title')}
        </h2>
        <p className="text-sm text-slate-700">{t('gestion.data.text')}</p>
        <Button
          variant="secondary"
          className="min-[700px]:w-auto"
          disabled={busy}
          onClick={() => void download()}
        >
          {busy ? t('gestion.data.downloading') : t('gestion.data.download')}
        </Button>
        {error ? <Alert tone="error">{error}</Alert> : null}
      </div>
      <div className="space-y-2 border-t border-red-100 pt-4">
        <h3 className="font-semibold text-red-800">{t('gestion.data.dangerTitle')}</h3>
        <p className="text-sm text-slate-700">{t('gestion.data.deleteText')}</p>
        <DangerButton look="outline" onClick={() => setConfirming(true)} label={t('gestion.data.delete')} />
      </div>
      {confirming ? <DeleteAccountDialog onClose={() => setConfirming(false)} /> : null}
    </section>
  );
}

/** The confirmation of a deletion: the current password, then the account is gone and /login says so. */
function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = useCallback(() => {
    if (!busy) onClose();
  }, [busy, onClose]);
  useEscape(close);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!password || busy) return;
    setBusy(true);
    setError(null);
    try {
      await deleteAccount(password);
      // A full load: nothing of the signed-in owner stays in the app's memory.
      window.location.assign('/login?msg=cuenta-eliminada');
    } catch (err) {
      setError(t(dataError(err, 'delete')));
      setBusy(false);
    }
  }
  return (
    <Dialog
      labelledBy="delete-account-title"
      panel="w-full max-w-md space-y-4 rounded-2xl bg-white p-5 shadow-xl"
    >
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        <h2 id="delete-account-title" className="text-lg font-semibold text-red-800">
          {t('gestion.data.dialogTitle')}
        </h2>
        <p className="text-sm text-slate-700">{t('gestion.data.dialogText')}</p>
        <Field
          label={t('gestion.data.password')}
          type="password"
          autoComplete="current-password"
          autoFocus
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {error ? <Alert tone="error">{error}</Alert> : null}
        <div className="flex flex-col-reverse gap-2 min-[700px]:flex-row min-[700px]:justify-end">
          <Button variant="secondary" className="min-[700px]:w-auto" onClick={close} disabled={busy}>
            {t('gestion.data.cancel')}
          </Button>
          <button
            type="submit"
            disabled={!password || busy}
            className="rounded-lg bg-red-700 px-4 py-2.5 text-sm font-semibold text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:bg-slate-400"
          >
            {busy ? t('gestion.data.deleting') : t('gestion.data.confirm')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
