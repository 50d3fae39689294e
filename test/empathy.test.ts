/**
 * The empathy container (`contenedorEmpatico`, spec 000 §7), the system prompt built from it, and the
 * offline responder.
 */
import { describe, expect, it } from 'vitest';
import { offlineReply } from '../engine/conversation/offline.ts';
import { buildSystemPrompt, type PromptBot, STYLE_GUIDES } from '../engine/conversation/prompt.ts';
import { buildEmpathyContainer, type EmpathyInput, HISTORY_WINDOW } from '../engine/empathy/index.ts';
import {
  type ContenedorEmpatico,
  ContenedorEmpatico as ContenedorEmpaticoSchema,
  type FileRef,
  type HistoryItem,
  type LangCode,
} from '../engine/schemas.ts';

const NOW = new Date('2026-11-21T12:00:00Z');

const carta: FileRef = { id: 'f1', file_name: 'carta.pdf', file_type: 'pdf', keyword: 'menu,carta,precios' };
const terraza: FileRef = { id: 'f2', file_name: 'terraza.jpg', file_type: 'image', keyword: 'fotolocal' };
const vinos: FileRef = { id: 'f3', file_name: 'vinos.pdf', file_type: 'pdf', keyword: 'vinos' };
const FILES = [carta, terraza, vinos];

function input(overrides: Partial<EmpathyInput> = {}): EmpathyInput {
  return {
    message: '¿A qué hora abrís?',
    history: [],
    lang: 'es',
    files: FILES,
    sentIds: [],
    mentioned: null,
    alreadySent: [],
    archivos: { action: 'NONE', lista: [] },
    businessName: 'El Pato Pepe',
    now: NOW,
    timezone: 'Europe/Madrid',
    ...overrides,
  };
}

const sorted = (o: object) => Object.keys(o).sort();

describe('buildEmpathyContainer: shape', () => {
  it('returns exactly the fields of spec 000 §7 and passes the schema', () => {
    const c = buildEmpathyContainer(input());
    expect(sorted(c)).toEqual(['analisisInterno', 'archivos', 'estadoEmpatico', 'historialReciente']);
    expect(sorted(c.analisisInterno)).toEqual(
      [
        'textoAnalizado',
        'archivosDisponibles',
        'archivosEnviados',
        'archivoMencionado',
        'alertas',
        'resumenContexto',
        'recomendacionAsistente',
        'reloj',
      ].sort(),
    );
    expect(sorted(c.archivos)).toEqual(['action', 'lista']);
    expect(sorted(c.estadoEmpatico)).toEqual(['estado', 'puntuacion', 'senales']);
    expect(sorted(c.analisisInterno.reloj)).toEqual(['iso', 'texto', 'zonaHoraria']);
    expect(ContenedorEmpaticoSchema.strict().safeParse(c).success).toBe(true);
    expect(ContenedorEmpaticoSchema.parse(c)).toEqual(c);
  });

  it('reports the analysed text, the files, the sent files and the file action', () => {
    const archivos = { action: 'SEND' as const, lista: [carta] };
    const c = buildEmpathyContainer(
      input({ message: 'la carta', sentIds: ['f3', 'f1'], mentioned: carta, archivos }),
    );
    expect(c.analisisInterno.textoAnalizado).toBe('la carta');
    expect(c.analisisInterno.archivosDisponibles).toEqual(FILES);
    expect(c.analisisInterno.archivosEnviados).toEqual(['f3', 'f1']);
    expect(c.analisisInterno.archivoMencionado).toEqual(carta);
    expect(c.archivos).toEqual(archivos);
    expect(c.analisisInterno.resumenContexto).toContain('El Pato Pepe');
    expect(c.analisisInterno.resumenContexto).toContain('carta.pdf');
    expect(c.analisisInterno.resumenContexto).toContain('vinos.pdf');
    expect(c.analisisInterno.recomendacionAsistente).toContain('carta.pdf');
  });

  it('is deterministic: the same input gives a deep-equal container', () => {
    const history: HistoryItem[] = [
      { role: 'user', content: 'hola' },
      { role: 'assistant', content: '¡Hola! ¿En qué puedo ayudarte?' },
    ];
    const make = () =>
      buildEmpathyContainer(
        input({
          message: 'NO FUNCIONA NADA!!',
          history,
          alreadySent: [carta],
          sentIds: ['f1'],
          archivos: { action: 'LIST', lista: [terraza, vinos] },
        }),
      );
    const first = make();
    expect(make()).toEqual(first);
    expect(JSON.stringify(make())).toBe(JSON.stringify(first));
  });

  it(`historialReciente keeps only the last ${HISTORY_WINDOW} messages, oldest first`, () => {
    const history: HistoryItem[] = Array.from({ length: 8 }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: `mensaje ${i + 1}`,
    }));
    const c = buildEmpathyContainer(input({ history }));
    expect(HISTORY_WINDOW).toBe(5);
    expect(c.historialReciente).toEqual(history.slice(3));
    expect(c.historialReciente.map((h) => h.content)).toEqual([
      'mensaje 4',
      'mensaje 5',
      'mensaje 6',
      'mensaje 7',
      'mensaje 8',
    ]);
    const short = buildEmpathyContainer(input({ history: history.slice(0, 2) }));
    expect(short.historialReciente).toEqual(history.slice(0, 2));
    expect(buildEmpathyContainer(input()).historialReciente).toEqual([]);
  });
});

