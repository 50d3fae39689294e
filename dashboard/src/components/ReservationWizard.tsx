/**
 * The reservations wizard (spec 001 §2 Reservations screens, §5, §9; issue 12 §10): "Paso n de 2".
 * Step 1 holds the calendar's basics and options; Next stays disabled unless name and phone are
 * both required (spec 001 §5), with a line saying so. Step 2 previews the calendar (its name, and
 * the slots of the next open day as followers will be offered them) and saves: "Configuración
 * guardada", or the title Error with "No se pudo guardar la configuración de reservas.".
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  calendarName,
  defaultConfig,
  MAX_SIMULTANEOUS,
  RESERVATION_TYPES,
  type ReservationConfig,
  SLOT_MINUTES,
  WEEKDAYS,
  wizardCanAdvance,
} from '../../../plugins/reservations/config.ts';
import { addDays, localDate, slotsOfDate } from '../../../plugins/reservations/slots.ts';
import { suggestConfig } from '../../../plugins/reservations/suggest.ts';
import { myChatbotQuery } from '../lib/bot.ts';
import { configQuery, saveConfig } from '../lib/reservations.ts';
import { HoursFieldset, TimeZoneField } from './ReservationHours.tsx';
import { longDate, ReservationDialog } from './ReservationParts.tsx';
import { Alert, Button, Check, Field, Options, Select, useEscape } from './ui.tsx';

/** The config's on/off fields, with their label's key under `reservations.`: what a booking asks. */
const REQUIRE_CHECKS = [
  ['requireName', 'require_name'],
  ['requirePhone', 'require_phone'],
  ['requireEmail', 'require_email'],
  ['requireGroup', 'require_group_size'],
  ['allowComments', 'allow_comments'],
] as const;

/** The reminders' on/off fields, with their label's key under `reservations.`. */
const REMINDER_CHECKS = [
  ['reminder24h', 'reminder_24h'],
  ['reminder2h', 'reminder_2h'],
] as const;

/** The on/off fields a {@link CheckGroup} shows: each label's key under `reservations.`, and its field. */
type Checks = readonly (readonly [string, BooleanKey])[];
/** The config's on/off fields. */
type BooleanKey = {
  [K in keyof ReservationConfig]: ReservationConfig[K] extends boolean ? K : never;
}[keyof ReservationConfig];

/** A titled group of the config's checkboxes, then `children` (controls that go with them). */
function CheckGroup({
  legend,
  checks,
  config,
  set,
  children,
}: {
  legend: string;
  checks: Checks;
  config: ReservationConfig;
  set: (key: BooleanKey, value: boolean) => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-semibold text-slate-800">{legend}</legend>
      {checks.map(([label, key]) => (
        <Check
          key={key}
          label={t(`reservations.${label}`)}
          checked={config[key]}
          onChange={(v) => set(key, v)}
        />
      ))}
      {children}
    </fieldset>
  );
}

/**
 * The wizard as a dialog. Before the first save it starts from a calendar that fits the business
 * (suggest.ts: the description's hours, or a restaurant's services; the browser's time zone);
 * its "Guardar" also turns reservations on (issue 29: one save), then `onSaved`.
 */
