/**
 * Makes the home page's media (assets/site), run by hand when they should change; the results are
 * committed (issue 16 §1: "real media shipped in the repo, made here, small"):
 *  - artist.svg, clinic.svg, reservations.svg, company.svg: the carousel's four pictures (spec 001
 *    §2: artist, clinic, reservations, company), chats drawn as vector art (a few KB each);
 *  - demo.webm and demo-poster.webp: a real conversation with the demo IALanding, recorded from
 *    headless Chromium as screenshots and encoded with ffmpeg (VP9, no sound).
 *
 * Usage: start Charla (`npm start`), then `node scripts/site-media.mjs [http://127.0.0.1:8787]`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(root, 'assets', 'site', 'media');
mkdirSync(OUT, { recursive: true });

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Breaks a text into lines of at most `max` characters. */
function wrap(text, max) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if ((line ? `${line} ${word}` : word).length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A phone screen with a chat: `messages` are [who, text] with who 'me' or 'bot'. */
function chatSvg({ name, emoji, colour, messages, extra = '' }) {
  let y = 112;
  const bubbles = messages
    .map(([who, text]) => {
      const lines = wrap(text, 30);
      const h = lines.length * 20 + 18;
      const w = Math.min(250, Math.max(...lines.map((l) => l.length)) * 8.2 + 26);
      const x = who === 'me' ? 330 - w : 30;
      const fill = who === 'me' ? colour : '#f1f5f9';
      const ink = who === 'me' ? '#fff' : '#0f172a';
      const out = `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="14" fill="${fill}"/>${lines
        .map((l, i) => `<text x="${x + 13}" y="${y + 24 + i * 20}" fill="${ink}">${esc(l)}</text>`)
        .join('')}`;
      y += h + 12;
      return out;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 440" width="360" height="440" font-family="system-ui,-apple-system,Segoe UI,Roboto,sans-serif" font-size="15">
<rect width="360" height="440" rx="28" fill="#0f172a"/>
<rect x="12" y="12" width="336" height="416" rx="20" fill="#fff"/>
<rect x="12" y="12" width="336" height="78" rx="20" fill="${colour}"/>
<rect x="12" y="60" width="336" height="30" fill="${colour}"/>
<circle cx="52" cy="51" r="22" fill="#fff"/>
<text x="52" y="59" font-size="22" text-anchor="middle">${emoji}</text>
<text x="86" y="47" fill="#fff" font-weight="700" font-size="17">${esc(name)}</text>
<text x="86" y="68" fill="#fff" opacity=".85" font-size="13">Asistente IA · en línea</text>
${bubbles}${extra}
</svg>
`;
}

const slides = {
  artist: chatSvg({
    name: 'Banda Aurora',
    emoji: '🎸',
    colour: '#7c3aed',
    messages: [
      ['me', '¿Cuándo sale el disco nuevo?'],
      ['bot', '¡El 12 de diciembre! 🎶 Te dejo el adelanto:'],
      ['bot', '▶ single-aurora.mp3  0:42'],
      ['me', '¡Me encanta! ¿Y conciertos?'],
      ['bot', 'Madrid 20/12 y Valencia 22/12. ¿Te paso las entradas?'],
    ],
  }),
  clinic: chatSvg({
    name: 'Clínica Sonrisa',
    emoji: '🦷',
    colour: '#0891b2',
    messages: [
      ['me', '¿Hacéis blanqueamiento?'],
      ['bot', 'Sí 😊 Sesión de 60 min. Aquí tienes la guía:'],
      ['bot', '📄 blanqueamiento.pdf'],
      ['me', '¿Me dais cita el jueves?'],
      ['bot', 'Jueves libre: 10:00, 12:30 o 17:00.'],
    ],
  }),
  reservations: chatSvg({
    name: 'El Pato Pepe',
    emoji: '🦆',
    colour: '#0f766e',
    messages: [
      ['me', 'Mesa para 4 el sábado a las 21:00'],
      ['bot', '✅ Reservado: sábado 21:00, 4 personas.'],
      ['bot', '⏰ Te recordaré 2h antes.'],
    ],
    extra:
      '<rect x="30" y="330" width="300" height="74" rx="14" fill="#fef3c7"/><text x="46" y="358" fill="#713f12" font-weight="700">⏰ 2h antes</text><text x="46" y="384" fill="#713f12">Tu mesa te espera a las 21:00</text>',
  }),
  company: chatSvg({
    name: 'Tienda Nube',
    emoji: '🛍️',
    colour: '#ea580c',
    messages: [
      ['me', '¿Dónde está mi pedido 4821?'],
      ['bot', 'Salió ayer 📦 Llega mañana antes de las 14:00.'],
      ['me', '¿Puedo cambiar la talla?'],
      ['bot', 'Claro: tienes 30 días. Te paso el formulario 👇'],
      ['bot', '📄 cambios.pdf'],
    ],
  }),
};
for (const [name, svg] of Object.entries(slides)) writeFileSync(join(OUT, `${name}.svg`), svg);
process.stdout.write(`wrote ${Object.keys(slides).length} pictures to ${OUT}\n`);

const base = process.argv[2];
if (base) {
  const { chromium } = await import('playwright-core');
  const ffmpeg = (await import('@ffmpeg-installer/ffmpeg')).default.path;
  const frames = join(OUT, '.frames');
  rmSync(frames, { recursive: true, force: true });
  mkdirSync(frames);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  const page = await browser.newPage({ viewport: { width: 480, height: 300 }, deviceScaleFactor: 1 });
  await page.goto(`${base}/ialanding/ialanding-el-pato-pepe`);
  await page.waitForTimeout(1500);
  let n = 0;
  const shoot = async (count) => {
    for (let i = 0; i < count; i++) {
      await page.screenshot({ path: join(frames, `${String(n++).padStart(4, '0')}.png`) });
      await page.waitForTimeout(100);
    }
  };
  await shoot(6);
  const input = page.getByPlaceholder('Escribe tu mensaje...');
  for (const question of ['¿Tenéis la carta?', '¿Abrís el domingo?']) {
    for (const ch of question) {
      await input.type(ch);
      await shoot(1);
    }
    await input.press('Enter');
    await shoot(25);
  }
  await browser.close();
  const run = (args) => {
    const r = spawnSync(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
    if (r.status !== 0) throw new Error(r.stderr.toString());
  };
  run([
    '-framerate',
    '8',
    '-i',
    join(frames, '%04d.png'),
    '-c:v',
    'libvpx-vp9',
    '-b:v',
    '0',
    '-crf',
    '42',
    '-pix_fmt',
    'yuv420p',
    '-an',
    join(OUT, 'demo.webm'),
  ]);
  run([
    '-i',
    join(frames, `${String(n - 1).padStart(4, '0')}.png`),
    '-q:v',
    '70',
    join(OUT, 'demo-poster.webp'),
  ]);
  rmSync(frames, { recursive: true, force: true });
  process.stdout.write(`wrote demo.webm and demo-poster.webp (${n} frames)\n`);
}
