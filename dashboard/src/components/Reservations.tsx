/**
 * The reservations controls of /configure (spec 000 §2, 001 §2): the "Reservas" checkbox with
 * "Ver reservas" (the viewer) and "Configurar" (the wizard). The buttons wait for the bot to exist.
 * Ticking the box opens the wizard; its save turns reservations on (issue 29), so the box stays
 * ticked without the page's "Guardar".
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReservationViewer } from './ReservationViewer.tsx';
import { ReservationWizard } from './ReservationWizard.tsx';
import { Check } from './ui.tsx';

/** The buttons that open the dialogs, with their label's key under `reservations.`. */
const OPENERS = [
  ['viewer', 'view'],
  ['wizard', 'configure'],
] as const;

export function ReservationsControls({
  chatbotId,
  businessName,
  checked,
  onChange,
}: {
  chatbotId: string | null;
  businessName: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<'viewer' | 'wizard' | null>(null);
  return (
    <div id="reservas" className="scroll-mt-4 space-y-2">
      <Check
        label={t('configure.reservations')}
        checked={checked}
        onChange={(v) => {
          onChange(v);
          // Issue 29: ticking "Reservas" opens the wizard, whose save turns them on.
          if (v && chatbotId) setOpen('wizard');
        }}
      />
      <div className="flex flex-wrap gap-2 pl-6">
        {OPENERS.map(([dialog, label]) => (
          <button
            key={dialog}
            type="button"
            disabled={!chatbotId}
            onClick={() => setOpen(dialog)}
            className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-50 disabled:text-slate-400"
          >
            {t(`reservations.${label}`)}
          </button>
        ))}
        {!chatbotId ? (
          <p className="w-full text-xs text-slate-600">{t('reservations.saveBotFirst')}</p>
        ) : null}
      </div>
      {chatbotId && open === 'viewer' ? (
        <ReservationViewer chatbotId={chatbotId} onClose={() => setOpen(null)} />
      ) : null}
      {chatbotId && open === 'wizard' ? (
        <ReservationWizard
          chatbotId={chatbotId}
          businessName={businessName}
          onClose={() => setOpen(null)}
          onSaved={() => onChange(true)}
        />
      ) : null}
    </div>
  );
}
