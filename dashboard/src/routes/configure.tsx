/**
 * `/configure` (spec 000 §2, §4, §5): basic information (business name, description, style,
 * expectations) and advanced configuration (category shown with its emoji and stored without it,
 * preferred language, public, web search, reservations). Saving needs name and description ("Faltan
 * datos"); after a save the success toast shows, the "next step" button appears, and the owner goes
 * to /main after 500 ms. Toasts here close after 2 s (spec 000 §9). Below, the attached files
 * (components/FilesManager.tsx) once the bot exists, and the Telegram connection
 * (components/TelegramConnect.tsx).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, redirect, useNavigate } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  BOT_LANGUAGES,
  CATEGORIES,
  CATEGORY_LABELS,
  DEFAULT_BOT_LANGUAGE,
  DEFAULT_CATEGORY,
  STYLES,
} from '../../../engine/schemas.ts';
import { AppHeader } from '../components/AppHeader.tsx';
import { FilesManager } from '../components/FilesManager.tsx';
import { TelegramConnect } from '../components/TelegramConnect.tsx';
import { Alert, Button, Field } from '../components/ui.tsx';
import { meQuery } from '../lib/auth.ts';
import { type MyChatbot, myChatbotQuery } from '../lib/bot.ts';

/**
 * Locale keys of the categories (`configure.categories.*`). The stored value stays the spec's
 * Spanish name; the label shows its emoji (CATEGORY_LABELS) and the name in the interface language.
 */
const CATEGORY_KEYS: Record<(typeof CATEGORIES)[number], string> = {
  'Empresa o Profesional': 'business',
  'Artista o Influencer': 'artist',
  'Divulgador Científico o Educativo': 'educator',
  'Periódico o Medio de Comunicación': 'media',
  'Grupo de Amigos': 'friends',
  'Tienda o Comercio': 'shop',
  'Club Deportivo o Eventos Deportivos': 'sports',
};

/** Spec 000 §9: toasts in the configuration screens close after 2 s. */
const CONFIG_TOAST_MS = 2000;
/** Spec 000 §4: back to /main 500 ms after a successful save. */
const REDIRECT_AFTER_SAVE_MS = 500;

export const Route = createFileRoute('/configure')({
  beforeLoad: async ({ context, location }) => {
    const me = await context.queryClient.ensureQueryData(meQuery);
    if (!me) throw redirect({ to: '/login', search: { redirect: location.href } });
  },
  component: Configure,
});

type Form = Pick<
  MyChatbot,
  | 'business_name'
  | 'business_description'
  | 'chatbot_style'
  | 'expectations'
  | 'category'
  | 'idioma'
  | 'is_public'
  | 'enable_web_search'
  | 'enable_reservations'
>;

const EMPTY: Form = {
  business_name: '',
  business_description: '',
  chatbot_style: 'casual',
  expectations: '',
  category: DEFAULT_CATEGORY,
  idioma: DEFAULT_BOT_LANGUAGE,
  is_public: true,
  enable_web_search: false,
  enable_reservations: false,
};

