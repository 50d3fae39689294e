/**
 * Makes the home page's media (assets/site), run by hand when they should change; the results are
 * committed (issue 16 §1: "real media shipped in the repo, made here, small"):
 *  - artist.svg, clinic.svg, reservations.svg, company.svg: the carousel's four pictures (spec 001
 *    §2: artist, clinic, reservations, company), chats drawn as vector art (a few KB each), and
 *    their `<name>.<lang>.svg` in the site's seven languages (issue 29);
 *  - demo.webm and demo-poster.webp: a real conversation with the demo IALanding, recorded from
 *    headless Chromium as screenshots and encoded with ffmpeg (VP9, no sound).
 *
 * Usage: start Charla (`npm start`), then `node scripts/site-media.mjs [http://127.0.0.1:8787]`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
function chatSvg({ name, online, emoji, colour, messages, extra = '' }) {
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
<text x="86" y="68" fill="#fff" opacity=".85" font-size="13">${esc(online)}</text>
${bubbles}${extra}
</svg>
`;
}

/**
 * The carousel's chats in the site's seven languages (issue 29 "Language": the hero mockups speak
 * the page's language): `<slide>.<lang>.svg`; `<slide>.svg` stays the Spanish one (og:image).
 * Per language (scripts/site-media-chats.json): the header's "AI assistant · online", then each
 * slide's name and messages (and the reservation reminder).
 */
const CHATS = JSON.parse(readFileSync(join(root, 'scripts', 'site-media-chats.json'), 'utf8'));

/** The look of each slide: its emoji and colour. */
const LOOK = {
  artist: ['🎸', '#7c3aed'],
  clinic: ['🦷', '#0891b2'],
  reservations: ['🦆', '#0f766e'],
  company: ['🛍️', '#ea580c'],
};

/** A slide's picture in one language (the customer writes first, then the bot; see CHATS). */
function slide(lang, name) {
  const chat = CHATS[lang];
  const [title, lines, reminder] = chat[name];
  const [emoji, colour] = LOOK[name];
  const who = { artist: 'mbbmb', clinic: 'mbbmb', reservations: 'mbb', company: 'mbmbb' }[name];
  return chatSvg({
    name: title,
    online: chat.online,
    emoji,
    colour,
    messages: lines.map((text, i) => [who[i] === 'm' ? 'me' : 'bot', text]),
    extra: reminder
      ? `<rect x="30" y="330" width="300" height="74" rx="14" fill="#fef3c7"/><text x="46" y="358" fill="#713f12" font-weight="700">${esc(reminder[0])}</text><text x="46" y="384" fill="#713f12">${esc(reminder[1])}</text>`
      : '',
  });
}

const NAMES = ['artist', 'clinic', 'reservations', 'company'];
const slides = {};
for (const lang of Object.keys(CHATS))
  for (const name of NAMES) slides[`${name}.${lang}`] = slide(lang, name);
for (const name of NAMES) slides[name] = slides[`${name}.es`];
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
