/**
 * The empathy container (`contenedorEmpatico`, spec 000 §7): a deterministic reading of each
 * turn that the prompt builder feeds to the LLM (the recommendation steers its tone) and that the
 * test chat's "Ver Empática" panel shows. Same inputs, same container: no randomness, no clock
 * but the one passed in.
 */
import { TZDate } from '@date-fns/tz';
import { foldAccents } from '../matching/index.ts';
import {
  type ArchivosBlock,
  type ContenedorEmpatico,
  DEFAULT_TIMEZONE,
  type EmotionalState,
  type FileRef,
  type HistoryItem,
  type LangCode,
} from '../schemas.ts';
import { type CueState, EMOJI_CUES, LEXICONS } from './lexicon.ts';

/** Messages of history the container shows (spec 000 §9: the last 5). */
export const HISTORY_WINDOW = 5;

/** What {@link buildEmpathyContainer} reads. */
export interface EmpathyInput {
  message: string;
  /** Earlier messages of this conversation, oldest first (any length; the last 5 are kept). */
  history: readonly HistoryItem[];
  lang: LangCode;
  /** The bot's files. */
  files: readonly FileRef[];
  /**
   * How many of `files` have no keyword, when the caller knows it already (the engine counts once
   * per loaded bot: turn/bot-parts.ts); counted here otherwise.
   */
  unconfigured?: number;
  /** Ids of files already sent in this conversation, including one sent on this turn. */
  sentIds: readonly string[];
  /** The file sent on this turn, or the single file the message points at. */
  mentioned: FileRef | null;
  /** Files asked for again that were already sent (not re-sent). */
  alreadySent: readonly FileRef[];
  archivos: ArchivosBlock;
  businessName: string;
  now: Date;
  timezone?: string | null;
}

/**
 * The form cues are searched in: accent-folded, lowercase, apostrophes (' ’ ‘ ` ´) read as spaces, so
 * "J'adore", "aujourd’hui" and "don’t" (phone keyboards type ’) meet the lexicon's "j adore",
 * "aujourd hui" and "don't".
 */
