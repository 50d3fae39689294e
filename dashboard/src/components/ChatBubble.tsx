/** Pieces shared by the dashboard's chats (test chat, web chat, conversations): bubble, players, close button. */
import type { ReactNode } from 'react';

/**
 * A bubble: aligned left for the bot, right for the visitor, red on an error, with its text first
 * and then `children` (files, voice, offers). `testId`: the outer row's `data-testid`, if any.
 */
export function ChatBubble({
  message,
  testId,
  children,
}: {
  message: { text: string; isBot: boolean; error?: boolean };
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <div className={`flex ${message.isBot ? 'justify-start' : 'justify-end'}`} data-testid={testId}>
      <div
        className={`max-w-[85%] min-w-0 space-y-2 rounded-2xl px-3 py-2 text-sm whitespace-pre-wrap wrap-anywhere ${
          message.error
            ? 'bg-red-50 text-red-800'
            : message.isBot
              ? 'bg-white text-slate-900 shadow-sm'
              : 'bg-brand-700 text-white'
        }`}
      >
        <p>{message.text}</p>
        {children}
      </div>
    </div>
  );
}

/**
 * A file's player in a chat: audio (loaded on play) or video (its first frame loaded), with the
 * browser's controls; `label`: its accessible name (the file's name), when the chat shows one.
 */
export function MediaPlayer({
  kind,
  src,
  label,
  className,
}: {
  kind: 'audio' | 'video';
  src: string;
  label?: string;
  className: string;
}) {
  return kind === 'audio' ? (
    // biome-ignore lint/a11y/useMediaCaption: uploaded audio files have no captions to offer
    <audio controls preload="none" src={src} aria-label={label} className={className} />
  ) : (
    // biome-ignore lint/a11y/useMediaCaption: uploaded video files have no captions to offer
    <video controls preload="metadata" src={src} aria-label={label} className={className} />
  );
}

/** The × that closes a chat window; `label`: its accessible name; `size`: its padding and text size. */
export function ChatClose({ label, onClose, size }: { label: string; onClose: () => void; size: string }) {
  return (
    <button
      type="button"
      aria-label={label}
      onClick={onClose}
      className={`rounded ${size} leading-none hover:bg-brand-800`}
    >
      ×
    </button>
  );
}
