/**
 * The canned sentences that go with a file the bot sends (spec 000 §9; image, pdf, audio, video,
 * default, and `document` for .txt/.md/.docx, issue 30 §1), in each bot language; Spanish is the
 * source. One is chosen per turn, the same for a retried turn.
 */
import type { FileType, LangCode } from '../schemas.ts';

/** Canned sentences sent with a file, per type; one is chosen per turn (spec 000 §9). */
export const FILE_SENTENCES: Record<LangCode, Record<FileType | 'default', readonly string[]>> = {
  es: {
    image: ['¡Aquí tienes la imagen! 📸', 'Te envío la imagen que buscabas. 🖼️', 'Mira esta imagen. 👀'],
    pdf: [
      'Aquí tienes el documento PDF. 📄',
      'Te envío el PDF con toda la información. 📑',
      'Te dejo el PDF por aquí. 📄',
    ],
    audio: ['Escucha este audio. 🎧', 'Te envío un audio. 🔊', 'Aquí tienes el audio. 🎙️'],
    video: ['Mira este vídeo. 🎬', 'Te envío el vídeo. 📹', 'Aquí tienes el vídeo. 🎥'],
    document: ['Aquí tienes el documento. 📄', 'Te envío el documento con la información. 📑'],
    default: ['Aquí tienes el archivo. 📎', 'Te envío el archivo que pediste. 📎'],
  },
  en: {
    image: [
      'Here is the picture! 📸',
      'Sending you the image you were looking for. 🖼️',
      'Take a look at this image. 👀',
    ],
    pdf: ['Here is the PDF document. 📄', 'Sending you the PDF with all the details. 📑'],
    audio: ['Listen to this audio. 🎧', 'Here is the audio. 🔊'],
    video: ['Watch this video. 🎬', 'Here is the video. 🎥'],
    document: ['Here is the document. 📄', 'Sending you the document with the details. 📑'],
    default: ['Here is the file. 📎', 'Sending you the file you asked for. 📎'],
  },
  fr: {
    image: ['Voici l’image ! 📸', 'Je vous envoie l’image. 🖼️'],
    pdf: ['Voici le document PDF. 📄', 'Je vous envoie le PDF avec tous les détails. 📑'],
    audio: ['Écoutez cet audio. 🎧', 'Voici l’audio. 🔊'],
    video: ['Regardez cette vidéo. 🎬', 'Voici la vidéo. 🎥'],
    document: ['Voici le document. 📄', 'Je vous envoie le document avec les détails. 📑'],
    default: ['Voici le fichier. 📎'],
  },
  de: {
    image: ['Hier ist das Bild! 📸', 'Ich schicke dir das Bild. 🖼️'],
    pdf: ['Hier ist das PDF-Dokument. 📄', 'Ich schicke dir das PDF mit allen Details. 📑'],
    audio: ['Hör dir diese Audiodatei an. 🎧', 'Hier ist die Audiodatei. 🔊'],
    video: ['Schau dir dieses Video an. 🎬', 'Hier ist das Video. 🎥'],
    document: ['Hier ist das Dokument. 📄', 'Ich schicke dir das Dokument mit den Details. 📑'],
    default: ['Hier ist die Datei. 📎'],
  },
  it: {
    image: ['Ecco l’immagine! 📸', 'Ti invio l’immagine. 🖼️'],
    pdf: ['Ecco il documento PDF. 📄', 'Ti invio il PDF con tutti i dettagli. 📑'],
    audio: ['Ascolta questo audio. 🎧', 'Ecco l’audio. 🔊'],
    video: ['Guarda questo video. 🎬', 'Ecco il video. 🎥'],
    document: ['Ecco il documento. 📄', 'Ti invio il documento con i dettagli. 📑'],
    default: ['Ecco il file. 📎'],
  },
  ru: {
    image: ['Вот изображение! 📸', 'Отправляю вам картинку. 🖼️'],
    pdf: ['Вот PDF-документ. 📄', 'Отправляю PDF со всеми подробностями. 📑'],
    audio: ['Послушайте это аудио. 🎧', 'Вот аудио. 🔊'],
    video: ['Посмотрите это видео. 🎬', 'Вот видео. 🎥'],
    document: ['Вот документ. 📄', 'Отправляю документ с подробностями. 📑'],
    default: ['Вот файл. 📎'],
  },
  hi: {
    image: ['यह रही तस्वीर! 📸', 'मैं आपको तस्वीर भेज रहा हूँ। 🖼️'],
    pdf: ['यह रहा PDF दस्तावेज़। 📄', 'मैं आपको पूरी जानकारी वाला PDF भेज रहा हूँ। 📑'],
    audio: ['यह ऑडियो सुनिए। 🎧', 'यह रहा ऑडियो। 🔊'],
    video: ['यह वीडियो देखिए। 🎬', 'यह रहा वीडियो। 🎥'],
    document: ['यह रहा दस्तावेज़। 📄', 'मैं आपको जानकारी वाला दस्तावेज़ भेज रहा हूँ। 📑'],
    default: ['यह रही फ़ाइल। 📎'],
  },
};

/** A small stable hash (FNV-1a), so a retried turn picks the same canned sentence. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** One canned sentence for a file of `type`, chosen by `seed` (the turn's message id). */
export function fileSentence(lang: LangCode, type: FileType, seed: string): string {
  const options = FILE_SENTENCES[lang][type] ?? FILE_SENTENCES[lang].default;
  return options[hash(seed) % options.length]!;
}