describe('buildEmpathyContainer: the follower state', () => {
  it.each<[string, LangCode, string]>([
    ['¡Muchas gracias, me encanta!', 'es', 'contento'],
    ['thanks, awesome', 'en', 'contento'],
    ['thanks, awesome', 'es', 'contento'],
    ['Perfecto, muchas gracias 😊', 'es', 'contento'],
    ['Esto es horrible, estoy harto', 'es', 'frustrado'],
    ['NO FUNCIONA NADA', 'es', 'frustrado'],
    ['MUCHAS GRACIAS, SOIS LOS MEJORES', 'es', 'contento'],
    ['ya lo tengo, gracias', 'es', 'contento'],
    ['no se puede aparcar cerca, ¿verdad?', 'es', 'neutral'],
    ['This is terrible, it does not help', 'en', 'frustrado'],
    ['lo necesito urgente, ahora mismo', 'es', 'urgente'],
    ['I need it right now, urgent', 'en', 'urgente'],
    ['no entiendo cómo funciona ??', 'es', 'confundido'],
    ["I'm confused", 'en', 'confundido'],
    ['I don’t understand', 'en', 'confundido'],
    ["It doesn't work", 'en', 'frustrado'],
    ['Merci beaucoup, c’est parfait', 'fr', 'contento'],
    ['J’adore !', 'fr', 'contento'],
    ["Je ne comprends pas, ce n'est pas clair", 'fr', 'confundido'],
    ['Non capisco, cosa significa?', 'it', 'confundido'],
    ['Grazie mille, perfetto', 'it', 'contento'],
    ['Non funziona, sono arrabbiato', 'it', 'frustrado'],
    ['¿A qué hora abrís?', 'es', 'neutral'],
    ['What time do you open?', 'en', 'neutral'],
    ['À quelle heure ouvrez-vous ?', 'fr', 'neutral'],
  ])('%j (%s) reads as %s', (message, lang, estado) => {
    const { estadoEmpatico } = buildEmpathyContainer(input({ message, lang }));
    expect(estadoEmpatico.estado).toBe(estado);
    if (estado === 'neutral') {
      expect(estadoEmpatico.puntuacion).toBe(0);
      expect(estadoEmpatico.senales).toEqual([]);
    } else {
      expect(estadoEmpatico.puntuacion).toBeGreaterThan(0);
      expect(estadoEmpatico.puntuacion).toBeLessThanOrEqual(1);
      expect(estadoEmpatico.senales.length).toBeGreaterThan(0);
    }
  });

  it('all-caps shouting is a frustration signal', () => {
    const { estadoEmpatico } = buildEmpathyContainer(input({ message: 'NO FUNCIONA NADA' }));
    expect(estadoEmpatico.senales).toContain('mayúsculas');
  });

  it('a repeated message reads as frustrated and raises an alert', () => {
    const history: HistoryItem[] = [
      { role: 'user', content: '¿Dónde está mi pedido?' },
      { role: 'assistant', content: 'Déjame comprobarlo.' },
    ];
    const first = buildEmpathyContainer(input({ message: '¿Dónde está mi pedido?' }));
    expect(first.estadoEmpatico.estado).toBe('neutral');
    const again = buildEmpathyContainer(input({ message: '¿Dónde está mi pedido? ', history }));
    expect(again.estadoEmpatico.estado).toBe('frustrado');
    expect(again.estadoEmpatico.puntuacion).toBeGreaterThan(0);
    expect(again.estadoEmpatico.senales).toContain('mensaje repetido');
    expect(again.analisisInterno.alertas.some((a) => a.includes('repite'))).toBe(true);
  });

  it('a stronger reading scores higher', () => {
    const one = buildEmpathyContainer(input({ message: 'gracias' })).estadoEmpatico;
    const many = buildEmpathyContainer(
      input({ message: '¡Muchas gracias, me encanta, genial!' }),
    ).estadoEmpatico;
    expect(one.estado).toBe('contento');
    expect(many.estado).toBe('contento');
    expect(many.puntuacion).toBeGreaterThan(one.puntuacion);
  });

  it('the recommendation changes with the state', () => {
    const messages = {
      neutral: '¿A qué hora abrís?',
      contento: '¡Muchas gracias, me encanta!',
      frustrado: 'Esto es horrible, estoy harto',
      urgente: 'lo necesito urgente, ahora mismo',
      confundido: 'no entiendo cómo funciona ??',
    };
    const recs = Object.entries(messages).map(([estado, message]) => {
      const c = buildEmpathyContainer(input({ message }));
      expect(c.estadoEmpatico.estado).toBe(estado);
      expect(c.analisisInterno.recomendacionAsistente.length).toBeGreaterThan(0);
      return c.analisisInterno.recomendacionAsistente;
    });
    expect(new Set(recs).size).toBe(5);
    expect(recs[2]).toMatch(/disc[uú]lpate/);
  });

  it('frustrated and urgent followers raise an alert; a neutral one does not', () => {
    const alerts = (message: string) => buildEmpathyContainer(input({ message })).analisisInterno.alertas;
    expect(alerts('Esto es horrible, estoy harto').some((a) => /frustrado/i.test(a))).toBe(true);
    expect(alerts('lo necesito urgente, ahora mismo').some((a) => /urgente/i.test(a))).toBe(true);
    expect(alerts('¿A qué hora abrís?')).toEqual([]);
  });
});

