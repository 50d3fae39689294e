/**
 * Ranking (engine/ranking, issue 10 §6, §7): BM25 over a description's sentences in the bot's
 * language. Tables: the hours question answered in each of the 7 languages, accent folding,
 * instructions recognised and left out, the public summary; properties (fast-check) of BM25 and of
 * the sentence choice.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bm25,
  fileDescription,
  isInstruction,
  publicSummary,
  relevantFiles,
  relevantSentences,
  sentences,
  terms,
} from '../engine/ranking/index.ts';
import type { LangCode } from '../engine/schemas.ts';

/** Per language: a description with its hours sentence, the hours question, and that sentence. */
const HOURS: Array<[LangCode, string, string, string]> = [
  [
    'es',
    'Restaurante familiar en Madrid. Abrimos de martes a domingo, de 13:00 a 16:30; los lunes cerramos. Hay opciones vegetarianas.',
    '¿A qué hora abrís el sábado?',
    'Abrimos de martes a domingo, de 13:00 a 16:30; los lunes cerramos.',
  ],
  [
    'en',
    'Family bakery in Bristol. We open Monday to Saturday from 7:00 to 15:00. Every loaf is sourdough.',
    'What time do you open on Saturday?',
    'We open Monday to Saturday from 7:00 to 15:00.',
  ],
  [
    'fr',
    'Boulangerie à Lyon. Nous sommes ouverts du lundi au samedi, de 7h à 19h. Pain au levain.',
    'À quelle heure ouvrez-vous le samedi ?',
    'Nous sommes ouverts du lundi au samedi, de 7h à 19h.',
  ],
  [
    'de',
    'Bäckerei in Berlin. Wir haben Montag bis Samstag von 7 bis 18 Uhr geöffnet. Alles aus Sauerteig.',
    'Wann habt ihr am Samstag offen?',
    'Wir haben Montag bis Samstag von 7 bis 18 Uhr geöffnet.',
  ],
  [
    'it',
    'Panificio a Torino. Siamo aperti dal lunedì al sabato dalle 7:00 alle 19:00. Pane a lievito madre.',
    'A che ora aprite il sabato?',
    'Siamo aperti dal lunedì al sabato dalle 7:00 alle 19:00.',
  ],
  [
    'ru',
    'Пекарня в Казани. Мы работаем с понедельника по субботу с 7:00 до 19:00. Хлеб на закваске.',
    'Во сколько вы открываетесь в субботу?',
    'Мы работаем с понедельника по субботу с 7:00 до 19:00.',
  ],
  [
    'hi',
    'दिल्ली में एक बेकरी। हम सोमवार से शनिवार सुबह 7 बजे से शाम 7 बजे तक खुले रहते हैं। सारी ब्रेड खमीर से बनती है।',
    'शनिवार को आप कब खुलते हैं?',
    'हम सोमवार से शनिवार सुबह 7 बजे से शाम 7 बजे तक खुले रहते हैं।',
  ],
];

