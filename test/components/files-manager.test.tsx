// @vitest-environment happy-dom
/**
 * The attached-files manager of /configure as the owner uses it (spec 000 §2, §4, §5, §9), rendered
 * with Testing Library in Spanish: the empty list's text; the previews (image, PDF link, audio and
 * video players) and the keywords table; the "Sin configurar" flag and the warning that counts the
 * files without a keyword; the client checks with the spec's toasts (format, 10 MB a file, 10 files a
 * bot, one upload at a time); the temporary "Subiendo…" entry, which becomes the saved file or
 * disappears on failure with the server's or the generic message; the edit modal (save disabled
 * while the keyword or the description is empty, quotes and spaces stripped from keywords, the
 * change sent and shown); the context cut at 180 characters or 6 lines with "Ver más"; the
 * "Subiendo Video" dialog and its progress bar through the spec's steps; deleting; and the live
 * refresh when another tab changes the files. The network is faked at the global boundary (fetch,
 * XMLHttpRequest, EventSource) with the routes' shapes (engine/http/routes/files.ts), every served
 * record checked against the route schema FileRecord.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { FilesManager } from '../../dashboard/src/components/FilesManager.tsx';
import { FILE_MESSAGES } from '../../engine/files.ts';
import { FileRecord, UploadedFile } from '../../engine/http/views.ts';
import { FILE_LIMITS, type FileType } from '../../engine/schemas.ts';
import {
  FakeEventSource,
  FakeFetch,
  FakeXhr,
  fileRecord,
  installNetwork,
  json,
  renderApp,
  spanish,
} from './harness.tsx';

const BOT = 'bot-1';
const LIST = /^\/api\/chatbot-files$/;
const CLOSE = /^\/api\/chatbot-files\/events\/close$/;
const ONE = /^\/api\/chatbot-files\/[^/]+$/;

/** The bot's files on the fake server, newest first, as GET /api/chatbot-files lists them. */
let files: FileRecord[];
let api: FakeFetch;
/** While set, GET /api/chatbot-files waits for it (to see the states an upload passes through). */
let listGate: Promise<void> | null;

function fileRoutes(): FakeFetch {
  return new FakeFetch()
    .on('GET', LIST, async (req) => {
      if (req.query.get('chatbotId') !== BOT) return json(404, { error: 'No existe configuración' });
      await listGate;
      return json(200, z.array(FileRecord).parse(files));
    })
    .on('PATCH', ONE, (req) => {
      const id = req.path.split('/').pop();
      const body = z.object({ keyword: z.string().max(500), context: z.string().max(5000) }).parse(req.body);
      const i = files.findIndex((f) => f.id === id);
      if (i < 0) return json(404, { error: 'not found' });
      files[i] = FileRecord.parse({ ...files[i], ...body });
      return json(200, files[i]);
    })
    .on('DELETE', ONE, (req) => {
      const id = req.path.split('/').pop();
      if (!files.some((f) => f.id === id)) return json(404, { error: 'not found' });
      files = files.filter((f) => f.id !== id);
      return json(204, null);
    })
    .on('POST', CLOSE, () => json(204, null));
}

const file = (name: string, type: FileType, fields: Partial<FileRecord> = {}) =>
  fileRecord({ chatbot_id: BOT, file_name: name, file_type: type, ...fields });

/**
 * What the server answers to an upload: the stored record (201, checked against the route's
 * UploadedFile), added to the bot's files; `conversionFailed` when ffmpeg could not convert it.
 */
async function acceptUpload(
  xhr: FakeXhr,
  stored: { name?: string; type: FileType; conversionFailed?: boolean },
) {
  expect(xhr.method).toBe('POST');
  expect(xhr.url).toBe('/api/chatbot-files');
  expect(xhr.form?.get('chatbotId')).toBe(BOT);
  const record = file(stored.name ?? xhr.file.name, stored.type);
  files = [record, ...files];
  await xhr.respond(
    201,
    UploadedFile.parse({ ...record, conversionFailed: stored.conversionFailed ?? false }),
  );
  return record;
}