describe('buildEmpathyContainer: file alerts', () => {
  it('a file asked for again that was already sent raises an alert and changes the recommendation', () => {
    const plain = buildEmpathyContainer(input({ message: '¿Tenéis la carta?', sentIds: ['f1'] }));
    const c = buildEmpathyContainer(
      input({ message: '¿Tenéis la carta?', sentIds: ['f1'], alreadySent: [carta], mentioned: carta }),
    );
    expect(c.analisisInterno.alertas).toContain('Archivo ya enviado en esta conversación: carta.pdf.');
    expect(c.analisisInterno.archivoMencionado).toEqual(carta);
    expect(c.analisisInterno.recomendacionAsistente).not.toBe(plain.analisisInterno.recomendacionAsistente);
    expect(c.analisisInterno.recomendacionAsistente).toContain('ya se envió');
  });

  it('a LIST raises an alert with the count and asks the follower to choose', () => {
    const c = buildEmpathyContainer(
      input({ message: 'carta', archivos: { action: 'LIST', lista: [carta, vinos] } }),
    );
    expect(c.archivos).toEqual({ action: 'LIST', lista: [carta, vinos] });
    expect(c.analisisInterno.alertas.some((a) => a.includes('Varios archivos coinciden (2)'))).toBe(true);
    expect(c.analisisInterno.recomendacionAsistente).toMatch(/número|nombre/);
  });

  it('files without a keyword are flagged as unconfigured', () => {
    const bare: FileRef = { id: 'f4', file_name: 'sin.pdf', file_type: 'pdf', keyword: '  ' };
    const c = buildEmpathyContainer(input({ files: [...FILES, bare] }));
    expect(c.analisisInterno.alertas.some((a) => a.startsWith('1 archivo(s) sin palabra clave'))).toBe(true);
  });
});