describe('relevantSentences', () => {
  it.each(HOURS)('%s: the hours question gets the hours sentence', (lang, description, question, hours) => {
    expect(relevantSentences(question, description, lang)).toEqual([hours]);
  });

  it.each([
    ['es', '¿Dónde estáis?', 'Restaurante familiar en Madrid, en la Calle Mayor 3.'],
    ['es', '¿Cuánto cuesta el menú del día?', 'El menú del día cuesta 14 €.'],
    ['es', '¿Tenéis platos vegetarianos?', 'Hay opciones vegetarianas.'],
    ['es', '¿Puedo reservar mesa?', 'Se puede reservar mesa por teléfono en el 912 345 678.'],
  ] as const)('%s: "%s" gets its sentence', (lang, question, expected) => {
    const description =
      'Restaurante familiar en Madrid, en la Calle Mayor 3. Abrimos de martes a domingo de 13:00 a 23:00. ' +
      'El menú del día cuesta 14 €. Se puede reservar mesa por teléfono en el 912 345 678. Hay opciones vegetarianas.';
    expect(relevantSentences(question, description, lang)).toEqual([expected]);
  });

  it('returns nothing for a question the description does not answer, or for small talk', () => {
    const description = 'Restaurante familiar en Madrid. Abrimos por la tarde de martes a domingo.';
    for (const q of ['¿Aceptáis perros en la terraza?', 'Hola', 'Buenas tardes', 'gracias'])
      expect(relevantSentences(q, description, 'es'), q).toEqual([]);
  });

  it('folds accents: "sábado" and "sabado", "qué" and "que" give the same terms and answer', () => {
    expect(terms('¿A qué hora abrís el sábado?', 'es')).toEqual(terms('a que hora abris el sabado', 'es'));
    expect(terms('Öffnungszeiten', 'de')).toEqual(terms('Offnungszeiten', 'de'));
    const [, description, question, hours] = HOURS[0]!;
    expect(relevantSentences(question.normalize('NFD').replace(/\p{M}/gu, ''), description, 'es')).toEqual([
      hours,
    ]);
  });

  it('never quotes a sentence that instructs the bot', () => {
    const description = 'Atiende con cercanía y habla de los horarios. Abrimos a las 9:00.';
    expect(relevantSentences('¿Qué horarios tenéis?', description, 'es')).toEqual(['Abrimos a las 9:00.']);
  });
});

describe('isInstruction', () => {
  it.each([
    ['es', 'Atiende con cercanía y usa el tú.', true],
    ['es', 'Responde con simpatía, en pocas frases, e invita a reservar.', true],
    ['es', 'Siempre responde en español.', true],
    ['es', 'No inventes precios.', true],
    ['es', 'No abrimos los lunes.', false],
    ['es', 'Se puede reservar mesa por este chat.', false],
    ['es', 'Siempre tenemos pescado fresco.', false],
    ['en', 'Always answer kindly.', true],
    ['en', "Don't promise discounts.", true],
    ['en', 'You are the assistant of a bakery.', true],
    ['en', 'We bake every morning.', false],
    ['fr', 'Réponds toujours poliment.', true],
    ['fr', 'Nous sommes ouverts le dimanche.', false],
    ['de', 'Antworte immer freundlich.', true],
    ['de', 'Wir backen jeden Morgen.', false],
    ['it', 'Rispondi con gentilezza.', true],
    ['it', 'Siamo aperti la domenica.', false],
    ['ru', 'Отвечай вежливо.', true],
    ['ru', 'Мы открыты по воскресеньям.', false],
    ['hi', 'ग्राहकों को विनम्रता से जवाब दें।', true],
    ['hi', 'हम रविवार को भी खुले रहते हैं।', false],
  ] as const)('%s: "%s" → %s', (lang, sentence, expected) => {
    expect(isInstruction(sentence, lang)).toBe(expected);
  });
});

