/**
 * Adding a reservation by hand in the viewer (issue 12 §10): a phone call or a walk-in, on a free
 * slot of a chosen day; confirmed at once. Split from ReservationViewer.tsx.
 */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { addReservation, ReservationsError, slotsQuery } from '../lib/reservations.ts';
import { Alert, Button, bound, Field, Select } from './ui.tsx';

/** Adds a reservation by hand on a free slot of a chosen day. */
export function AddReservation({ chatbotId, onDone }: { chatbotId: string; onDone: () => void }) {
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