/** A file as the browser's file dialog gives it. */
const pick = (name: string, size = 2048, type = '') => new File([new Uint8Array(size)], name, { type });

beforeAll(spanish);
beforeEach(() => {
  files = [];
  listGate = null;
  api = fileRoutes();
  installNetwork(api);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Renders the manager and waits for the first list. */
async function renderManager(options: Parameters<typeof userEvent.setup>[0] = {}) {
  const user = userEvent.setup(options);
  const view = renderApp(<FilesManager chatbotId={BOT} />);
  await waitFor(() => expect(api.seen('GET', LIST).length).toBeGreaterThan(0));
  await screen.findByRole('heading', { name: 'Archivos adjuntos' });
  return { user, view };
}

const chooser = () => screen.getByLabelText('Añadir archivo') as HTMLInputElement;
const addButton = () => screen.getByRole('button', { name: 'Añadir archivo' }) as HTMLButtonElement;
const toast = (text: string) => screen.findByText(text);
const itemOf = (name: string) => screen.getByText(name, { selector: 'li p' }).closest('li') as HTMLElement;

describe('FilesManager: the list', () => {
  it('says "Todavía no hay archivos." when the bot has none', async () => {
    await renderManager();
    expect(await screen.findByText('Todavía no hay archivos.')).toBeTruthy();
    expect(api.seen('GET', LIST)[0]?.query.get('chatbotId')).toBe(BOT);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('previews an image, a PDF, an audio and a video, and lists their keywords', async () => {
    files = [
      file('local.jpg', 'image', { keyword: 'foto,local', context: 'Nuestro comedor.' }),
      file('carta.pdf', 'pdf', { keyword: 'carta,menu', context: 'La carta de la casa.' }),
      file('saludo.ogg', 'audio', { keyword: 'saludo', context: 'Un saludo.' }),
      file('paseo.webm', 'video', { keyword: 'video', context: 'Un paseo por la cocina.' }),
    ];
    await renderManager();
    await screen.findByText('local.jpg', { selector: 'li p' });

    const image = within(itemOf('local.jpg')).getByRole('img', { name: 'local.jpg' });
    expect(image.getAttribute('src')).toBe(files[0]!.publicUrl);
    const pdf = within(itemOf('carta.pdf')).getByRole('link', { name: 'PDF' });
    expect(pdf.getAttribute('href')).toBe(files[1]!.publicUrl);
    expect(pdf.getAttribute('target')).toBe('_blank');
    const audio = itemOf('saludo.ogg').querySelector('audio');
    expect(audio?.getAttribute('src')).toBe(files[2]!.publicUrl);
    expect(audio?.hasAttribute('controls')).toBe(true);
    const video = itemOf('paseo.webm').querySelector('video');
    expect(video?.getAttribute('src')).toBe(files[3]!.publicUrl);
    expect(video?.hasAttribute('controls')).toBe(true);

    expect(within(itemOf('carta.pdf')).getByText('carta,menu')).toBeTruthy();
    expect(within(itemOf('carta.pdf')).getByText('La carta de la casa.')).toBeTruthy();
    expect(screen.queryByText('Sin configurar')).toBeNull();
    expect(screen.queryByText('Todavía no hay archivos.')).toBeNull();

    const table = screen.getByRole('table');
    expect(screen.getByRole('heading', { name: 'Palabras clave que conoce la IA' })).toBeTruthy();
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Palabra clave', 'Archivo', 'Tipo'],
      ['foto,local', 'local.jpg', 'Imagen'],
      ['carta,menu', 'carta.pdf', 'PDF'],
      ['saludo', 'saludo.ogg', 'Audio'],
      ['video', 'paseo.webm', 'Vídeo'],
    ]);
  });

  it('flags each file without a keyword and counts them in the warning', async () => {
    files = [
      file('a.jpg', 'image'),
      file('b.pdf', 'pdf', { keyword: 'carta', context: 'La carta.' }),
      file('c.ogg', 'audio', { context: 'Un saludo.' }),
    ];
    const { user } = await renderManager();
    await screen.findByText('a.jpg', { selector: 'li p' });

    expect(screen.getAllByText('Sin configurar')).toHaveLength(2);
    expect(within(itemOf('a.jpg')).getByText('Sin configurar')).toBeTruthy();
    expect(within(itemOf('b.pdf')).queryByText('Sin configurar')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe(
      'Archivos sin palabra clave: 2. El bot no puede ofrecerlos hasta que los configures.',
    );

    // "Configurar" opens the edit modal of that file.
    await user.click(within(itemOf('a.jpg')).getByRole('button', { name: 'Configurar' }));
    expect(screen.getByRole('dialog', { name: 'Editar archivo: a.jpg' })).toBeTruthy();
  });

  it('cuts a long context at 180 characters or 6 lines, with "Ver más" and "Ver menos"', async () => {
    const long = `${'Paella valenciana con pollo y conejo. '.repeat(5)}Y postre.`; // 199 characters
    const lines = ['1 uno', '2 dos', '3 tres', '4 cuatro', '5 cinco', '6 seis', '7 siete', '8 ocho'].join(
      '\n',
    );
    const fits = `${'x'.repeat(170)}\n2\n3\n4\n5\n6`; // 180 characters, 6 lines: not cut
    files = [
      file('largo.pdf', 'pdf', { keyword: 'largo', context: long }),
      file('lineas.pdf', 'pdf', { keyword: 'lineas', context: lines }),
      file('justo.pdf', 'pdf', { keyword: 'justo', context: fits }),
    ];
    const { user } = await renderManager();
    await screen.findByText('largo.pdf', { selector: 'li p' });
    const contextOf = (name: string) => itemOf(name).querySelector('p.whitespace-pre-line') as HTMLElement;

    expect(long.length).toBeGreaterThan(180);
    expect(contextOf('largo.pdf').textContent).toBe(`${long.slice(0, 180)}… Ver más`);
    expect(contextOf('lineas.pdf').textContent).toBe(`${lines.split('\n').slice(0, 6).join('\n')}… Ver más`);
    expect(contextOf('justo.pdf').textContent).toBe(`${fits} `);
    expect(within(itemOf('justo.pdf')).queryByRole('button', { name: 'Ver más' })).toBeNull();

    await user.click(within(itemOf('largo.pdf')).getByRole('button', { name: 'Ver más' }));
    expect(contextOf('largo.pdf').textContent).toBe(`${long} Ver menos`);
    await user.click(within(itemOf('largo.pdf')).getByRole('button', { name: 'Ver menos' }));
    expect(contextOf('largo.pdf').textContent).toBe(`${long.slice(0, 180)}… Ver más`);
  });

  it('deletes a file after the confirmation, and says so when the server cannot', async () => {
    files = [file('carta.pdf', 'pdf', { keyword: 'carta' }), file('local.jpg', 'image', { keyword: 'foto' })];
    const carta = files[0]!;
    const confirm = vi.fn((_message: string) => true);
    vi.stubGlobal('confirm', confirm);
    const { user } = await renderManager();
    await screen.findByText('carta.pdf', { selector: 'li p' });

    await user.click(within(itemOf('carta.pdf')).getByRole('button', { name: 'Eliminar' }));
    expect(confirm).toHaveBeenCalledWith('¿Eliminar carta.pdf? El bot dejará de enviarlo.');
    await waitFor(() => expect(screen.queryByText('carta.pdf', { selector: 'li p' })).toBeNull());
    expect(api.seen('DELETE', ONE).map((r) => r.path)).toEqual([`/api/chatbot-files/${carta.id}`]);

    api.on('DELETE', ONE, () => json(500, { error: 'boom' }));
    await user.click(within(itemOf('local.jpg')).getByRole('button', { name: 'Eliminar' }));
    expect(await toast('No se pudo eliminar el archivo de la base de datos.')).toBeTruthy();
    expect(screen.getByText('local.jpg', { selector: 'li p' })).toBeTruthy();

    confirm.mockReturnValue(false);
    const before = api.seen('DELETE', ONE).length;
    await user.click(within(itemOf('local.jpg')).getByRole('button', { name: 'Eliminar' }));
    expect(api.seen('DELETE', ONE)).toHaveLength(before);
  });

  it('refreshes when another tab changes the files (live event), and stops listening when closed', async () => {
    const { view } = await renderManager();
    await screen.findByText('Todavía no hay archivos.');
    const stream = '0b6f3c2e-5d1a-4c8e-9f7b-2a4d6e8f0a1c';
    await FakeEventSource.emit(`chatbotId=${BOT}`, 'ready', { stream });
    // StrictMode mounts twice: the first source, closed at once, asks the server to end it too.
    const before = api.seen('POST', CLOSE).length;
    const live = FakeEventSource.opened.at(-1)!;
    expect(live.url).toBe(`/api/chatbot-files/events?chatbotId=${BOT}`);

    files = [file('nuevo.jpg', 'image')];
    await FakeEventSource.emit(`chatbotId=${BOT}`, 'change', { op: 'insert', fileId: files[0]!.id });
    expect(await screen.findByText('nuevo.jpg', { selector: 'li p' })).toBeTruthy();

    // Issue 10: leaving asks the server to end the stream (closing it here would abort the request),
    // ignores what still arrives, and closes once the stream has ended.
    view.unmount();
    await waitFor(() =>
      expect(
        api
          .seen('POST', CLOSE)
          .slice(before)
          .map((r) => r.body),
      ).toEqual([{ stream }]),
    );
    expect(live.closed).toBe(false);
    const listed = api.seen('GET', LIST).length;
    await FakeEventSource.emit(`chatbotId=${BOT}`, 'change', { op: 'delete', fileId: files[0]!.id });
    expect(api.seen('GET', LIST)).toHaveLength(listed);
    await FakeEventSource.emit(`chatbotId=${BOT}`, 'error', {});
    expect(FakeEventSource.opened.every((s) => s.closed)).toBe(true);
  });
});

describe('FilesManager: client checks before uploading', () => {
  it('refuses a format that is not allowed', async () => {
    const { user } = await renderManager({ applyAccept: false });
    await user.upload(chooser(), pick('hoja.xlsx'));
    expect(await toast('El formato del archivo hoja.xlsx no está permitido.')).toBeTruthy();
    expect(FakeXhr.made).toHaveLength(0);
    expect(screen.queryByTestId('uploading')).toBeNull();
  });

  it('refuses a file over 10 MB, and takes one of exactly 10 MB', async () => {
    const { user } = await renderManager();
    await user.upload(chooser(), pick('grande.jpg', FILE_LIMITS.maxFileBytes + 1));
    expect(await toast('El archivo grande.jpg es demasiado grande. Máximo 10MB por archivo.')).toBeTruthy();
    expect(FakeXhr.made).toHaveLength(0);

    await user.upload(chooser(), pick('justo.jpg', FILE_LIMITS.maxFileBytes));
    await waitFor(() => expect(FakeXhr.made).toHaveLength(1));
    expect(FakeXhr.made[0]!.file.size).toBe(FILE_LIMITS.maxFileBytes);
  });

  it('refuses an eleventh file', async () => {
    files = Array.from({ length: FILE_LIMITS.maxFilesPerBot }, (_, i) =>
      file(`foto-${i + 1}.jpg`, 'image', { keyword: `foto${i + 1}` }),
    );
    const { user } = await renderManager();
    await screen.findByText('foto-10.jpg', { selector: 'li p' });
    await user.upload(chooser(), pick('otra.jpg'));
    expect(
      await toast('Solo puedes tener un máximo de 10 archivos. Elimina alguno para poder subir uno nuevo.'),
    ).toBeTruthy();
    expect(FakeXhr.made).toHaveLength(0);
  });

  it('takes one upload at a time', async () => {
    const { user } = await renderManager();
    await user.upload(chooser(), pick('primera.jpg'));
    await waitFor(() => expect(FakeXhr.made).toHaveLength(1));
    expect(addButton().disabled).toBe(true);

    await user.upload(chooser(), pick('segunda.jpg'));
    expect(await toast('Ya hay una subida en progreso')).toBeTruthy();
    expect(FakeXhr.made).toHaveLength(1);

    await acceptUpload(FakeXhr.made[0]!, { type: 'image' });
    await screen.findByRole('dialog', { name: 'Editar archivo: primera.jpg' });
    expect(addButton().disabled).toBe(false);
  });
});

describe('FilesManager: uploading', () => {
  it('shows a temporary "Subiendo…" entry that becomes the saved file, then opens its edit modal', async () => {
    const { user } = await renderManager();
    await screen.findByText('Todavía no hay archivos.');
    await user.upload(chooser(), pick('foto.jpg', 4096, 'image/jpeg'));

    const entry = await screen.findByTestId('uploading');
    expect(entry.textContent).toBe('foto.jpg · Subiendo…');
    expect(screen.queryByText('Todavía no hay archivos.')).toBeNull();
    const xhr = FakeXhr.made[0]!;
    expect(xhr.file.name).toBe('foto.jpg');
    expect(xhr.file.size).toBe(4096);

    await acceptUpload(xhr, { type: 'image' });
    const dialog = await screen.findByRole('dialog', { name: 'Editar archivo: foto.jpg' });
    expect(screen.queryByTestId('uploading')).toBeNull();
    expect(within(itemOf('foto.jpg')).getByText('Sin configurar')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Guardar' })).toHaveProperty('disabled', true);
  });

  it('tells the owner in the edit modal when the audio could not be converted and the original was kept', async () => {
    const { user } = await renderManager();
    await screen.findByText('Todavía no hay archivos.');
    await user.upload(chooser(), pick('saludo.wav', 4096, 'audio/wav'));
    await acceptUpload(FakeXhr.made[0]!, { type: 'audio', conversionFailed: true });
    const dialog = await screen.findByRole('dialog', { name: 'Editar archivo: saludo.wav' });
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'No pudimos convertir saludo.wav (audio a OGG, video a WebM). Se guardó el archivo original, que puede no reproducirse en todos los canales, por ejemplo en Telegram.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    // Editing the file later does not repeat it; a converted upload never shows it.
    await user.click(within(itemOf('saludo.wav')).getByRole('button', { name: /Editar/ }));
    expect(within(await screen.findByRole('dialog')).queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    await user.upload(chooser(), pick('tono.mp3', 4096, 'audio/mpeg'));
    await acceptUpload(FakeXhr.made[1]!, { name: 'tono.ogg', type: 'audio' });
    const converted = await screen.findByRole('dialog', { name: 'Editar archivo: tono.ogg' });
    expect(within(converted).queryByRole('alert')).toBeNull();
  });

  it.each([
    [
      '"foto.jpg no es un JPG válido" when the content is not what the extension says (415)',
      (xhr: FakeXhr) => xhr.respond(415, { error: FILE_MESSAGES.notValid('foto.jpg', 'jpg') }),
      'El archivo foto.jpg no es un JPG válido. Comprueba que no esté dañado o expórtalo de nuevo.',
    ],
    [
      "the server's message when it refuses the file for another reason",
      (xhr: FakeXhr) => xhr.respond(422, { error: FILE_MESSAGES.botFull }),
      'Has alcanzado el máximo de 100MB de archivos para este bot. Elimina alguno para poder subir uno nuevo.',
    ],
    [
      '"Error al subir el archivo" when the answer is not JSON (a proxy’s page)',
      (xhr: FakeXhr) => xhr.respond(502, '<html>Bad Gateway</html>'),
      'Error al subir el archivo',
    ],
    [
      '"Error al subir el archivo" when the connection drops',
      (xhr: FakeXhr) => xhr.failNetwork(),
      'Error al subir el archivo',
    ],
  ])('a failed upload removes the temporary entry and toasts %s', async (_case, fail, text) => {
    const { user } = await renderManager();
    await screen.findByText('Todavía no hay archivos.');
    await user.upload(chooser(), pick('foto.jpg'));
    expect(await screen.findByTestId('uploading')).toBeTruthy();

    await fail(FakeXhr.made[0]!);
    expect(await toast(text)).toBeTruthy();
    expect(screen.queryByTestId('uploading')).toBeNull();
    expect(screen.getByText('Todavía no hay archivos.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(addButton().disabled).toBe(false);
  });

  it('a video shows "Subiendo Video" with a progress bar through 10, 30, 60, 90 and 100 % ("Completado")', async () => {
    const { user } = await renderManager();
    await screen.findByText('Todavía no hay archivos.');
    await user.upload(chooser(), pick('paseo.mp4', 8192, 'video/mp4'));

    const dialog = await screen.findByRole('dialog', { name: 'Subiendo Video' });
    const bar = within(dialog).getByRole('progressbar', { name: 'Subiendo Video' });
    const percent = () => bar.getAttribute('aria-valuenow');
    expect([bar.getAttribute('aria-valuemin'), bar.getAttribute('aria-valuemax')]).toEqual(['0', '100']);
    expect(percent()).toBe('10');
    expect(within(dialog).getByTestId('video-progress').textContent).toBe('10%');

    const xhr = FakeXhr.made[0]!;
    xhr.startSending();
    expect(percent()).toBe('30');
    xhr.finishSending();
    expect(percent()).toBe('60');
    expect(within(dialog).getByTestId('video-progress').textContent).toBe('60%');

    // The server answered; the list is still reloading.
    let release!: () => void;
    listGate = new Promise((resolve) => {
      release = resolve;
    });
    await acceptUpload(xhr, { name: 'paseo.webm', type: 'video' });
    expect(percent()).toBe('90');

    await act(async () => release());
    await waitFor(() => expect(percent()).toBe('100'));
    expect(within(dialog).getByTestId('video-progress').textContent).toBe('Completado');
    const completedAt = Date.now();

    // It closes 1.5 s later, and the edit modal of the stored file opens.
    await screen.findByRole('dialog', { name: 'Editar archivo: paseo.webm' });
    expect(Date.now() - completedAt).toBeGreaterThanOrEqual(1300);
    expect(screen.queryByRole('dialog', { name: 'Subiendo Video' })).toBeNull();
  });

  it('a failed video upload closes the "Subiendo Video" dialog', async () => {
    const { user } = await renderManager();
    await user.upload(chooser(), pick('paseo.mov'));
    await screen.findByRole('dialog', { name: 'Subiendo Video' });
    await FakeXhr.made[0]!.respond(413, {
      error: 'El archivo paseo.mov es demasiado grande. Máximo 10MB por archivo.',
    });
    expect(await toast('El archivo paseo.mov es demasiado grande. Máximo 10MB por archivo.')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Subiendo Video' })).toBeNull();
  });
});

describe('FilesManager: the edit modal', () => {
  async function openEditor(fields: Partial<FileRecord> = {}) {
    files = [file('carta.pdf', 'pdf', { keyword: 'carta', context: 'La carta de la casa.', ...fields })];
    const { user } = await renderManager();
    await screen.findByText('carta.pdf', { selector: 'li p' });
    await user.click(within(itemOf('carta.pdf')).getByRole('button', { name: 'Editar' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar archivo: carta.pdf' });
    return {
      user,
      dialog,
      keyword: within(dialog).getByRole('textbox', { name: /^Palabra clave/ }) as HTMLInputElement,
      context: within(dialog).getByRole('textbox', { name: /^Descripción/ }) as HTMLTextAreaElement,
      save: within(dialog).getByRole('button', { name: 'Guardar' }) as HTMLButtonElement,
    };
  }

  it('disables "Guardar" while the keyword or the description is empty ("Campo requerido")', async () => {
    const { user, dialog, keyword, context, save } = await openEditor();
    expect(keyword.value).toBe('carta');
    expect(context.value).toBe('La carta de la casa.');
    expect(save.disabled).toBe(false);
    expect(within(dialog).queryByText('Campo requerido')).toBeNull();

    await user.clear(keyword);
    expect(save.disabled).toBe(true);
    expect(within(dialog).getAllByText('Campo requerido')).toHaveLength(1);
    await user.type(keyword, ',,');
    expect(save.disabled).toBe(true);
    await user.clear(keyword);
    await user.type(keyword, 'menu');
    expect(save.disabled).toBe(false);

    await user.clear(context);
    expect(save.disabled).toBe(true);
    expect(within(dialog).getAllByText('Campo requerido')).toHaveLength(1);
    await user.type(context, '   ');
    expect(save.disabled).toBe(true);
    await user.type(context, 'Platos');
    expect(save.disabled).toBe(false);
  });

  it('strips quotes, splits words into keywords (never glued), sends the change and shows it', async () => {
    const { user, dialog, keyword, context, save } = await openEditor();
    await user.clear(keyword);
    await user.type(keyword, '"menú del día", «carta», \'vinos\'');
    // Issue 10: "menú del día" is three keywords, not "menúdeldía".
    expect(keyword.value).toBe('menú,del,día,carta,vinos');
    const preview = () => within(within(dialog).getByTestId('keyword-preview'));
    expect(preview().getByText('Se guardarán:')).toBeTruthy();
    await user.clear(keyword);
    await user.type(keyword, 'Taza grande');
    expect(keyword.value).toBe('Taza,grande');
    expect(preview().getByText('taza')).toBeTruthy();
    expect(preview().getByText('grande')).toBeTruthy();
    expect(preview().queryByText('tazagrande')).toBeNull();
    fireEvent.change(keyword, { target: { value: ' “tapas”,  raciones ' } });
    expect(keyword.value).toBe('tapas,raciones,');
    await user.clear(context);
    await user.type(context, 'Tapas y raciones del día.');

    await user.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.seen('PATCH', ONE).map((r) => [r.path, r.body])).toEqual([
      [
        `/api/chatbot-files/${files[0]!.id}`,
        { keyword: 'tapas,raciones', context: 'Tapas y raciones del día.' },
      ],
    ]);
    expect(await within(itemOf('carta.pdf')).findByText('tapas,raciones')).toBeTruthy();
    expect(within(itemOf('carta.pdf')).getByText('Tapas y raciones del día.')).toBeTruthy();
  });

  it('keeps the modal open and toasts when the server refuses the change; "Cancelar" closes it', async () => {
    api.on('PATCH', ONE, () => json(400, { error: 'Campo requerido' }));
    const { user, save } = await openEditor();
    await user.click(save);
    expect(await toast('No se pudo actualizar la palabra clave del archivo.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Editar archivo: carta.pdf' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(itemOf('carta.pdf')).getByText('carta')).toBeTruthy();
  });

  it('closes on Escape without saving (issue 10)', async () => {
    const { user, keyword } = await openEditor();
    await user.type(keyword, ' nuevo');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.seen('PATCH', ONE)).toHaveLength(0);
    expect(within(itemOf('carta.pdf')).getByText('carta')).toBeTruthy();
  });
});