describe('buildEmpathyContainer: reloj', () => {
  it.each<[string, string, string, string]>([
    ['Europe/Madrid', '13:00', '+01:00', 'Europe/Madrid'],
    ['America/New_York', '07:00', '-05:00', 'America/New_York'],
    ['Asia/Tokyo', '21:00', '+09:00', 'Asia/Tokyo'],
  ])('in %s the time is %s (%s)', (timezone, time, offset, zone) => {
    const { reloj } = buildEmpathyContainer(input({ timezone })).analisisInterno;
    expect(reloj.iso).toContain(`T${time}`);
    expect(reloj.iso.endsWith(offset)).toBe(true);
    expect(new Date(reloj.iso).getTime()).toBe(NOW.getTime());
    expect(reloj.zonaHoraria).toBe(zone);
    expect(reloj.texto).toContain(time);
  });

  it('summer time moves the offset', () => {
    const { reloj } = buildEmpathyContainer(input({ now: new Date('2026-07-01T12:00:00Z') })).analisisInterno;
    expect(reloj.iso).toContain('T14:00');
    expect(reloj.iso.endsWith('+02:00')).toBe(true);
  });

  it.each([null, undefined, '', 'Not/AZone', 'Mars/Olympus_Mons', 'foo bar'])(
    'zone %j falls back to Europe/Madrid',
    (timezone) => {
      const { reloj } = buildEmpathyContainer(input({ timezone })).analisisInterno;
      expect(reloj.zonaHoraria).toBe('Europe/Madrid');
      expect(reloj.iso).toContain('T13:00');
      expect(reloj.iso.endsWith('+01:00')).toBe(true);
    },
  );

  it('the human text is in the bot language', () => {
    const texto = (lang: LangCode) =>
      buildEmpathyContainer(input({ lang })).analisisInterno.reloj.texto.toLowerCase();
    expect(texto('es')).toContain('sábado');
    expect(texto('es')).toContain('noviembre');
    expect(texto('en')).toContain('saturday');
    expect(texto('fr')).toContain('samedi');
    expect(texto('it')).toContain('sabato');
  });
});

