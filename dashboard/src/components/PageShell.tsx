/** The frame of the signed-in screens: the app header, the navigation, the page's main column, its title row. */
import type { ReactNode } from 'react';
import { AppHeader } from './AppHeader.tsx';
import { AppNav } from './AppNav.tsx';

/**
 * A signed-in screen: `className` on the page (its bottom room for floating buttons), `main` on its
 * main column, `after` below the column (floating buttons and panels). The navigation (issue 29) is
 * a sidebar from 900 px up and a bottom bar below: the column keeps `--nav-bottom` of room under it
 * (styles.css `.owner-frame`), and floating buttons sit that much higher.
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
    <div className={`owner-frame ${className}`}>
      <AppHeader />
      <div className="pb-[var(--nav-bottom)] min-[900px]:flex min-[900px]:pb-0">
        <AppNav />
        <div className="min-w-0 flex-1">
          <main className={main}>{children}</main>
          {after}
        </div>
      </div>
    </div>
  );
}

/**
 * The title row of a management screen: title and subtitle. No "back" link (issue 29: the
 * navigation goes everywhere).
 */
export function PageTitle({ title, subtitle }: { title: string; subtitle: string }) {
  return (
    <div>
      <h1 className="text-2xl font-bold tracking-tight min-[700px]:text-3xl">{title}</h1>
      <p className="mt-1 text-slate-600">{subtitle}</p>
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