function cueForm(text: string): string {
  return foldAccents(text).replace(/['’‘`´]/g, ' ');
}

/**
 * Cue-form text as space-separated words, padded with a space at each end, so a word or phrase
 * cue is found with one `includes(" cue ")`: "¡Muchas GRACIAS!" → " muchas gracias ".
 */
function wordForm(text: string): string {
  return ` ${cueForm(text)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;
}

/** Each lexicon's cues in word form, built once per language set (the hot path only searches). */
const compiled = new Map<string, Array<[CueState, Array<[cue: string, form: string]>]>>();
function cuesFor(lang: LangCode) {
  let entry = compiled.get(lang);
  if (!entry) {
    const lexicons = [...new Set([lang, 'es' as const, 'en' as const])].map((l) => LEXICONS[l]);
    const states: CueState[] = ['contento', 'frustrado', 'urgente', 'confundido'];
    entry = states.map((state) => {
      const words = [...new Set(lexicons.flatMap((l) => l[state]))];
      return [state, words.map((w): [string, string] => [w, wordForm(w)])];
    });
    compiled.set(lang, entry);
  }
  return entry;
}

/** Reads the follower's state from words, emoji and typography. */
export function readState(
  message: string,
  lang: LangCode,
  history: readonly HistoryItem[] = [],
): ContenedorEmpatico['estadoEmpatico'] {
  const folded = cueForm(message);
  const words = wordForm(message);
  const scores: Record<CueState, number> = { contento: 0, frustrado: 0, urgente: 0, confundido: 0 };
  const senales: string[] = [];
  for (const [state, cues] of cuesFor(lang)) {
    for (const [word, form] of cues) {
      if (form.length > 2 && words.includes(form)) {
        scores[state] += 1;
        senales.push(`palabra:${word}`);
      }
    }
    for (const emoji of EMOJI_CUES[state]) {
      if (message.includes(emoji)) {
        scores[state] += 1;
        senales.push(`emoji:${emoji}`);
      }
    }
  }
  const letters = message.replace(/[^\p{L}]/gu, '');
  if (letters.length >= 6 && letters === letters.toUpperCase() && letters !== letters.toLowerCase()) {
    // Shouting intensifies; on its own it does not outweigh a word ("MUCHAS GRACIAS" stays contento).
    scores.frustrado += 0.5;
    scores.urgente += 0.5;
    senales.push('mayúsculas');
  }
  if (/!{2,}/.test(message)) {
    scores.urgente += 0.5;
    scores.frustrado += 0.5;
    senales.push('exclamaciones');
  }
  if (/\?{2,}/.test(message)) {
    scores.confundido += 1;
    senales.push('interrogaciones');
  }
  const lastUser = [...history].reverse().find((h) => h.role === 'user');
  if (lastUser && cueForm(lastUser.content).trim() === folded.trim() && folded.trim()) {
    scores.frustrado += 1;
    senales.push('mensaje repetido');
  }
  // Ties resolve in this order: a frustrated or urgent follower needs care before a happy one.
  const order: CueState[] = ['frustrado', 'urgente', 'confundido', 'contento'];
  let best: EmotionalState = 'neutral';
  let bestScore = 0;
  for (const state of order) {
    if (scores[state] > bestScore) {
      best = state;
      bestScore = scores[state];
    }
  }
  const puntuacion = bestScore === 0 ? 0 : Math.min(1, Math.round((0.4 + 0.2 * bestScore) * 100) / 100);
  return { estado: best, puntuacion, senales };
}

/** Tone advice per state, in Spanish (the container's language); the prompt passes it to the LLM. */
const RECOMMENDATIONS: Record<EmotionalState, string> = {
  neutral: 'Responde de forma clara y breve, con el estilo del negocio, y ofrece ayuda concreta.',
  contento:
    'El seguidor está contento: agradece con calidez, mantén el tono positivo y aprovecha para ofrecer algo útil.',
  frustrado:
    'El seguidor está frustrado: reconoce su molestia, discúlpate sin excusas, ve al grano y ofrece una solución o un siguiente paso concreto.',
  urgente:
    'El seguidor tiene prisa: responde primero lo esencial en una o dos frases, sin rodeos, e indica el paso más rápido.',
  confundido:
    'El seguidor está confundido: explica paso a paso con palabras sencillas, sin tecnicismos, y confirma si ha quedado claro.',
};

/** The bot's clock: ISO time with offset, the zone, and a human text in the bot's language. */
export function clock(
  now: Date,
  lang: LangCode,
  timezone?: string | null,
): ContenedorEmpatico['analisisInterno']['reloj'] {
  const zone = validZone(timezone);
  const key = `${lang}|${zone}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, {
      timeZone: zone,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    });
    formats.set(key, format);
  }
  const ms = now.getTime();
  // The text shows minutes at most: one formatting per zone and minute (every zone's offset is a
  // whole number of minutes since 1972; earlier dates are formatted each time).
  const minute = Math.floor(ms / 60_000);
  let text = texts.get(key);
  if (text?.minute !== minute || ms < WHOLE_MINUTE_OFFSETS_SINCE) {
    text = { minute, texto: format.format(now) };
    texts.set(key, text);
  }
  return { iso: isoInZone(ms, zone), zonaHoraria: zone, texto: text.texto };
}

/** The clock's text by language and zone, for the minute it was formatted in. */
const texts = new Map<string, { minute: number; texto: string }>();
/** 1973-01-01 UTC: from then on no zone's UTC offset has seconds (Liberia's was the last). */
const WHOLE_MINUTE_OFFSETS_SINCE = Date.UTC(1973, 0, 1);

/** UTC offsets (minutes) by zone for the hour they were read in: offsets change on hour boundaries. */
const offsets = new Map<string, { from: number; minutes: number }>();

