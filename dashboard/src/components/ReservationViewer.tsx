/**
 * The reservations viewer (spec 001 §2, §4, §9; issue 12 §10; issue 27 §6): a list and a day/week
 * calendar side by side (tabs). The list has period filters (upcoming — the default, not in the
 * spec — today, week = last 7 days, past, all) and a "show" filter: active (confirmed and holds),
 * changed, cancelled, all, paid, completed; cancelled and moved bookings stay, each saying who did
 * it (the customer in the chat, or you) and when, in the calendar's time zone. Each reservation has
 * its status, the "Reserva abonada" and completed checkboxes, cancel (kept, listed as cancelled)
 * and delete behind confirm prompts. Refreshed every 15 s. The owner can also add a reservation by
 * hand on a free slot.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { PERIODS } from '../../../plugins/reservations/api.ts';
import {
  cancelReservation,
  deleteReservation,
  listQuery,
  type Period,
  type ReservationRow,
  setFlags,
  type ViewerState,
} from '../lib/reservations.ts';
import { AddReservation } from './ReservationAdd.tsx';
import { ReservationCalendar } from './ReservationCalendar.tsx';
import { ReservationList, type RowActions } from './ReservationList.tsx';
import { ReservationDialog } from './ReservationParts.tsx';
import { Alert, Button, Options, Select, useEscape } from './ui.tsx';

/** The "show" filter: the server's states, and paid or completed among the active ones. */
const SHOW = ['active', 'changed', 'cancelled', 'all', 'paid', 'completed'] as const;
type Show = (typeof SHOW)[number];

const serverState = (show: Show): ViewerState => (show === 'paid' || show === 'completed' ? 'active' : show);

const MODES = ['list', 'calendar'] as const;

/** The viewer as a dialog. */
export function ReservationViewer({ chatbotId, onClose }: { chatbotId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const tabsId = useId();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<(typeof MODES)[number]>('list');
  const [period, setPeriod] = useState<Period>('upcoming');
  const [show, setShow] = useState<Show>('active');
  const [adding, setAdding] = useState(false);
  const list = useQuery(listQuery(chatbotId, period, serverState(show)));
  useEscape(onClose);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['reservations', chatbotId] });
  const rows = (list.data?.reservations ?? []).filter((r) =>
    show === 'completed' ? r.is_completed : show === 'paid' ? r.is_paid : true,
  );
  const timezone = list.data?.timezone ?? 'Europe/Madrid';

  const actions: RowActions = {
    async toggle(r: ReservationRow, flag: 'is_paid' | 'is_completed', value: boolean) {
      // Shown at once (TanStack's optimistic update: a refetch in flight must not put the old value
      // back); put back, with the spec's error text, if the server refuses.
      const { queryKey } = listQuery(chatbotId, period, serverState(show));
      await queryClient.cancelQueries({ queryKey });
      queryClient.setQueryData(queryKey, (old) =>
        old
          ? {
              ...old,
              reservations: old.reservations.map((x) => (x.id === r.id ? { ...x, [flag]: value } : x)),
            }
          : old,
      );
      try {
        await setFlags(chatbotId, r.id, { [flag]: value });
      } catch {
        toast.error(t('reservations.paidError'));
      }
      await refresh();
    },
    async cancel(r: ReservationRow) {
      if (!window.confirm(t('reservations.confirmCancel', { code: r.code }))) return;
      try {
        await cancelReservation(chatbotId, r.id);
        toast.success(t('reservations.cancelledToast'), { duration: 2000 });
      } catch {
        toast.error(t('reservations.cancelError'));
      }
      await refresh();
    },
    async remove(r: ReservationRow) {
      if (!window.confirm(t('reservations.confirmDelete', { code: r.code }))) return;
      try {
        await deleteReservation(chatbotId, r.id);
        await refresh();
      } catch {
        toast.error(t('reservations.deleteError'));
      }
    },
  };

  return (
    <ReservationDialog
      titleId={titleId}
      title={t('reservations.viewerTitle')}
      subtitle={<p className="text-xs text-slate-600">{t('reservations.refreshNote')}</p>}
      width="max-w-5xl"
      onClose={onClose}
    >
      <div
        role="tablist"
        aria-label={t('reservations.mode.label')}
        className="flex gap-1 border-b border-slate-200"
      >
        {MODES.map((m) => (
          <button
            key={m}
            type="button"
            role="tab"
            id={`${tabsId}-${m}`}
            aria-selected={mode === m}
            aria-controls={`${tabsId}-panel`}
            tabIndex={mode === m ? 0 : -1}
            onClick={() => setMode(m)}
            onKeyDown={(e) => {
              // The tabs pattern: arrows move between the two tabs.
              if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
              const other = MODES.find((x) => x !== m)!;
              setMode(other);
              document.getElementById(`${tabsId}-${other}`)?.focus();
            }}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-semibold ${mode === m ? 'border-brand-700 text-brand-800' : 'border-transparent text-slate-700 hover:text-slate-900'}`}
          >
            {t(`reservations.mode.${m}`)}
          </button>
        ))}
      </div>
      <div id={`${tabsId}-panel`} role="tabpanel" aria-labelledby={`${tabsId}-${mode}`} className="space-y-4">
        {mode === 'calendar' ? (
          list.data ? (
            <ReservationCalendar
              chatbotId={chatbotId}
              today={list.data.today}
              timezone={timezone}
              actions={actions}
            />
          ) : (
            <p className="text-sm text-slate-600" aria-busy="true">
              {t('reservations.loading')}
            </p>
          )
        ) : (
          <>
            <fieldset className="flex flex-wrap gap-2">
              <legend className="sr-only">{t('reservations.periodLabel')}</legend>
              {PERIODS.map((p) => (
                <button
                  key={p}
                  type="button"
                  aria-pressed={period === p}
                  onClick={() => setPeriod(p)}
                  className={`rounded-full px-3 py-1 text-sm font-medium ${period === p ? 'bg-brand-700 text-white' : 'bg-slate-100 text-slate-800 hover:bg-slate-200'}`}
                >
                  {t(`reservations.periods.${p}`)}
                </button>
              ))}
            </fieldset>
            <div className="flex flex-wrap items-end justify-between gap-3">
              <div className="w-full sm:w-64">
                <Select label={t('reservations.showLabel')} value={show} onChange={(v) => setShow(v as Show)}>
                  <Options values={SHOW} text={(s) => t(`reservations.show.${s}`)} />
                </Select>
              </div>
              <Button className="sm:w-auto" variant="secondary" onClick={() => setAdding((v) => !v)}>
                {t('reservations.add')}
              </Button>
            </div>
            {adding ? (
              <AddReservation
                chatbotId={chatbotId}
                onDone={() => {
                  setAdding(false);
                  void refresh();
                }}
              />
            ) : null}
            {list.isPending ? (
              <p className="text-sm text-slate-600" aria-busy="true">
                {t('reservations.loading')}
              </p>
            ) : list.isError ? (
              <Alert tone="error">{t('reservations.loadError')}</Alert>
            ) : rows.length === 0 ? (
              <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600">
                {t('reservations.empty')}
              </p>
            ) : (
              <ReservationList rows={rows} timezone={timezone} actions={actions} />
            )}
          </>
        )}
      </div>
    </ReservationDialog>
  );
}
