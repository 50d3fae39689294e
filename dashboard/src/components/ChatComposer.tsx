/**
 * The input row of the dashboard's chats (the test chat, the web try-out chat): a textarea where
 * Enter sends and Shift+Enter adds a line (spec 000 §2, 001 §2), and the send button, disabled while
 * a reply is pending or the text is blank (spec 000 §5).
 */
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** Enter sends, Shift+Enter adds a line; a composition in progress (IME) is left alone. */
export function enterSends(send: () => void) {
  return (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };
}

export function ChatComposer({
  value,
  onChange,
  onSend,
  pending,
}: {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  /** A reply is on its way: input and button are disabled. */
  pending: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex items-end gap-2 border-t border-slate-200 p-2">
      <textarea
        aria-label={t('chat.placeholder')}
        placeholder={t('chat.placeholder')}
        rows={1}
        value={value}
        disabled={pending}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={enterSends(onSend)}
        className="max-h-24 min-h-10 flex-1 resize-none rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-600 focus:outline-none disabled:bg-slate-100"
      />
      <button
        type="button"
        onClick={onSend}
        disabled={pending || !value.trim()}
        className="rounded-lg bg-brand-700 px-3 py-2 text-sm font-semibold text-white disabled:bg-slate-300"
      >
        {t('chat.send')}
      </button>
    </div>
  );
}