describe('publicSummary', () => {
  it('keeps the first sentences about the business and leaves instructions out', () => {
    expect(
      publicSummary(
        'Atiende con cercanía y usa el tú. Cerámica Ana es un taller de cerámica en Sevilla. Hacemos piezas por encargo.',
        'es',
      ),
    ).toBe('Cerámica Ana es un taller de cerámica en Sevilla. Hacemos piezas por encargo.');
  });

  it('stops at the limit, cutting a long first sentence at a word with an ellipsis', () => {
    expect(publicSummary('Uno dos. Tres cuatro cinco.', 'es', 12)).toBe('Uno dos.');
    const long = `${'palabra '.repeat(60).trim()}.`;
    const cut = publicSummary(long, 'es', 50);
    expect(cut.endsWith('palabra…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(51);
  });

  it('is empty when the description only instructs', () => {
    expect(publicSummary('Responde siempre con simpatía. Invita a reservar.', 'es')).toBe('');
  });
});

describe('files', () => {
  const files = [
    {
      file_name: '1732000000000_foto.jpg',
      keyword: 'foto10',
      context: 'Foto del plato del día recién hecho.',
    },
    {
      file_name: 'catalogo.pdf',
      keyword: 'pdfcat',
      context: 'Catálogo de vajillas con precios. Edición 2025.',
    },
    { file_name: 'video_taller.webm', keyword: 'vid1', context: '' },
  ];

  it('ranks files by context text, keywords and name', () => {
    expect(relevantFiles('¿Tenéis fotos del plato del día?', files, 'es').map((f) => f.keyword)).toEqual([
      'foto10',
    ]);
    expect(relevantFiles('¿Qué precios tienen las vajillas?', files, 'es').map((f) => f.keyword)).toEqual([
      'pdfcat',
    ]);
    expect(relevantFiles('¿Aceptáis perros?', files, 'es')).toEqual([]);
  });

  it('names a file by the first sentence of its context, or its name as words, never its keyword', () => {
    expect(fileDescription(files[0]!, 'es')).toBe('Foto del plato del día recién hecho.');
    expect(fileDescription(files[1]!, 'es')).toBe('Catálogo de vajillas con precios.');
    expect(fileDescription(files[2]!, 'es')).toBe('video taller');
  });
});

describe('bm25 (properties)', () => {
  const term = fc.constantFrom('a', 'b', 'c', 'd', 'e', '#hours', '~abri');
  const doc = fc.array(term, { maxLength: 12 });
  const collection = fc.array(doc, { minLength: 1, maxLength: 8 });
  const query = fc.array(term, { minLength: 1, maxLength: 5 });

  it('scores are finite and not negative; a document without a query term scores 0', () => {
    fc.assert(
      fc.property(query, collection, (q, docs) => {
        for (const r of bm25(q, docs)) {
          expect(Number.isFinite(r.score)).toBe(true);
          expect(r.score).toBeGreaterThanOrEqual(0);
          if (!docs[r.index]!.some((t) => q.includes(t))) expect(r.score).toBe(0);
        }
      }),
    );
  });

  it('a document that has a query term scores higher when one of its other words becomes that term', () => {
    fc.assert(
      fc.property(query, collection, fc.nat(), (q, docs, pick) => {
        const i = pick % docs.length;
        const doc = docs[i]!;
        const t = q.find((x) => doc.includes(x));
        const other = doc.findIndex((x) => !q.includes(x));
        // Same length and document frequencies: only the term's count in this document grows.
        if (t === undefined || other < 0) return;
        const more = docs.map((d, j) => (j === i ? d.map((x, k) => (k === other ? t : x)) : d));
        expect(bm25(q, more)[i]!.score).toBeGreaterThan(bm25(q, docs)[i]!.score);
      }),
    );
  });

  it('reordering documents reorders their scores', () => {
    fc.assert(
      fc.property(query, collection, (q, docs) => {
        const forward = bm25(q, docs).map((r) => r.score);
        const backward = bm25(q, [...docs].reverse()).map((r) => r.score);
        expect(backward.reverse()).toEqual(forward);
      }),
    );
  });

  it('relevantSentences returns sentences of the description, at most 2, in its order, never an instruction', () => {
    const pool = [
      'Atiende con cercanía.',
      'Abrimos de lunes a viernes de 9:00 a 14:00.',
      'Estamos en la Calle Mayor 3.',
      'El café cuesta 2 €.',
      'Responde en pocas frases.',
      'Hacemos tartas por encargo.',
    ];
    const questions = [
      '¿A qué hora abrís?',
      '¿Dónde estáis?',
      '¿Cuánto cuesta el café?',
      '¿Hacéis tartas?',
      'hola',
    ];
    fc.assert(
      fc.property(fc.shuffledSubarray(pool, { minLength: 1 }), fc.constantFrom(...questions), (parts, q) => {
        const description = parts.join(' ');
        const got = relevantSentences(q, description, 'es');
        expect(got.length).toBeLessThanOrEqual(2);
        const all = sentences(description, 'es');
        const positions = got.map((s) => all.indexOf(s));
        expect(positions.every((p) => p >= 0)).toBe(true);
        expect([...positions].sort((a, b) => a - b)).toEqual(positions);
        for (const s of got) expect(isInstruction(s, 'es')).toBe(false);
      }),
    );
  });
});
