/**
 * The input row of the dashboard's chats (the test chat, the web try-out chat): a textarea where
 * Enter sends and Shift+Enter adds a line (spec 000 §2, 001 §2), and the send button, disabled while
 * a reply is pending or the text is blank (spec 000 §5). The textarea takes at most the server's
 * MAX_MESSAGE_CHARS (engine/limits.ts; a pasted text is cut there by the browser), with a counter
 * ({@link MessageCounter}) from 80 % of it on (issue 10: a longer message failed, then every turn
 * after it).
 */
import type { TFunction } from 'i18next';
import { type FormEvent, type KeyboardEvent, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_MESSAGE_CHARS } from '../../../engine/limits.ts';

export { MAX_MESSAGE_CHARS };

/** Whether {@link MessageCounter} shows for a text of `length` characters: from 80 % of the limit on. */
export const counterShown = (length: number) => length >= MAX_MESSAGE_CHARS * 0.8;

/** A form's submit handler that stays on the page and runs `send` (its promise is not awaited). */
export function submitSends(send: () => Promise<unknown>) {
  return (e: FormEvent) => {
    e.preventDefault();
    void send();
  };
}

/** Enter sends, Shift+Enter adds a line; a composition in progress (IME) is left alone. */
export function enterSends(send: () => void) {
  return (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };
}

/**
 * "7990/8000 caracteres" under a composer once its text reaches 80 % of MAX_MESSAGE_CHARS (nothing
 * before), red at the limit with a status that says extra text is not added. `id` is the one the
 * textarea's aria-describedby names; `t` gives the texts (the IALanding passes its bot language's).
 */
export function MessageCounter({ id, length, t }: { id: string; length: number; t: TFunction }) {
  if (!counterShown(length)) return null;
  const full = length >= MAX_MESSAGE_CHARS;
  return (
    <p
      id={id}
      data-testid="message-counter"
      className={`mt-1 text-right text-xs ${full ? 'font-semibold text-red-700' : 'text-slate-600'}`}
    >
      {t('chat.counter', { count: length, max: MAX_MESSAGE_CHARS })}
      {full ? (
        <span role="status" className="block">
          {t('chat.limitReached')}
        </span>
      ) : null}
    </p>
  );
}

export function ChatComposer({
  value,
  onChange,
  onSend,
  pending,
  extra,
}: {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  /** A reply is on its way: input and button are disabled. */
  pending: boolean;
  /** More controls before the send button (the test chat's microphone). */
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const counterId = useId();
  return (
    <div className="border-t border-slate-200 p-2">
      <div className="flex items-end gap-2">
        <textarea
          aria-label={t('chat.placeholder')}
          aria-describedby={counterShown(value.length) ? counterId : undefined}
          placeholder={t('chat.placeholder')}
          rows={1}
          maxLength={MAX_MESSAGE_CHARS}
          value={value}
          disabled={pending}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={enterSends(onSend)}
          className="max-h-24 min-h-10 flex-1 resize-none rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-600 focus:outline-none disabled:bg-slate-100"
        />
        {extra}
        <button
          type="button"
          onClick={onSend}
          disabled={pending || !value.trim()}
          className="rounded-lg bg-brand-700 px-3 py-2 text-sm font-semibold text-white disabled:bg-slate-300"
        >
          {t('chat.send')}
        </button>
      </div>
      <MessageCounter id={counterId} length={value.length} t={t} />
    </div>
  );
}
