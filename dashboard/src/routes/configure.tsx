/**
 * `/configure` (spec 000 §2, §4, §5): basic information (business name, description, style,
 * expectations) and advanced configuration (category shown with its emoji and stored without it,
 * preferred language, public, web search, reservations). Saving needs name and description ("Faltan
 * datos"); after a save the success toast shows and the "next step" button appears. The owner stays
 * here (issue 10, departing from spec 000 §4's return to /main after 500 ms, README decisions): the
 * first save scrolls to the attached files, the next step. A new bot's language is the interface
 * language. Controls of features not built yet stay hidden (lib/features.ts). Toasts here close
 * after 2 s (spec 000 §9). Below, the attached files (components/FilesManager.tsx, `#archivos`) once
 * the bot exists, and the Telegram connection (components/TelegramConnect.tsx, `#telegram`).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, useLocation } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  BOT_LANGUAGES,
  botLanguageFor,
  CATEGORIES,
  CATEGORY_LABELS,
  DEFAULT_CATEGORY,
  PUBLIC_DESCRIPTION_MAX,
  STYLES,
} from '../../../engine/schemas.ts';
import { CATEGORY_KEYS } from '../../../plugins/facebots/api.ts';
import { FilesManager } from '../components/FilesManager.tsx';
import { ForBot, PageShell } from '../components/PageShell.tsx';
import { ReservationsControls } from '../components/Reservations.tsx';
import { TelegramConnect } from '../components/TelegramConnect.tsx';
import { Alert, Button, Check, Field, Options, Section, Select, TextArea } from '../components/ui.tsx';
import { VoiceSearchControls } from '../components/VoiceSearchControls.tsx';
import { WhatsAppSection } from '../components/WhatsAppConnect.tsx';
import { sendJson } from '../lib/api.ts';
import { requireSession } from '../lib/auth.ts';
import { type MyChatbot, myChatbotQuery } from '../lib/bot.ts';
import { enabled } from '../lib/features.ts';

/** Spec 000 §9: toasts in the configuration screens close after 2 s. */
const CONFIG_TOAST_MS = 2000;

