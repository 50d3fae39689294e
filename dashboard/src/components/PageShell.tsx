/** The frame of the signed-in screens: the app header, the page's main column, its title row. */
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { AppHeader } from './AppHeader.tsx';

/**
 * A signed-in screen: `className` on the page (its bottom room for floating buttons), `main` on its
 * main column, `after` below the column (floating buttons and panels).
 */
export function PageShell({
  className,
  main,
  children,
  after,
}: {
  className: string;
  main: string;
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <div className={className}>
      <AppHeader />
      <main className={main}>{children}</main>
      {after}
    </div>
  );
}

/** The title row of a management screen: title and subtitle, and the "back" link to /main. */
export function PageTitle({ title, subtitle, back }: { title: string; subtitle: string; back: string }) {
  return (
    <div className="flex flex-col-reverse gap-3 min-[700px]:flex-row min-[700px]:items-start min-[700px]:justify-between">
      <div>
        <h1 className="text-2xl font-bold tracking-tight min-[700px]:text-3xl">{title}</h1>
        <p className="mt-1 text-slate-600">{subtitle}</p>
      </div>
      <Link
        to="/main"
        className="inline-flex w-fit shrink-0 items-center gap-1 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-50"
      >
        <span aria-hidden="true">←</span> {back}
      </Link>
    </div>
  );
}

/**
 * A part of a screen that needs the owner's bot: `children` with its id once it is loaded, the
 * note `none` (e.g. "save the bot first") when the owner has none, nothing while loading.
 */
export function ForBot({
  bot,
  none,
  children,
}: {
  bot: { data?: { id: string } | null; isSuccess: boolean };
  none: string;
  children: (chatbotId: string) => ReactNode;
}) {
  if (bot.data) return children(bot.data.id);
  if (!bot.isSuccess) return null;
  return (
    <p className="rounded-2xl border border-dashed border-slate-300 p-5 text-sm text-slate-600">{none}</p>
  );
}

/**
 * The public directory (spec 000 §2: "an external public-directory page in a 1200 by 800 popup");
 * in Charla that directory is the public `/facebots` page (spec 001).
 */
const DIRECTORY_URL = '/facebots';
/** Spec 000 §2: the directory popup's size, in CSS pixels. */
const POPUP_FEATURES = 'popup,width=1200,height=800';

/** A link that opens the public directory in its 1200 × 800 popup (a tab when popups are blocked). */
export function DirectoryLink({ className, children }: { className: string; children: ReactNode }) {
  return (
    <a
      href={DIRECTORY_URL}
      target="facebots"
      rel="noopener"
      onClick={(e) => {
        // A real popup when the browser allows it; the link opens a tab when it does not.
        if (window.open(DIRECTORY_URL, 'facebots', POPUP_FEATURES)) e.preventDefault();
      }}
      className={className}
    >
      {children}
    </a>
  );
}