describe('buildSystemPrompt', () => {
  const bot: PromptBot = {
    business_name: 'El Pato Pepe',
    business_description: 'Restaurante de cocina mediterránea en Valencia. Arroces y tapas.',
    chatbot_style: 'formal',
    expectations: 'Que reserve mesa y conozca la carta.',
    category: 'Restaurante',
    system_prompt: 'No hables de la competencia.',
  };
  const files = [
    { file_name: 'carta.pdf', file_type: 'pdf', keyword: 'menu,carta,precios', context: 'Carta con precios' },
    {
      file_name: 'terraza.jpg',
      file_type: 'image',
      keyword: 'fotolocal',
      context: 'La terraza al atardecer',
    },
  ];
  const prompt = (overrides: Partial<Parameters<typeof buildSystemPrompt>[0]> = {}) =>
    buildSystemPrompt({
      bot,
      lang: 'es',
      files,
      fragments: ['## Reservas\nPuedes tomar reservas con nombre y teléfono.'],
      container: buildEmpathyContainer(input()),
      ...overrides,
    });

  it('carries the business, its expectations, the owner instructions and the style guide', () => {
    const p = prompt();
    expect(p).toContain('El Pato Pepe');
    expect(p).toContain('Restaurante de cocina mediterránea en Valencia. Arroces y tapas.');
    expect(p).toContain('Que reserve mesa y conozca la carta.');
    expect(p).toContain('No hables de la competencia.');
    expect(p).toContain(STYLE_GUIDES.formal);
    expect(p).not.toContain(STYLE_GUIDES.casual);
  });

  it('answers in the bot language', () => {
    expect(prompt()).toContain('Always answer in Spanish');
    expect(prompt({ lang: 'en' })).toContain('Always answer in English');
    expect(prompt({ lang: 'fr' })).toContain('Always answer in French');
    expect(prompt({ lang: 'en' })).not.toContain('Always answer in Spanish');
  });

  it("lists each file's name, keywords and context", () => {
    const p = prompt();
    for (const f of files) {
      expect(p).toContain(f.file_name);
      expect(p).toContain(f.keyword);
      expect(p).toContain(f.context);
    }
    expect(prompt({ files: [] })).not.toContain('carta.pdf');
  });

  it('includes the plugin fragments', () => {
    expect(prompt()).toContain('Puedes tomar reservas con nombre y teléfono.');
    expect(prompt({ fragments: ['FRAGMENTO-A', 'FRAGMENTO-B'] })).toMatch(/FRAGMENTO-A[\s\S]*FRAGMENTO-B/);
  });

  it("passes the container's tone guidance, state and clock", () => {
    const calm = buildEmpathyContainer(input());
    const angry = buildEmpathyContainer(input({ message: 'Esto es horrible, estoy harto' }));
    const p = prompt({ container: angry });
    expect(p).toContain(angry.analisisInterno.recomendacionAsistente);
    expect(p).not.toContain(calm.analisisInterno.recomendacionAsistente);
    expect(p).toContain('frustrado');
    expect(p).toContain(angry.analisisInterno.reloj.texto);
    expect(prompt({ container: calm })).toContain(calm.analisisInterno.recomendacionAsistente);
  });

  it('tells the LLM about a file being sent or a list being offered', () => {
    const sending = buildEmpathyContainer(
      input({
        message: 'carta',
        mentioned: carta,
        sentIds: ['f1'],
        archivos: { action: 'SEND', lista: [carta] },
      }),
    );
    expect(prompt({ container: sending })).toContain('The system is sending the file "carta.pdf"');
    const listing = buildEmpathyContainer(input({ archivos: { action: 'LIST', lista: [carta, vinos] } }));
    expect(prompt({ container: listing })).toContain('Several files match (carta.pdf, vinos.pdf)');
  });

  it('an unknown style falls back to the casual guide', () => {
    expect(prompt({ bot: { ...bot, chatbot_style: 'raro' } })).toContain(STYLE_GUIDES.casual);
  });

  it('is deterministic', () => {
    expect(prompt()).toBe(prompt());
  });
});