function Configure() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const bot = useQuery(myChatbotQuery);
  const [form, setForm] = useState<Form>(EMPTY);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (bot.data) {
      const {
        business_name,
        business_description,
        chatbot_style,
        expectations,
        category,
        idioma,
        is_public,
        enable_web_search,
        enable_reservations,
      } = bot.data;
      setForm({
        business_name,
        business_description,
        chatbot_style,
        expectations,
        category,
        idioma,
        is_public,
        enable_web_search,
        enable_reservations,
      });
    }
  }, [bot.data]);

  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!form.business_name.trim() || !form.business_description.trim()) {
      toast.error(t('configure.missingTitle'), {
        description: t('configure.missing'),
        duration: CONFIG_TOAST_MS,
      });
      return;
    }
    setSaving(true);
    try {
      const res = await fetch('/api/save-chatbot', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...(bot.data ? { id: bot.data.id } : {}), ...form }),
      });
      const body = (await res.json()) as { id?: string; error?: string };
      if (!res.ok || !body.id)
        throw new Error(body.error ?? t('configure.saveStatus', { status: res.status }));
      localStorage.setItem('chatbotId', body.id);
      localStorage.setItem('gptConfigured', 'true');
      await queryClient.invalidateQueries({ queryKey: myChatbotQuery.queryKey });
      setSaved(true);
      toast.success(t('configure.savedTitle'), {
        description: t('configure.saved'),
        duration: CONFIG_TOAST_MS,
      });
      setTimeout(() => void navigate({ to: '/main' }), REDIRECT_AFTER_SAVE_MS);
    } catch (err) {
      toast.error(t('configure.saveError'), {
        description: (err as Error).message,
        duration: CONFIG_TOAST_MS,
      });
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="min-h-dvh">
      <AppHeader />
      <main className="mx-auto max-w-3xl px-4 py-8">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('configure.title')}</h1>
        <p className="mt-1 text-slate-600">{t('configure.subtitle')}</p>
        {bot.isError ? (
          <div className="mt-4">
            <Alert tone="error">{t('configure.loadError')}</Alert>
          </div>
        ) : null}
        <form className="mt-6 space-y-6" onSubmit={save} noValidate>
          <Section title={t('configure.basic')}>
            <Field
              label={t('configure.businessName')}
              placeholder={t('configure.businessNamePlaceholder')}
              name="business_name"
              required
              maxLength={200}
              value={form.business_name}
              onChange={(e) => set('business_name', e.target.value)}
            />
            <TextArea
              label={t('configure.description')}
              placeholder={t('configure.descriptionPlaceholder')}
              value={form.business_description}
              onChange={(v) => set('business_description', v)}
              rows={5}
            />
            <Select
              label={t('configure.style')}
              value={form.chatbot_style}
              onChange={(v) => set('chatbot_style', v)}
            >
              {STYLES.map((s) => (
                <option key={s} value={s}>
                  {t(`configure.styles.${s}`)}
                </option>
              ))}
            </Select>
            <TextArea
              label={t('configure.expectations')}
              placeholder={t('configure.expectationsPlaceholder')}
              value={form.expectations}
              onChange={(v) => set('expectations', v)}
              rows={3}
            />
          </Section>
          <Section title={t('configure.advanced')}>
            <div className="grid gap-4 sm:grid-cols-2">
              <Select
                label={t('configure.category')}
                value={form.category}
                onChange={(v) => set('category', v)}
              >
                {CATEGORIES.map((c) => (
                  <option key={c} value={c}>
                    {`${CATEGORY_LABELS[c].split(' ')[0]} ${t(`configure.categories.${CATEGORY_KEYS[c]}`)}`}
                  </option>
                ))}
              </Select>
              <Select label={t('configure.language')} value={form.idioma} onChange={(v) => set('idioma', v)}>
                {BOT_LANGUAGES.map((l) => (
                  <option key={l} value={l}>
                    {l}
                  </option>
                ))}
              </Select>
            </div>
            <Check
              label={t('configure.public')}
              checked={form.is_public}
              onChange={(v) => set('is_public', v)}
            />
            <Check
              label={t('configure.webSearch')}
              checked={form.enable_web_search}
              onChange={(v) => set('enable_web_search', v)}
            />
            <div className="flex flex-wrap items-center gap-3">
              <Check
                label={t('configure.reservations')}
                checked={form.enable_reservations}
                onChange={(v) => set('enable_reservations', v)}
              />
              {/* The reservations screens come with their plugin; until then the buttons say so. */}
              <button
                type="button"
                disabled
                title={t('configure.comingSoon')}
                className="rounded-lg border border-slate-200 px-3 py-1 text-sm text-slate-400"
              >
                {t('configure.viewReservations')}
              </button>
              <button
                type="button"
                disabled
                title={t('configure.comingSoon')}
                className="rounded-lg border border-slate-200 px-3 py-1 text-sm text-slate-400"
              >
                {t('configure.configureReservations')}
              </button>
            </div>
          </Section>
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Link
              to="/main"
              className="inline-flex items-center justify-center rounded-lg border border-slate-300 bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 hover:bg-slate-50"
            >
              {t('configure.back')}
            </Link>
            <Button type="submit" disabled={saving} className="sm:w-auto">
              {saving ? t('configure.saving') : t('configure.save')}
            </Button>
            {saved ? (
              <Link
                to="/main"
                className="inline-flex items-center justify-center rounded-lg bg-brand-50 px-4 py-2.5 text-sm font-semibold text-brand-800"
              >
                {t('configure.nextStep')}
              </Link>
            ) : null}
          </div>
        </form>
        <div className="mt-6">
          {bot.data ? (
            <FilesManager chatbotId={bot.data.id} />
          ) : bot.isSuccess ? (
            <p className="rounded-2xl border border-dashed border-slate-300 p-5 text-sm text-slate-600">
              {t('files.saveFirst')}
            </p>
          ) : null}
        </div>
        {bot.isSuccess ? (
          <div className="mt-6">
            <Section title={t('telegram.title')}>
              <p className="text-sm text-slate-600">{t('telegram.subtitle')}</p>
              <TelegramConnect chatbotId={bot.data?.id ?? null} toastMs={CONFIG_TOAST_MS} />
            </Section>
          </div>
        ) : null}
      </main>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function TextArea({
  label,
  value,
  onChange,
  rows,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  rows: number;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={id}
        rows={rows}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-400 focus:border-brand-600 focus:ring-2 focus:ring-brand-100 focus:outline-none"
      />
    </div>
  );
}

function Select({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 focus:border-brand-600 focus:ring-2 focus:ring-brand-100 focus:outline-none"
      >
        {children}
      </select>
    </div>
  );
}

function Check({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-800">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="h-4 w-4 rounded border-slate-300 accent-brand-700"
      />
      {label}
    </label>
  );
}
