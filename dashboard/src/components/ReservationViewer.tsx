/**
 * The reservations viewer (spec 001 §2, §4, §9; issue 12 §10): period filters (upcoming — the
 * default, not in the spec — today, week = last 7 days, past, all) and status filters (all
 * confirmed, completed, paid); each reservation with its status (HOLD, CONFIRMADA, CONFIRMADA Y
 * ABONADA, CONFIRMADA Y FINALIZADA), the "Reserva abonada" checkbox, a completed checkbox and a
 * delete action behind a confirm prompt. Refreshed every 15 s. The owner can also add a
 * reservation by hand (a phone call, a walk-in) on a free slot.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { PERIODS, statusKey } from '../../../plugins/reservations/api.ts';
import {
  addReservation,
  deleteReservation,
  listQuery,
  type Period,
  type ReservationRow,
  ReservationsError,
  setFlags,
  slotsQuery,
} from '../lib/reservations.ts';
import { ReservationDialog } from './ReservationParts.tsx';
import { Alert, Button, bound, DangerButton, Field, Options, Select, useEscape } from './ui.tsx';

const STATUS_FILTERS = ['all', 'completed', 'paid'] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number];

const BADGE: Record<ReturnType<typeof statusKey>, string> = {
  hold: 'bg-amber-100 text-amber-900',
  confirmed: 'bg-sky-100 text-sky-900',
  paid: 'bg-emerald-100 text-emerald-900',
  completed: 'bg-slate-200 text-slate-800',
  other: 'bg-slate-100 text-slate-700',
};

/** The viewer as a dialog. */
export function ReservationViewer({ chatbotId, onClose }: { chatbotId: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const queryClient = useQueryClient();
  const [period, setPeriod] = useState<Period>('upcoming');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [adding, setAdding] = useState(false);
  const list = useQuery(listQuery(chatbotId, period));
  useEscape(onClose);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['reservations', chatbotId] });
  const rows = (list.data?.reservations ?? []).filter((r) =>
    status === 'completed'
      ? r.is_completed
      : status === 'paid'
        ? r.is_paid
        : r.status === 'confirmed' || r.status === 'hold',
  );

  async function toggle(r: ReservationRow, flag: 'is_paid' | 'is_completed', value: boolean) {
    // Shown at once (TanStack's optimistic update: a refetch in flight must not put the old value
    // back); put back, with the spec's error text, if the server refuses.
    const { queryKey } = listQuery(chatbotId, period);
    await queryClient.cancelQueries({ queryKey });
    queryClient.setQueryData(queryKey, (old) =>
      old
        ? { ...old, reservations: old.reservations.map((x) => (x.id === r.id ? { ...x, [flag]: value } : x)) }
        : old,
    );
    try {
      await setFlags(chatbotId, r.id, { [flag]: value });
    } catch {
      toast.error(t('reservations.paidError'));
    }
    await refresh();
  }

  async function remove(r: ReservationRow) {
    if (!window.confirm(t('reservations.confirmDelete', { code: r.code }))) return;
    try {
      await deleteReservation(chatbotId, r.id);
      await refresh();
    } catch {
      toast.error(t('reservations.deleteError'));
    }
  }
  const dateText = (r: ReservationRow) =>
    new Intl.DateTimeFormat(i18n.language, {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      timeZone: list.data?.timezone ?? 'Europe/Madrid',
    }).format(new Date(r.startsAt));

  return (
    <ReservationDialog
      titleId={titleId}
      title={t('reservations.viewerTitle')}
      subtitle={<p className="text-xs text-slate-600">{t('reservations.refreshNote')}</p>}
      width="max-w-3xl"
      onClose={onClose}
    >
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
        <div className="w-full sm:w-60">
          <Select
            label={t('reservations.statusLabel')}
            value={status}
            onChange={(v) => setStatus(v as StatusFilter)}
          >
            <Options values={STATUS_FILTERS} text={(s) => t(`reservations.statuses.${s}`)} />
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
        <ul
          className="divide-y divide-slate-200 rounded-xl border border-slate-200"
          aria-label={t('reservations.viewerTitle')}
        >
          {rows.map((r) => {
            const key = statusKey(r);
            return (
              <li
                key={r.id}
                className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="min-w-0 space-y-0.5">
                  <p className="font-semibold">
                    {dateText(r)} · {r.start}–{r.end}
                  </p>
                  <p className="break-words text-sm text-slate-700">
                    {[
                      r.customer_name,
                      r.customer_contact,
                      r.customer_email,
                      r.party_size ? t('reservations.people', { count: r.party_size }) : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </p>
                  {r.reason ? <p className="break-words text-sm text-slate-600">“{r.reason}”</p> : null}
                  <p className="text-xs text-slate-600">
                    {t('reservations.code')} <span className="font-mono font-semibold">{r.code}</span> ·{' '}
                    {r.channel ?? t('reservations.byHand')}
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-3">
                  <span className={`rounded-full px-2.5 py-0.5 text-xs font-bold ${BADGE[key]}`}>
                    {t(`reservations.status.${key}`)}
                  </span>
                  {r.status === 'confirmed'
                    ? (['is_paid', 'is_completed'] as const).map((flag) => (
                        <label key={flag} className="flex items-center gap-1.5 text-sm">
                          <input
                            type="checkbox"
                            checked={r[flag]}
                            onChange={(e) => toggle(r, flag, e.target.checked)}
                            className="h-4 w-4 accent-brand-700"
                          />
                          {t(flag === 'is_paid' ? 'reservations.paid' : 'reservations.completed')}
                        </label>
                      ))
                    : null}
                  <DangerButton look="quiet" onClick={() => remove(r)} label={t('reservations.delete')} />
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </ReservationDialog>
  );
}

/** Adds a reservation by hand on a free slot of a chosen day. */
function AddReservation({ chatbotId, onDone }: { chatbotId: string; onDone: () => void }) {
  const { t } = useTranslation();
  const [date, setDate] = useState(() => new Date().toISOString().slice(0, 10));
  const [slotId, setSlotId] = useState('');
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [party, setParty] = useState('');
  const [comments, setComments] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const slots = useQuery(slotsQuery(chatbotId, date));
  const chosen = slotId || slots.data?.slots[0]?.id || '';

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await addReservation(chatbotId, {
        slotId: chosen,
        ...(name.trim() ? { customer_name: name.trim() } : {}),
        ...(phone.trim() ? { phone: phone.trim() } : {}),
        ...(Number(party) > 0 ? { party_size: Number(party) } : {}),
        ...(comments.trim() ? { comments: comments.trim() } : {}),
      });
      toast.success(t('reservations.added'), { duration: 2000 });
      onDone();
    } catch (err) {
      const code = err instanceof ReservationsError ? err.code : 'server';
      setError(t(`reservations.addError.${code}`, { defaultValue: t('reservations.addError.server') }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-3 rounded-xl border border-slate-200 bg-slate-50 p-3">
      <h4 className="font-semibold">{t('reservations.addTitle')}</h4>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          label={t('reservations.date')}
          type="date"
          value={date}
          required
          onChange={(e) => {
            setDate(e.target.value);
            setSlotId('');
          }}
        />
        <Select label={t('reservations.slot')} value={chosen} onChange={setSlotId}>
          {(slots.data?.slots ?? []).map((s) => (
            <option key={s.id} value={s.id}>
              {s.start}–{s.end}
            </option>
          ))}
        </Select>
        <Field label={t('reservations.name')} maxLength={120} {...bound(name, setName)} />
        <Field label={t('reservations.phone')} type="tel" maxLength={24} {...bound(phone, setPhone)} />
        <Field label={t('reservations.party')} type="number" min={1} max={500} {...bound(party, setParty)} />
        <Field label={t('reservations.comments')} maxLength={500} {...bound(comments, setComments)} />
      </div>
      {slots.data && slots.data.slots.length === 0 ? (
        <Alert tone="info">{t('reservations.noSlots')}</Alert>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Button type="submit" className="sm:w-auto" disabled={busy || !chosen}>
        {t('reservations.save')}
      </Button>
    </form>
  );
}