export function ReservationWizard({
  chatbotId,
  businessName,
  onClose,
  onSaved,
}: {
  chatbotId: string;
  businessName: string;
  onClose: () => void;
  onSaved?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const queryClient = useQueryClient();
  const stored = useQuery(configQuery(chatbotId));
  const bot = useQuery(myChatbotQuery);
  const [config, setConfig] = useState<ReservationConfig>(defaultConfig());
  const [step, setStep] = useState<1 | 2>(1);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState(false);
  useEscape(onClose);
  /** The calendar is filled once (a refetch must not undo the owner's edits). */
  const [filled, setFilled] = useState(false);
  useEffect(() => {
    if (filled || !stored.data || (!stored.data.saved && bot.isPending)) return;
    setFilled(true);
    setConfig(
      stored.data.saved
        ? stored.data.config
        : suggestConfig({
            description: bot.data?.business_description ?? '',
            category: bot.data?.category ?? '',
            browserZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          }),
    );
  }, [filled, stored.data, bot.data, bot.isPending]);

  const set = <K extends keyof ReservationConfig>(key: K, value: ReservationConfig[K]) =>
    setConfig((c) => ({ ...c, [key]: value }));
  const setDay = (
    day: (typeof WEEKDAYS)[number],
    change: Partial<ReservationConfig['working_hours']['monday']>,
  ) =>
    setConfig((c) => ({
      ...c,
      working_hours: { ...c.working_hours, [day]: { ...c.working_hours[day], ...change } },
    }));

  async function save() {
    setSaving(true);
    setError(false);
    try {
      await saveConfig(chatbotId, config);
      await queryClient.invalidateQueries({ queryKey: ['reservations', chatbotId] });
      toast.success(t('reservations.saved'), { duration: 2000 });
      onSaved?.();
      onClose();
    } catch {
      setError(true);
    } finally {
      setSaving(false);
    }
  }

  const today = localDate(new Date(), config.timezone);
  const previewDate = [...Array(8).keys()]
    .map((i) => addDays(today, i))
    .find((d) => slotsOfDate(config, d).length > 0);

  return (
    <ReservationDialog
      titleId={titleId}
      title={t('reservations.wizardTitle')}
      subtitle={<p className="text-sm text-slate-600">{t('reservations.step', { n: step })}</p>}
      width="max-w-2xl"
      onClose={onClose}
    >
      {/* Until the calendar is filled (the saved one, or the description's hours): an edit made on the
          defaults would be replaced by the suggestion arriving a moment later. */}
      {stored.isPending || (!filled && !stored.isError) ? (
        <p className="text-sm text-slate-600">{t('reservations.loading')}</p>
      ) : step === 1 ? (
        <div className="space-y-5">
          <Field
            label={t('reservations.calendarName')}
            hint={t('reservations.calendarNameHint', {
              name: calendarName({ calendar_name: '' }, businessName),
            })}
            value={config.calendar_name}
            maxLength={120}
            onChange={(e) => set('calendar_name', e.target.value)}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TimeZoneField value={config.timezone} onChange={(z) => set('timezone', z)} />
            <Select
              label={t('reservations.type')}
              value={config.reservation_type}
              onChange={(v) => set('reservation_type', v as ReservationConfig['reservation_type'])}
            >
              <Options values={RESERVATION_TYPES} text={(type) => t(`reservations.types.${type}`)} />
            </Select>
            {config.reservation_type === 'normal' ? (
              <Select
                label={t('reservations.slotMinutes')}
                value={String(config.slot_minutes)}
                onChange={(v) => set('slot_minutes', Number(v) as ReservationConfig['slot_minutes'])}
              >
                <Options values={SLOT_MINUTES} text={(m) => t('reservations.minutes', { n: m })} />
              </Select>
            ) : null}
            <Field
              label={t('reservations.maxParty')}
              type="number"
              min={1}
              max={500}
              value={config.max_party_size}
              onChange={(e) => set('max_party_size', Math.max(1, Math.min(500, Number(e.target.value) || 1)))}
            />
          </div>
          <HoursFieldset
            hours={config.working_hours}
            setDay={setDay}
            setHours={(working_hours) => setConfig((c) => ({ ...c, working_hours }))}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <CheckGroup
              legend={t('reservations.require')}
              checks={REQUIRE_CHECKS}
              config={config}
              set={set}
            />
            <CheckGroup
              legend={t('reservations.reminders')}
              checks={REMINDER_CHECKS}
              config={config}
              set={set}
            >
              <Check
                label={t('reservations.simultaneous')}
                checked={config.allow_simultaneous}
                onChange={(v) =>
                  setConfig((c) => ({
                    ...c,
                    allow_simultaneous: v,
                    max_simultaneous: v ? Math.max(MAX_SIMULTANEOUS.min, c.max_simultaneous) : 1,
                  }))
                }
              />
              {config.allow_simultaneous ? (
                <Select
                  label={t('reservations.maxSimultaneous')}
                  value={String(config.max_simultaneous)}
                  onChange={(v) => set('max_simultaneous', Number(v))}
                >
                  {[...Array(MAX_SIMULTANEOUS.max - MAX_SIMULTANEOUS.min + 1).keys()].map((i) => (
                    <option key={i} value={i + MAX_SIMULTANEOUS.min}>
                      {i + MAX_SIMULTANEOUS.min}
                    </option>
                  ))}
                </Select>
              ) : null}
            </CheckGroup>
          </div>
          {!wizardCanAdvance(config) ? <Alert tone="info">{t('reservations.nextHint')}</Alert> : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" className="sm:w-auto" onClick={onClose}>
              {t('reservations.cancel')}
            </Button>
            <Button className="sm:w-auto" disabled={!wizardCanAdvance(config)} onClick={() => setStep(2)}>
              {t('reservations.next')}
            </Button>
          </div>
        </div>
      ) : (
        <div className="space-y-4">
          <h4 className="font-semibold">{t('reservations.preview')}</h4>
          <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="text-slate-600">{t('reservations.calendarName')}</dt>
            <dd className="font-medium">{calendarName(config, businessName)}</dd>
            <dt className="text-slate-600">{t('reservations.timezone')}</dt>
            <dd>{config.timezone.replace(/_/g, ' ')}</dd>
            <dt className="text-slate-600">{t('reservations.type')}</dt>
            <dd>{t(`reservations.types.${config.reservation_type}`)}</dd>
            <dt className="text-slate-600">{t('reservations.hours')}</dt>
            <dd>
              <ul>
                {WEEKDAYS.map((day) => {
                  const h = config.working_hours[day];
                  return (
                    <li key={day}>
                      {t(`reservations.days.${day}`)}:{' '}
                      {h.enabled
                        ? `${h.start}–${h.end}${h.break_start ? ` (${t('reservations.breakFrom').toLowerCase()} ${h.break_start}–${h.break_end})` : ''}`
                        : t('reservations.closed')}
                    </li>
                  );
                })}
              </ul>
            </dd>
          </dl>
          <div>
            <p className="text-sm font-semibold">
              {previewDate
                ? t('reservations.previewSlots', { date: longDate(previewDate, i18n.language) })
                : t('reservations.noSlotsPreview')}
            </p>
            {previewDate ? (
              <ul className="mt-2 flex flex-wrap gap-2">
                {slotsOfDate(config, previewDate).map((s) => (
                  <li key={s.id} className="rounded-full bg-brand-50 px-3 py-1 text-sm text-brand-900">
                    {s.start}–{s.end}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
          {error ? (
            <Alert tone="error">
              <strong>{t('reservations.errorTitle')}</strong> {t('reservations.saveError')}
            </Alert>
          ) : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" className="sm:w-auto" onClick={() => setStep(1)}>
              {t('reservations.back')}
            </Button>
            <Button className="sm:w-auto" disabled={saving} onClick={save}>
              {saving ? t('reservations.saving') : t('reservations.save')}
            </Button>
          </div>
        </div>
      )}
    </ReservationDialog>
  );
}
