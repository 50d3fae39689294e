/**
 * File lookup by keyword (spec 001 §5, three passes; the first pass with results wins), picking from an
 * offered list, already-sent files, and keyword normalisation on save (spec 000 §5).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FUZZY_MIN_LENGTH,
  foldAccents,
  fuzzyForm,
  keywordInput as keywordFieldValue,
  type MatchableFile,
  matchFiles,
  normalizeKeywords,
  pickIndex,
  splitKeywords,
} from '../engine/matching/index.ts';

const menu: MatchableFile = {
  id: 'f1',
  file_name: '1732000000000_menu_del_dia.pdf',
  keyword: 'menu,carta,precios',
  context: 'Carta del restaurante con precios',
};
const foto: MatchableFile = {
  id: 'f2',
  file_name: '1732000000001_foto_local.jpg',
  keyword: 'fotolocal',
  context: 'Fotografía de la terraza',
};
const vinos: MatchableFile = {
  id: 'f3',
  file_name: 'vinos.pdf',
  keyword: 'vinos',
  context: 'Bodega: tintos y blancos de la casa',
};
const FILES = [menu, foto, vinos];

const ids = (files: readonly MatchableFile[]) => files.map((f) => f.id);

describe('matchFiles pass 1: exact', () => {
  it.each([
    ['menu', 'f1'],
    ['MENU', 'f1'],
    ['Carta', 'f1'],
    ['  PRECIOS  ', 'f1'],
    ['¿carta?', 'f1'],
    ['menu,carta,precios', 'f1'],
    ['FotoLocal', 'f2'],
    ['vinos', 'f3'],
  ])('%j sends %s by exact keyword', (message, id) => {
    const r = matchFiles(message, FILES);
    expect(r).toEqual({
      action: 'SEND',
      files: [FILES.find((f) => f.id === id)],
      pass: 'exact',
      alreadySent: [],
    });
  });

  it('a comma part counts as a whole keyword even when another file contains it partially', () => {
    const cartas: MatchableFile = { id: 'b', file_name: 'b.pdf', keyword: 'cartas,postres', context: '' };
    const carta: MatchableFile = { id: 'a', file_name: 'a.pdf', keyword: 'bebidas,carta', context: '' };
    const r = matchFiles('carta', [cartas, carta]);
    expect(r.pass).toBe('exact');
    expect(r.action).toBe('SEND');
    expect(ids(r.files)).toEqual(['a']);
  });
});

describe('matchFiles pass 2: partial', () => {
  it.each([
    ['¿Tenéis la CARTA?', 'f1'],
    ['quiero ver los precios por favor', 'f1'],
    ['pásame el menu', 'f1'],
    ['cart', 'f1'],
    ['vin', 'f3'],
    ['qué vinos tenéis', 'f3'],
  ])('%j finds %s by partial match', (message, id) => {
    const r = matchFiles(message, FILES);
    expect(r.pass).toBe('partial');
    expect(r.action).toBe('SEND');
    expect(ids(r.files)).toEqual([id]);
  });

  it.each(['o', 'sí', 'me', 'c', 'ca', 'fo', 'vi', '?'])(
    '%j is shorter than the 3-character floor and matches nothing',
    (message) => {
      const r = matchFiles(message, FILES);
      expect(r).toEqual({ action: 'NONE', files: [], pass: 'none', alreadySent: [] });
    },
  );

  it('a keyword part containing the message needs the message to have at least 3 characters', () => {
    const file: MatchableFile = { id: 'x', file_name: 'x.pdf', keyword: 'menu', context: '' };
    expect(matchFiles('me', [file]).action).toBe('NONE');
    const r = matchFiles('men', [file]);
    expect([r.action, r.pass]).toEqual(['SEND', 'partial']);
  });
});

describe('matchFiles pass 3: fuzzy', () => {
  it.each([
    ['menú', 'f1'],
    ['MENÚ', 'f1'],
    ['foto local', 'f2'],
    ['Foto-Local', 'f2'],
    ['terraza', 'f2'],
    ['tintos', 'f3'],
    ['bod', 'f3'],
    ['bodega, tintos', 'f3'],
  ])('%j finds %s after removing spaces and accents (keyword or context)', (message, id) => {
    const r = matchFiles(message, FILES);
    expect(r.pass).toBe('fuzzy');
    expect(r.action).toBe('SEND');
    expect(ids(r.files)).toEqual([id]);
  });

  it('a keyword with an accent matches the message without it', () => {
    const file: MatchableFile = { id: 'x', file_name: 'x.jpg', keyword: 'café', context: '' };
    const r = matchFiles('cafe', [file]);
    expect([r.action, r.pass, ids(r.files)]).toEqual(['SEND', 'fuzzy', ['x']]);
  });

  it.each(['de', 'la', 'y'])('%j is in every context but too short for a fuzzy match', (message) => {
    expect(message.length).toBeLessThan(FUZZY_MIN_LENGTH);
    expect(matchFiles(message, FILES).action).toBe('NONE');
  });
});

describe('matchFiles: pass order and results', () => {
  it('one file exact wins over another partial', () => {
    const a: MatchableFile = { id: 'a', file_name: 'a.pdf', keyword: 'menudeldia', context: '' };
    const b: MatchableFile = { id: 'b', file_name: 'b.pdf', keyword: 'menu', context: '' };
    // "menu" is contained in a's keyword (partial) and equals b's (exact).
    const r = matchFiles('menu', [a, b]);
    expect(r).toEqual({ action: 'SEND', files: [b], pass: 'exact', alreadySent: [] });
  });

  it('one file partial wins over another fuzzy', () => {
    const a: MatchableFile = { id: 'a', file_name: 'a.pdf', keyword: 'menú', context: '' };
    const b: MatchableFile = { id: 'b', file_name: 'b.pdf', keyword: 'menu', context: '' };
    // "menu del día" contains b's keyword (partial); a's "menú" only matches without accents (fuzzy).
    const r = matchFiles('el menu del día', [a, b]);
    expect(r).toEqual({ action: 'SEND', files: [b], pass: 'partial', alreadySent: [] });
  });

  it('several matches give LIST in the bot file order', () => {
    const a: MatchableFile = { id: 'a', file_name: 'a.pdf', keyword: 'vinos,carta', context: '' };
    const b: MatchableFile = { id: 'b', file_name: 'b.pdf', keyword: 'carta', context: '' };
    const c: MatchableFile = { id: 'c', file_name: 'c.pdf', keyword: 'postres', context: '' };
    const d: MatchableFile = { id: 'd', file_name: 'd.pdf', keyword: 'Carta', context: '' };
    expect(matchFiles('carta', [a, b, c, d])).toEqual({
      action: 'LIST',
      files: [a, b, d],
      pass: 'exact',
      alreadySent: [],
    });
    expect(ids(matchFiles('carta', [d, c, b, a]).files)).toEqual(['d', 'b', 'a']);
  });

  it('several partial matches give LIST', () => {
    const a: MatchableFile = { id: 'a', file_name: 'a.pdf', keyword: 'carta', context: '' };
    const b: MatchableFile = { id: 'b', file_name: 'b.pdf', keyword: 'precios', context: '' };
    const r = matchFiles('quiero la carta y los precios', [a, b]);
    expect([r.action, r.pass, ids(r.files)]).toEqual(['LIST', 'partial', ['a', 'b']]);
  });

  it.each(['¿A qué hora abrís?', 'hola', 'buenos días', 'gracias', '', '   '])(
    'an unrelated message %j gives NONE',
    (message) => {
      expect(matchFiles(message, FILES)).toEqual({
        action: 'NONE',
        files: [],
        pass: 'none',
        alreadySent: [],
      });
    },
  );

  it('a bot without files gives NONE', () => {
    expect(matchFiles('carta', []).action).toBe('NONE');
  });
});

describe('matchFiles: picking from an offered list', () => {
  // The previous turn offered [menu, vinos, foto], numbered 1..3 in that order.
  const offered = ['f1', 'f3', 'f2'];

  it.each(['2', 'el 2', '#2', '2.', ' 2 ', 'número 2', 'opción 2', 'quiero el 2', 'la 2'])(
    '%j picks the second offered file',
    (message) => {
      expect(matchFiles(message, FILES, { offered })).toEqual({
        action: 'SEND',
        files: [vinos],
        pass: 'pick',
        alreadySent: [],
      });
    },
  );

  it.each([
    ['1', 'f1'],
    ['3', 'f2'],
    ['el 3', 'f2'],
  ])('%j picks offered file %s', (message, id) => {
    const r = matchFiles(message, FILES, { offered });
    expect([r.action, r.pass, ids(r.files)]).toEqual(['SEND', 'pick', [id]]);
  });

  it.each([
    ['menu del dia', 'f1'],
    ['el de foto local', 'f2'],
    ['vinos.pdf', 'f3'],
    ['fotolocal', 'f2'],
  ])('%j picks by name', (message, id) => {
    const r = matchFiles(message, FILES, { offered });
    expect([r.action, r.pass, ids(r.files)]).toEqual(['SEND', 'pick', [id]]);
  });

  it('offered entries may be file names instead of ids', () => {
    const r = matchFiles('2', FILES, { offered: [menu.file_name, vinos.file_name] });
    expect(ids(r.files)).toEqual(['f3']);
  });

  it.each(['4', '0', '99', 'el 7'])('an out-of-range number %j picks nothing', (message) => {
    expect(matchFiles(message, FILES, { offered })).toEqual({
      action: 'NONE',
      files: [],
      pass: 'none',
      alreadySent: [],
    });
  });

  it('a number without an offered list picks nothing', () => {
    expect(matchFiles('2', FILES).action).toBe('NONE');
    expect(matchFiles('el 2', FILES, { offered: [] }).action).toBe('NONE');
  });

  it('a new request for a file outside the list still matches by keyword', () => {
    const r = matchFiles('vinos', FILES, { offered: ['f1', 'f2'] });
    expect([r.action, r.pass, ids(r.files)]).toEqual(['SEND', 'exact', ['f3']]);
  });
});

describe('matchFiles: already-sent files', () => {
  it.each([
    ['by id', ['f1']],
    ['by file name', [menu.file_name]],
  ])('a partial request for a file sent earlier (%s) does not re-send it', (_how, sent) => {
    expect(matchFiles('¿Tenéis la carta?', FILES, { sent })).toEqual({
      action: 'NONE',
      files: [],
      pass: 'partial',
      alreadySent: [menu],
    });
  });

  it('a fuzzy request for a file sent earlier does not re-send it', () => {
    const r = matchFiles('menú', FILES, { sent: ['f1'] });
    expect([r.action, r.pass, r.files, r.alreadySent]).toEqual(['NONE', 'fuzzy', [], [menu]]);
  });

  it('asking by exact keyword re-sends it', () => {
    expect(matchFiles('carta', FILES, { sent: ['f1'] })).toEqual({
      action: 'SEND',
      files: [menu],
      pass: 'exact',
      alreadySent: [],
    });
  });

  it('asking by file name re-sends it', () => {
    const r = matchFiles('mándame otra vez el menu del dia', FILES, { sent: ['f1'] });
    expect([r.action, ids(r.files), r.alreadySent]).toEqual(['SEND', ['f1'], []]);
  });

  it('among several matches the ones already sent are left out', () => {
    const a: MatchableFile = { id: 'a', file_name: 'a.pdf', keyword: 'carta', context: '' };
    const b: MatchableFile = { id: 'b', file_name: 'b.pdf', keyword: 'precios', context: '' };
    const c: MatchableFile = { id: 'c', file_name: 'c.pdf', keyword: 'cartas', context: '' };
    const message = 'quiero la carta y los precios';
    const one = matchFiles(message, [a, b], { sent: ['a'] });
    expect([one.action, ids(one.files), ids(one.alreadySent)]).toEqual(['SEND', ['b'], ['a']]);
    const two = matchFiles('las cartas y los precios', [a, b, c], { sent: ['b'] });
    expect([two.action, ids(two.files), ids(two.alreadySent)]).toEqual(['LIST', ['a', 'c'], ['b']]);
  });

  it('sent files that the message does not ask for are not reported', () => {
    expect(matchFiles('vinos', FILES, { sent: ['f1', 'f2'] }).alreadySent).toEqual([]);
  });
});

describe('matchFiles properties', () => {
  const fileArb = fc.record({
    id: fc.uuid(),
    file_name: fc.string({ maxLength: 20 }),
    keyword: fc.string({ maxLength: 20 }),
    context: fc.string({ maxLength: 30 }),
  });

  it('results are files of the bot, in its order, and agree with the action', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.array(fileArb, { maxLength: 6 }), (message, files) => {
        const r = matchFiles(message, files);
        const positions = r.files.map((f) => files.indexOf(f));
        expect(positions.every((p) => p >= 0)).toBe(true);
        expect(positions).toEqual([...positions].sort((x, y) => x - y));
        const expected = r.files.length === 0 ? 'NONE' : r.files.length === 1 ? 'SEND' : 'LIST';
        expect(r.action).toBe(expected);
      }),
    );
  });

  it('a message equal to a keyword part (any case) always finds that file in pass 1', () => {
    const word = fc.stringMatching(/^[a-zñáéíóú]{1,10}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), fc.nat(3), (parts, i) => {
        const file: MatchableFile = { id: 'k', file_name: 'k.pdf', keyword: parts.join(','), context: '' };
        const part = parts[i % parts.length]!;
        const r = matchFiles(part.toUpperCase(), [file]);
        expect([r.action, r.pass]).toEqual(['SEND', 'exact']);
      }),
    );
  });
});

describe('pickIndex', () => {
  it.each([
    ['2', 3, 1],
    ['el 2', 3, 1],
    ['#2', 3, 1],
    ['2.', 3, 1],
    ['Número 2', 3, 1],
    ['opción 3', 3, 2],
    ['the number 1', 3, 0],
    ['quiero el 1', 3, 0],
    ['nº 2', 3, 1],
    ['n.º 2', 3, 1],
    ['la 2ª', 3, 1],
    ['el 2º', 3, 1],
    ['3', 3, 2],
    ['4', 3, -1],
    ['0', 3, -1],
    ['1', 0, -1],
    ['', 3, -1],
    ['1 o 2', 3, -1],
    ['tengo 2 hijos', 3, -1],
    ['dos', 3, -1],
    ['quiero el número 2 por favor gracias', 3, -1],
  ])('pickIndex(%j, %i) = %i', (message, count, expected) => {
    expect(pickIndex(message, count)).toBe(expected);
  });
});

describe('foldAccents and fuzzyForm', () => {
  it.each([
    ['Menú', 'menu'],
    ['CAFÉ', 'cafe'],
    ['niño', 'nino'],
    ['Ça va', 'ca va'],
    ['pingüino', 'pinguino'],
    ['¿La Carta?', '¿la carta?'],
  ])('foldAccents(%j) = %j', (input, expected) => {
    expect(foldAccents(input)).toBe(expected);
  });

  it.each([
    ['¿La Carta?', 'lacarta'],
    ['foto local', 'fotolocal'],
    ['Menú del Día!', 'menudeldia'],
    ['foto_local-2', 'fotolocal2'],
    ['  ', ''],
  ])('fuzzyForm(%j) = %j', (input, expected) => {
    expect(fuzzyForm(input)).toBe(expected);
  });
});

describe('normalizeKeywords', () => {
  it.each([
    [' "Menú", Carta ,, precios ', 'menú,carta,precios'],
    ['foto local', 'foto,local'],
    ['taza grande', 'taza,grande'],
    ['Taza grande, taza pequeña', 'taza,grande,pequeña'],
    ['"menú del día"', 'menú,del,día'],
    ["'carta'", 'carta'],
    ['«vinos», “tapas”', 'vinos,tapas'],
    ['`a´b’c‘d', 'abcd'],
    ['MENU,menu, Menu', 'menu'],
    ['carta, carta ,carta', 'carta'],
    ['a\tb\nc', 'a,b,c'],
    ['a\u00a0b', 'a,b'],
    [',,,', ''],
    ['', ''],
    ['  " "  ', ''],
    ['Precios, CARTA', 'precios,carta'],
  ])('normalizeKeywords(%j) = %j', (input, expected) => {
    expect(normalizeKeywords(input)).toBe(expected);
  });

  const QUOTE_CHARS = ['"', "'", '`', '´', '‘', '’', '‚', '‛', '“', '”', '„', '‟', '«', '»', '‹', '›'];
  const tricky = fc.constantFrom(
    ...QUOTE_CHARS,
    ',',
    ',',
    ' ',
    '\t',
    '\n',
    '\u00a0',
    '\u2003',
    'a',
    'B',
    'ñ',
    'Á',
    'é',
    'Ü',
    'z',
    'İ',
    'ß',
    '1',
  );
  const keywordInput = fc.oneof(
    fc.string({ unit: tricky, maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );

  it('is idempotent', () => {
    fc.assert(
      fc.property(keywordInput, (x) => {
        const once = normalizeKeywords(x);
        expect(normalizeKeywords(once)).toBe(once);
      }),
      { numRuns: 500 },
    );
  });

  it('gives lowercase parts with no whitespace, quotes, empty or repeated parts', () => {
    fc.assert(
      fc.property(keywordInput, (x) => {
        const out = normalizeKeywords(x);
        expect(out).not.toMatch(/\s/);
        for (const q of QUOTE_CHARS) expect(out).not.toContain(q);
        expect(out).toBe(out.toLowerCase());
        if (out === '') return;
        const parts = out.split(',');
        expect(parts.every((p) => p.length > 0)).toBe(true);
        expect(new Set(parts).size).toBe(parts.length);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps every word of the input as a part of its own: words are split, never glued (issue 10)', () => {
    fc.assert(
      fc.property(keywordInput, (x) => {
        const parts = normalizeKeywords(x).split(',');
        for (const raw of x.replace(/["'`´‘’‚‛“”„‟«»‹›]/g, '').split(/[\s,]+/)) {
          const word = raw.toLowerCase();
          if (word) expect(parts).toContain(word);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same keywords from what the dashboard field shows as from the raw text', () => {
    fc.assert(
      fc.property(keywordInput, (x) => {
        expect(normalizeKeywords(keywordFieldValue(x))).toBe(normalizeKeywords(x));
        expect(splitKeywords(x)).toEqual(normalizeKeywords(x) ? normalizeKeywords(x).split(',') : []);
      }),
      { numRuns: 500 },
    );
  });
});

describe('keywordInput (the dashboard keyword field as typed)', () => {
  it.each([
    ['taza grande', 'taza,grande'],
    ['taza ', 'taza,'],
    ['taza, grande', 'taza,grande'],
    ['Taza  ,, Grande', 'Taza,Grande'],
    [' "menú del día"', 'menú,del,día'],
    [',,', ''],
    ['a\tb', 'a,b'],
  ])('keywordInput(%j) = %j', (input, expected) => {
    expect(keywordFieldValue(input)).toBe(expected);
  });
});
