/**
 * Cue words of the follower's emotional states, per bot language. Words are in accent-folded,
 * lowercase form (engine/matching foldAccents), matched as whole words or, when they contain a
 * space, as phrases. es and en are full; the others are smaller starter lexicons.
 */
import type { LangCode } from '../schemas.ts';

/** The states a lexicon can signal (neutral is the absence of cues). */
export type CueState = 'contento' | 'frustrado' | 'urgente' | 'confundido';

export type Lexicon = Record<CueState, readonly string[]>;

const es: Lexicon = {
  contento: [
    'gracias',
    'genial',
    'perfecto',
    'excelente',
    'me encanta',
    'encanta',
    'estupendo',
    'fantastico',
    'maravilloso',
    'buenisimo',
    'guay',
    'chulo',
    'increible',
    'que bien',
    'muy bien',
    'feliz',
    'contento',
    'contenta',
    'mil gracias',
    'top',
  ],
  frustrado: [
    'mal',
    'fatal',
    'horrible',
    'harto',
    'harta',
    'enfadado',
    'enfadada',
    'molesto',
    'molesta',
    'queja',
    'reclamacion',
    'no funciona',
    'no sirve',
    'inutil',
    'pesimo',
    'decepcion',
    'decepcionado',
    'vergonzoso',
    'otra vez',
    'nadie responde',
    'estafa',
    'basura',
    'cansado',
  ],
  urgente: [
    'urgente',
    'urgencia',
    'ya mismo',
    'ahora mismo',
    'rapido',
    'cuanto antes',
    'inmediatamente',
    'emergencia',
    'hoy mismo',
    'lo antes posible',
    'asap',
    'deprisa',
    'pronto',
  ],
  confundido: [
    'no entiendo',
    'no se que',
    'no se como',
    'confundido',
    'confundida',
    'como funciona',
    'que significa',
    'perdido',
    'perdida',
    'no me queda claro',
    'explicame',
    'duda',
    'dudas',
    'no comprendo',
    'a que te refieres',
  ],
};

const en: Lexicon = {
  contento: [
    'thanks',
    'thank you',
    'great',
    'perfect',
    'excellent',
    'love it',
    'love',
    'awesome',
    'amazing',
    'wonderful',
    'fantastic',
    'happy',
    'glad',
    'nice',
    'cool',
  ],
  frustrado: [
    'bad',
    'terrible',
    'awful',
    'angry',
    'annoyed',
    'upset',
    'complaint',
    'not working',
    "doesn't work",
    'doesnt work',
    'useless',
    'disappointed',
    'ridiculous',
    'again',
    'nobody answers',
    'scam',
    'fed up',
    'worst',
  ],
  urgente: [
    'urgent',
    'asap',
    'now',
    'right now',
    'immediately',
    'emergency',
    'quick',
    'quickly',
    'hurry',
    'today',
    'as soon as possible',
  ],
  confundido: [
    "don't understand",
    'dont understand',
    'confused',
    'how does it work',
    'what does',
    'mean',
    'lost',
    'not clear',
    'unclear',
    'explain',
    "i don't know",
    'what do you mean',
  ],
};

const fr: Lexicon = {
  contento: [
    'merci',
    'genial',
    'parfait',
    'excellent',
    'super',
    'j adore',
    'formidable',
    'content',
    'contente',
  ],
  frustrado: [
    'mauvais',
    'nul',
    'horrible',
    'fache',
    'enerve',
    'plainte',
    'ne marche pas',
    'decu',
    'arnaque',
    'marre',
  ],
  urgente: ['urgent', 'urgence', 'vite', 'maintenant', 'immediatement', 'tout de suite', 'aujourd hui'],
  confundido: ['comprends pas', 'confus', 'perdu', 'pas clair', 'explique', 'ca veut dire'],
};

const de: Lexicon = {
  contento: ['danke', 'super', 'perfekt', 'toll', 'prima', 'klasse', 'wunderbar', 'froh', 'genial'],
  frustrado: [
    'schlecht',
    'schrecklich',
    'wutend',
    'verargert',
    'beschwerde',
    'funktioniert nicht',
    'enttauscht',
    'betrug',
  ],
  urgente: ['dringend', 'sofort', 'schnell', 'jetzt', 'notfall', 'heute noch', 'eilig'],
  confundido: ['verstehe nicht', 'verwirrt', 'unklar', 'erklar', 'was bedeutet', 'keine ahnung'],
};

const it: Lexicon = {
  contento: [
    'grazie',
    'perfetto',
    'ottimo',
    'fantastico',
    'bellissimo',
    'felice',
    'contento',
    'adoro',
    'benissimo',
  ],
  frustrado: [
    'male',
    'pessimo',
    'orribile',
    'arrabbiato',
    'reclamo',
    'non funziona',
    'deluso',
    'truffa',
    'stufo',
  ],
  urgente: ['urgente', 'subito', 'adesso', 'presto', 'immediatamente', 'emergenza', 'oggi stesso'],
  confundido: ['non capisco', 'confuso', 'non e chiaro', 'spiegami', 'cosa significa', 'perso'],
};

const ru: Lexicon = {
  contento: ['спасибо', 'отлично', 'супер', 'прекрасно', 'класс', 'здорово', 'замечательно', 'рад', 'рада'],
  frustrado: ['плохо', 'ужасно', 'злой', 'жалоба', 'не работает', 'разочарован', 'обман', 'надоело'],
  urgente: ['срочно', 'сейчас', 'быстро', 'немедленно', 'сегодня', 'экстренно'],
  confundido: ['не понимаю', 'непонятно', 'запутался', 'объясните', 'что значит'],
};

const hi: Lexicon = {
  contento: ['धन्यवाद', 'शुक्रिया', 'बढ़िया', 'शानदार', 'बहुत अच्छा', 'खुश', 'thanks'],
  frustrado: ['बुरा', 'खराब', 'गुस्सा', 'शिकायत', 'काम नहीं', 'निराश', 'धोखा'],
  urgente: ['तुरंत', 'जल्दी', 'अभी', 'आपातकाल', 'आज ही'],
  confundido: ['समझ नहीं', 'उलझन', 'स्पष्ट नहीं', 'समझाइए', 'मतलब क्या'],
};

/** Lexicons by language. A message is read with its bot's lexicon and the Spanish and English ones. */
export const LEXICONS: Record<LangCode, Lexicon> = { es, en, fr, de, it, ru, hi };

/** Emoji cues, language-independent. */
export const EMOJI_CUES: Record<CueState, readonly string[]> = {
  contento: ['😊', '😀', '😃', '😄', '😁', '🙂', '😍', '🥰', '❤️', '👍', '🙌', '🎉', '😂', '🤩'],
  frustrado: ['😡', '😠', '🤬', '😤', '👎', '😒', '🙄', '😞', '😢', '😭'],
  urgente: ['⏰', '🚨', '⚠️', '‼️'],
  confundido: ['🤔', '😕', '😵', '❓', '🤷'],
};