/** Brings a section of this screen (`archivos`, `telegram`) into view. */
function scrollToSection(id: string) {
  document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

export const Route = createFileRoute('/configure')({
  beforeLoad: requireSession,
  component: Configure,
});

/** The bot's fields this screen edits. */
const FORM_KEYS = [
  'business_name',
  'business_description',
  'public_description',
  'chatbot_style',
  'expectations',
  'category',
  'idioma',
  'is_public',
  'enable_web_search',
  'enable_reservations',
  'enable_audio',
  'selected_voice_id',
] as const;

type Form = Pick<MyChatbot, (typeof FORM_KEYS)[number]>;
/** The form's text fields. */
type TextKey =
  | 'business_description'
  | 'public_description'
  | 'chatbot_style'
  | 'expectations'
  | 'category'
  | 'idioma';

/** A new bot's form: the spec's defaults (000 §9), in the interface language (issue 10). */
const empty = (language: string): Form => ({
  business_name: '',
  business_description: '',
  public_description: '',
  chatbot_style: 'casual',
  expectations: '',
  category: DEFAULT_CATEGORY,
  idioma: botLanguageFor(language),
  is_public: true,
  enable_web_search: false,
  enable_reservations: false,
  enable_audio: false,
  selected_voice_id: null,
});

/** The form's fields of a saved bot (no public description: an empty one). */
function formOf(bot: MyChatbot): Form {
  const form = Object.fromEntries(FORM_KEYS.map((key) => [key, bot[key]])) as Form;
  return { ...form, public_description: bot.public_description ?? '' };
}

function Configure() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const bot = useQuery(myChatbotQuery);
  const { hash } = useLocation();
  const [form, setForm] = useState<Form>(() => empty(i18n.language));
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  /** A section to scroll to once it shows: the files after the first save, or the address's #hash. */
  const [scrollTo, setScrollTo] = useState<string | null>(hash || null);
  const sectionShown = scrollTo === 'telegram' ? bot.isSuccess : Boolean(bot.data);

  useEffect(() => {
    if (!scrollTo || !sectionShown) return;
    scrollToSection(scrollTo);
    setScrollTo(null);
  }, [scrollTo, sectionShown]);

  // A new bot (nothing saved yet) speaks the interface language, also after switching it here.
  useEffect(() => {
    if (bot.isSuccess && !bot.data) setForm((f) => ({ ...f, idioma: botLanguageFor(i18n.language) }));
  }, [bot.isSuccess, bot.data, i18n.language]);

  useEffect(() => {
    if (bot.data) setForm(formOf(bot.data));
  }, [bot.data]);

  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  /** The value and `onChange` of a control bound to a text field of the form. */
  const bind = (key: TextKey) => ({ value: form[key], onChange: (v: string) => set(key, v) });
  /** A text area's props: its label and placeholder (`configure.<text>`, `…Placeholder`), its field. */
  const textArea = (text: string, key: TextKey) => ({
    label: t(`configure.${text}`),
    placeholder: t(`configure.${text}Placeholder`),
    ...bind(key),
  });

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
      const res = await sendJson('/api/save-chatbot', { ...(bot.data ? { id: bot.data.id } : {}), ...form });
      const body = (await res.json()) as { id?: string; error?: string };
      if (!res.ok || !body.id)
        throw new Error(body.error ?? t('configure.saveStatus', { status: res.status }));
      localStorage.setItem('chatbotId', body.id);
      localStorage.setItem('gptConfigured', 'true');
      const first = !bot.data;
      await queryClient.invalidateQueries({ queryKey: myChatbotQuery.queryKey });
      setSaved(true);
      toast.success(t('configure.savedTitle'), {
        description: t('configure.saved'),
        duration: CONFIG_TOAST_MS,
      });
      // The owner stays to add files (issue 10): the first save brings them into view.
      if (first) setScrollTo('archivos');
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
    <PageShell className="min-h-dvh" main="mx-auto max-w-3xl px-4 py-8">
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
          <TextArea {...textArea('description', 'business_description')} rows={5} />
          <TextArea
            {...textArea('publicDescription', 'public_description')}
            rows={2}
            maxLength={PUBLIC_DESCRIPTION_MAX}
          />
          <Select label={t('configure.style')} {...bind('chatbot_style')}>
            <Options values={STYLES} text={(s) => t(`configure.styles.${s}`)} />
          </Select>
          <TextArea {...textArea('expectations', 'expectations')} rows={3} />
        </Section>
        <Section title={t('configure.advanced')}>
          <div className="grid gap-4 sm:grid-cols-2">
            <Select label={t('configure.category')} {...bind('category')}>
              <Options
                values={CATEGORIES}
                text={(c) =>
                  `${CATEGORY_LABELS[c].split(' ')[0]} ${t(`configure.categories.${CATEGORY_KEYS[c]}`)}`
                }
              />
            </Select>
            <Select label={t('configure.language')} {...bind('idioma')}>
              <Options values={BOT_LANGUAGES} />
            </Select>
          </div>
          <Check
            label={enabled('facebots') ? t('configure.publicListed') : t('configure.public')}
            checked={form.is_public}
            onChange={(v) => set('is_public', v)}
          />
          {/* The web-search and voice plugins bring their switches, with what the server can do. */}
          <VoiceSearchControls
            webSearch={form.enable_web_search}
            onWebSearch={(v) => set('enable_web_search', v)}
            audio={form.enable_audio}
            onAudio={(v) => set('enable_audio', v)}
            voice={form.selected_voice_id}
            onVoice={(v) => set('selected_voice_id', v)}
          />
          {/* The reservations plugin brings its "Ver reservas" and "Configurar" buttons with it. */}
          {enabled('reservations') ? (
            <ReservationsControls
              chatbotId={bot.data?.id ?? null}
              businessName={form.business_name}
              checked={form.enable_reservations}
              onChange={(v) => set('enable_reservations', v)}
            />
          ) : null}
        </Section>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button type="submit" disabled={saving} className="sm:w-auto">
            {saving ? t('configure.saving') : t('configure.save')}
          </Button>
          {saved ? (
            <button
              type="button"
              onClick={() => scrollToSection('archivos')}
              className="inline-flex items-center justify-center rounded-lg bg-brand-50 px-4 py-2.5 text-sm font-semibold text-brand-800"
            >
              {t('configure.nextStep')}
            </button>
          ) : null}
        </div>
      </form>
      <div className="mt-6 scroll-mt-4" id="archivos">
        <ForBot bot={bot} none={t('files.saveFirst')}>
          {(chatbotId) => <FilesManager chatbotId={chatbotId} />}
        </ForBot>
      </div>
      {bot.isSuccess ? (
        <div className="mt-6 scroll-mt-4" id="telegram">
          <Section title={t('telegram.title')}>
            <p className="text-sm text-slate-600">{t('telegram.subtitle')}</p>
            <TelegramConnect chatbotId={bot.data?.id ?? null} toastMs={CONFIG_TOAST_MS} />
          </Section>
        </div>
      ) : null}
      {bot.isSuccess ? <WhatsAppSection chatbotId={bot.data?.id ?? null} /> : null}
    </PageShell>
  );
}
