/**
 * The broadcast confirmation (BroadcastConfirm.tsx) as a promise, for screens that send a broadcast
 * from a handler (the voice recorder's "send to all", issue 27 §5): it opens the dialog in its own
 * root on `document.body`, reads the audience per channel from the server, and resolves true when
 * the owner confirms, false on Cancel or Escape.
 */
import { createRoot } from 'react-dom/client';
import { type AudienceAnswer, audienceQuery } from '../lib/broadcasts.ts';
import { BroadcastConfirm } from './BroadcastConfirm.tsx';

/** Asks the owner to confirm sending `what` to a bot's followers; resolves with their answer. */
export function confirmBroadcast(chatbotId: string, what: string): Promise<boolean> {
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  return new Promise((resolve) => {
    let open = true;
    const close = (ok: boolean) => {
      if (!open) return;
      open = false;
      root.unmount();
      host.remove();
      resolve(ok);
    };
    const show = (audience: AudienceAnswer | null | undefined) => {
      if (!open) return;
      root.render(
        <BroadcastConfirm
          what={what}
          audience={audience}
          onConfirm={() => close(true)}
          onCancel={() => close(false)}
        />,
      );
    };
    show(undefined);
    const query = audienceQuery(chatbotId);
    (query.queryFn as () => Promise<AudienceAnswer>)().then(show, () => show(null));
  });
}
