/**
 * The owner screens' persistent navigation (issue 29 "Finding your way"): a sidebar from 900 px up,
 * a bottom bar on a phone. Six places: Inicio (/main), Tu bot (/configure), Canales (/charla-web,
 * the web channel; Telegram and WhatsApp also live in the status strip and on /configure), Conversaciones
 * (/usuarios-conversaciones), Reservas (/configure#reservas, the bookings controls) and Cuenta (/gestion).
 * The current place carries `aria-current="page"`; every item is a link (keyboard: Tab and Enter).
 * The phone's bar shows short labels; the frame keeps room for it (`--nav-bottom`, styles.css).
 */
import { useLocation, useNavigate } from '@tanstack/react-router';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { enabled, type Feature } from '../lib/features.ts';

/** An item: its key under `nav.` (and `nav.short.`), where it goes, its icon (a 24×24 path). */
interface NavItem {
  key: 'home' | 'bot' | 'channels' | 'conversations' | 'reservations' | 'account';
  to: '/main' | '/configure' | '/charla-web' | '/usuarios-conversaciones' | '/gestion';
  hash?: string;
  feature?: Feature;
  icon: string;
}

/** The six places, in the order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { key: 'home', to: '/main', icon: 'M3 11l9-7 9 7v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1v-9Z' },
  {
    key: 'bot',
    to: '/configure',
    icon: 'M12 3v3M7 8h10a3 3 0 0 1 3 3v5a3 3 0 0 1-3 3H7a3 3 0 0 1-3-3v-5a3 3 0 0 1 3-3Zm2 5h.01M15 13h.01',
  },
  {
    key: 'channels',
    to: '/charla-web',
    icon: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm-9 9h18M12 3c2.5 2.5 3.5 5.5 3.5 9S14.5 18.5 12 21c-2.5-2.5-3.5-5.5-3.5-9S9.5 5.5 12 3Z',
  },
  {
    key: 'conversations',
    to: '/usuarios-conversaciones',
    feature: 'followers',
    icon: 'M4 5h16v10H9l-5 4V5Z',
  },
  {
    key: 'reservations',
    to: '/configure',
    hash: 'reservas',
    feature: 'reservations',
    icon: 'M4 6h16v14H4V6Zm0 4h16M8 3v5M16 3v5',
  },
  {
    key: 'account',
    to: '/gestion',
    icon: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-8 9a8 8 0 0 1 16 0',
  },
];

/** The item the address is at: the path, and on /configure the `#reservas` hash. */
export function currentItem(pathname: string, hash: string): NavItem['key'] | null {
  const path = pathname.replace(/\/$/, '') || '/';
  if (path === '/configure') return hash === 'reservas' ? 'reservations' : 'bot';
  return NAV_ITEMS.find((item) => item.to === path && !item.hash)?.key ?? null;
}

export function AppNav() {
  const { t } = useTranslation();
  const { pathname, hash } = useLocation();
  const current = currentItem(pathname, hash);
  const navigate = useNavigate();
  /**
   * A plain click goes through the router (no reload); modified clicks open a tab as links do.
   * The router's own link marks its target active by its rules; here exactly one item is current.
   */
  function follow(e: MouseEvent<HTMLAnchorElement>, item: NavItem) {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void navigate({ to: item.to, ...(item.hash ? { hash: item.hash } : {}) });
  }
  return (
    <nav
      aria-label={t('nav.label')}
      data-testid="app-nav"
      className="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur min-[900px]:static min-[900px]:w-56 min-[900px]:shrink-0 min-[900px]:border-t-0 min-[900px]:border-r min-[900px]:bg-white min-[900px]:p-3 min-[900px]:backdrop-blur-none"
    >
      <ul className="grid h-[var(--nav-bottom)] grid-cols-6 min-[900px]:sticky min-[900px]:top-3 min-[900px]:h-auto min-[900px]:grid-cols-1 min-[900px]:gap-1">
        {NAV_ITEMS.filter((item) => !item.feature || enabled(item.feature)).map((item) => {
          const here = current === item.key;
          return (
            <li key={item.key} className="min-w-0">
              <a
                href={item.hash ? `${item.to}#${item.hash}` : item.to}
                onClick={(e) => follow(e, item)}
                aria-current={here ? 'page' : undefined}
                data-testid={`nav-${item.key}`}
                className={`flex h-full flex-col items-center justify-center gap-0.5 px-0.5 text-[11px] leading-tight font-semibold min-[900px]:flex-row min-[900px]:justify-start min-[900px]:gap-3 min-[900px]:rounded-lg min-[900px]:px-3 min-[900px]:py-2.5 min-[900px]:text-sm ${
                  here
                    ? 'text-brand-800 min-[900px]:bg-brand-50'
                    : 'text-slate-600 hover:text-slate-900 min-[900px]:hover:bg-slate-50'
                }`}
              >
                <svg
                  aria-hidden="true"
                  viewBox="0 0 24 24"
                  className={`h-6 w-6 shrink-0 fill-none min-[900px]:h-5 min-[900px]:w-5 ${here ? 'stroke-brand-700' : 'stroke-slate-500'}`}
                  strokeWidth="1.8"
                  strokeLinejoin="round"
                  strokeLinecap="round"
                >
                  <path d={item.icon} />
                </svg>
                <span className="max-w-full truncate min-[900px]:hidden">{t(`nav.short.${item.key}`)}</span>
                <span className="hidden min-[900px]:inline">{t(`nav.${item.key}`)}</span>
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
