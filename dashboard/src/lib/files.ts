/**
 * The attached files on the client (spec 000 §4, §5, §9): the record the API returns, the keyword
 * rule, the video upload's progress steps and the upload request that reports them.
 */

import { queryOptions } from '@tanstack/react-query';

/** A file as `GET /api/chatbot-files` returns it. */
export interface BotFile {
  id: string;
  /** The bot it belongs to. */
  chatbot_id: string;
  file_name: string;
  file_type: 'image' | 'pdf' | 'audio' | 'video' | 'document';
  keyword: string;
  context: string;
  publicUrl: string;
}

/**
 * What `POST /api/chatbot-files` answers: the stored file and `conversionFailed` (audio or video
 * that ffmpeg could not convert, stored as uploaded), or `error`.
 */
export type UploadAnswer = Partial<BotFile> & { conversionFailed?: boolean; error?: string };

/** Spec 000 §9: toasts in the configuration screens close after 2 s. */
export const CONFIG_TOAST_MS = 2000;

/**
 * The keyword rule is the server's (engine/matching): as typed, quotes go and spaces separate
 * keywords like commas ("taza grande" → "taza,grande"); the stored list is `splitKeywords`'s.
 */
export { keywordInput, splitKeywords } from '../../../engine/matching/index.ts';

/** Spec 000 §4, §9: the video upload's progress steps, in percent; 100 shows "completed". */
export const VIDEO_STEPS = [10, 30, 60, 90] as const;
/** Spec 000 §4: the video modal closes 1.5 s after reaching 100 %. */
export const VIDEO_MODAL_CLOSE_MS = 1500;
/** Extensions uploaded as video (they get the progress modal). */
export const VIDEO_EXTENSIONS = new Set(['mp4', 'mov', 'm4v', 'webm']);

/**
 * POSTs a multipart form and reports its stages, which the video modal maps onto spec 000's steps:
 * 0 = validated and started, 1 = the body is being sent, 2 = the body is sent and the server is
 * converting (ffmpeg) and storing, 3 = the server answered. Uses XMLHttpRequest because fetch
 * cannot report upload progress. Resolves with the HTTP status and the parsed JSON body (an empty
 * object when the body is not JSON); rejects only on a network failure.
 */
export function postWithProgress(
  url: string,
  form: FormData,
  onStage: (stage: 0 | 1 | 2 | 3) => void,
): Promise<{ status: number; body: UploadAnswer }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.upload.onloadstart = () => onStage(1);
    xhr.upload.onload = () => onStage(2);
    xhr.onload = () => {
      onStage(3);
      let body: UploadAnswer = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // not JSON (a proxy's error page): the caller shows the generic upload error
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error(''));
    onStage(0);
    xhr.send(form);
  });
}

/** The TanStack Query key of a bot's file list. */
export const filesKey = (chatbotId: string) => ['files', chatbotId] as const;

/** A bot's files (`GET /api/chatbot-files`), newest first; shares its cache with the files manager. */
export const filesQuery = (chatbotId: string) =>
  queryOptions({
    queryKey: filesKey(chatbotId),
    queryFn: async (): Promise<BotFile[]> => {
      const res = await fetch(`/api/chatbot-files?chatbotId=${encodeURIComponent(chatbotId)}`);
      if (!res.ok) throw new Error(`GET /api/chatbot-files ${res.status}`);
      return (await res.json()) as BotFile[];
    },
  });