describe('offlineReply', () => {
  const base = {
    businessName: 'El Pato Pepe',
    businessDescription:
      'Restaurante mediterráneo en Valencia. Atiende con cercanía y usa el tú. Abrimos todos los días de 13:00 a 23:00.',
    files: [
      { id: 'f1', file_name: 'carta.pdf', keyword: 'menu,carta', context: 'La carta con los precios.' },
      { id: 'f2', file_name: 'terraza.jpg', keyword: 'fotolocal', context: 'Foto de la terraza.' },
    ],
  };
  const reply = async (
    lang: LangCode,
    firstTurn = true,
    container?: ContenedorEmpatico,
    message?: string,
  ) => {
    const c = container ?? buildEmpathyContainer(input({ lang, ...(message ? { message } : {}) }));
    return offlineReply({
      ...base,
      lang,
      firstTurn,
      message: message ?? c.historialReciente.at(-1)?.content ?? '',
      container: c,
    });
  };
  const HELLO: Record<LangCode, string> = {
    es: 'hola',
    en: 'hello',
    fr: 'bonjour',
    de: 'hallo',
    it: 'ciao',
    ru: 'привет',
    hi: 'नमस्ते',
  };
  const hello = (lang: LangCode, firstTurn = true) =>
    reply(lang, firstTurn, buildEmpathyContainer(input({ lang, message: HELLO[lang] })), HELLO[lang]);

  it('answers in the bot language', async () => {
    const es = await hello('es');
    const en = await hello('en');
    const fr = await hello('fr');
    expect(new Set([es, en, fr]).size).toBe(3);
    expect(es).toContain('Soy el asistente de El Pato Pepe.');
    expect(en).toContain('I am the assistant of El Pato Pepe.');
    expect(fr).toContain('Je suis l’assistant de El Pato Pepe.');
    expect(es).toContain('Puedo enviarte:');
    expect(en).toContain('I can send you:');
    expect(fr).toContain('Je peux vous envoyer :');
  });

  it('answers a question from the description, without the instruction sentence', async () => {
    expect(await reply('es', false, undefined, '¿A qué hora abrís?')).toBe(
      'Abrimos todos los días de 13:00 a 23:00.',
    );
    expect(await reply('es', true, undefined, '¿A qué hora abrís?')).toBe(
      'Soy el asistente de El Pato Pepe. Abrimos todos los días de 13:00 a 23:00.',
    );
  });

  it('opens with the follower’s state: an apology to a frustrated follower, thanks to a happy one', async () => {
    const said = (lang: LangCode, message: string) =>
      reply(lang, false, buildEmpathyContainer(input({ lang, message })), message);
    expect(
      (await said('es', 'Esto es horrible, estoy harto')).startsWith('Siento mucho las molestias.'),
    ).toBe(true);
    expect((await said('en', 'thanks, awesome')).startsWith('Thank you!')).toBe(true);
    expect(
      (await said('es', '¿Tenéis aparcamiento?')).startsWith(
        'No encuentro ese dato en la información de El Pato Pepe.',
      ),
    ).toBe(true);
  });

  it('introduces the business and offers each file by its context, never by keyword', async () => {
    const es = await hello('es');
    expect(es).toContain('Restaurante mediterráneo en Valencia.');
    expect(es).not.toContain('Atiende');
    expect(es).toContain('• La carta con los precios.\n• Foto de la terraza.');
    expect(es).not.toMatch(/fotolocal|menu/);
    const later = await hello('es', false);
    expect(later).toContain('Soy el asistente de El Pato Pepe.');
    expect(later).not.toContain('Restaurante mediterráneo');
    const photo = await reply('es', false, undefined, '¿Tenéis fotos de la terraza?');
    expect(photo).toContain('• Foto de la terraza.');
    expect(photo).not.toContain('La carta');
  });

  it('is deterministic', async () => {
    for (const lang of ['es', 'en', 'fr', 'it'] as const) {
      expect(await hello(lang)).toBe(await hello(lang));
      expect(await hello(lang, false)).toBe(await hello(lang, false));
    }
  });

  it('says nothing extra when the engine sends or lists files', async () => {
    const send = buildEmpathyContainer(
      input({ mentioned: carta, sentIds: ['f1'], archivos: { action: 'SEND', lista: [carta] } }),
    );
    expect(await reply('es', false, send)).toBe('');
    const list = buildEmpathyContainer(input({ archivos: { action: 'LIST', lista: [carta, vinos] } }));
    expect(await reply('es', false, list)).toBe('');
  });

  it('reminds the follower of a file already sent, in the bot language', async () => {
    const again = (lang: LangCode) =>
      buildEmpathyContainer(input({ lang, sentIds: ['f1'], alreadySent: [carta], mentioned: carta }));
    expect(await reply('es', false, again('es'))).toBe(
      'Ya te envié «carta.pdf» más arriba. Si quieres que lo reenvíe, pídemelo por su nombre.',
    );
    expect(await reply('en', false, again('en'))).toContain('I already sent you “carta.pdf”');
  });
});