/** ISO 8601 in the zone with its offset, as TZDate prints it ("2026-11-21T13:00:00.000+01:00"). */
function isoInZone(ms: number, zone: string): string {
  const hour = Math.floor(ms / 3_600_000) * 3_600_000;
  let offset = offsets.get(zone);
  if (offset?.from !== hour) {
    offset = { from: hour, minutes: -new TZDate(hour, zone).getTimezoneOffset() };
    offsets.set(zone, offset);
  }
  const sign = offset.minutes < 0 ? '-' : '+';
  const abs = Math.abs(offset.minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${new Date(ms + offset.minutes * 60_000).toISOString().slice(0, 23)}${sign}${hh}:${mm}`;
}

/** Date formats by language and zone (building one costs ~65 µs; a turn needs one). */
const formats = new Map<string, Intl.DateTimeFormat>();
/** Zones checked once: the zone itself when valid, else the default. */
const zones = new Map<string, string>();

/** The IANA zone when the platform knows it, else Europe/Madrid (the spec's default zone). */
function validZone(timezone: string | null | undefined): string {
  const wanted = timezone || DEFAULT_TIMEZONE;
  let zone = zones.get(wanted);
  if (!zone) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: wanted });
      zone = Number.isNaN(new TZDate(0, wanted).getTime()) ? DEFAULT_TIMEZONE : wanted;
    } catch {
      zone = DEFAULT_TIMEZONE;
    }
    if (zones.size < 1000) zones.set(wanted, zone);
  }
  return zone;
}

/**
 * Builds the container of one turn.
 * @returns `contenedorEmpatico` with exactly the fields of spec 000 §7.
 */
export function buildEmpathyContainer(input: EmpathyInput): ContenedorEmpatico {
  const estadoEmpatico = readState(input.message, input.lang, input.history);
  const historialReciente = input.history
    .slice(-HISTORY_WINDOW)
    .map((h) => ({ role: h.role, content: h.content }));
  const alertas: string[] = [];
  if (estadoEmpatico.estado === 'frustrado')
    alertas.push('Seguidor frustrado: prioriza resolver y disculparte.');
  if (estadoEmpatico.estado === 'urgente') alertas.push('Petición urgente: responde lo esencial primero.');
  if (estadoEmpatico.senales.includes('mensaje repetido'))
    alertas.push('El seguidor repite su mensaje: la respuesta anterior no le sirvió.');
  for (const f of input.alreadySent) alertas.push(`Archivo ya enviado en esta conversación: ${f.file_name}.`);
  if (input.archivos.action === 'LIST')
    alertas.push(`Varios archivos coinciden (${input.archivos.lista.length}): se ofrecen para elegir.`);
  const unconfigured = input.unconfigured ?? input.files.filter((f) => !f.keyword.trim()).length;
  if (unconfigured > 0)
    alertas.push(`${unconfigured} archivo(s) sin palabra clave: el bot no puede ofrecerlos.`);

  const userTurns = input.history.filter((h) => h.role === 'user').length + 1;
  const sentNames = input.files.filter((f) => input.sentIds.includes(f.id)).map((f) => f.file_name);
  const parts = [
    `Conversación con ${input.businessName}: ${userTurns} mensaje(s) del seguidor.`,
    `Estado del seguidor: ${estadoEmpatico.estado}.`,
    input.files.length > 0 ? `${input.files.length} archivo(s) disponibles.` : 'Sin archivos adjuntos.',
    sentNames.length > 0 ? `Ya enviados: ${sentNames.join(', ')}.` : 'Aún no se ha enviado ningún archivo.',
  ];
  if (input.archivos.action === 'SEND' && input.mentioned)
    parts.push(`En este turno se envía: ${input.mentioned.file_name}.`);

  let recomendacionAsistente = RECOMMENDATIONS[estadoEmpatico.estado];
  if (input.archivos.action === 'SEND' && input.mentioned) {
    recomendacionAsistente += ` Menciona que envías "${input.mentioned.file_name}" sin pegar enlaces.`;
  } else if (input.archivos.action === 'LIST') {
    recomendacionAsistente += ' Pide que elija un archivo por su número o su nombre.';
  } else if (input.alreadySent.length > 0) {
    recomendacionAsistente +=
      ' Recuerda con amabilidad que ese archivo ya se envió más arriba y ofrece reenviarlo si lo pide por su nombre.';
  }

  return {
    estadoEmpatico,
    historialReciente,
    analisisInterno: {
      textoAnalizado: input.message,
      archivosDisponibles: [...input.files],
      archivosEnviados: [...input.sentIds],
      archivoMencionado: input.mentioned,
      alertas,
      resumenContexto: parts.join(' '),
      recomendacionAsistente,
      reloj: clock(input.now, input.lang, input.timezone),
    },
    archivos: input.archivos,
  };
}
