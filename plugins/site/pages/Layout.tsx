/**
 * The frame of every public page (spec 001 §2 Marketing home page: sticky banner, header with
 * Precios, Facebots, the language selector and "Crear mi canal"; footer with Producto, Legal and
 * contact). Rendered to HTML on the server; the language links work without JavaScript and the
 * site script only keeps the query and hash when switching (spec 001 §4).
 */
import type { ReactNode } from 'react';
import { CONTENT, fill, localePath, SITE_LANGUAGES, type SiteLanguage } from '../content/index.ts';

/** What every page knows: its language, the path of the same page without the language, the figures. */
export interface PageContext {
  lang: SiteLanguage;
  /** The page without its language prefix: '' (home), 'legal/tos', 'facebots/x'. */
  page: string;
  /** Placeholder values (prices, trial days). */
  values: Record<string, string>;
  /** The operator's contact address, if set (CHARLA_OPERATOR_EMAIL). */
  contactEmail: string | undefined;
  /** Where this installation's source code is published (CHARLA_SOURCE_URL; AGPL-3.0 §13). */
  sourceUrl: string | undefined;
  /** True when this page has a version in each language (home, legal); else the selector links home. */
  translated: boolean;
}

/** The logo mark (the dashboard's). */
export function Logo() {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" width="32" height="32">
      <rect width="32" height="32" rx="8" fill="#0f766e" />
      <path d="M8 10h16v9H14l-5 4v-4H8z" fill="#fff" />
    </svg>
  );
}

/** Header, banner, main and footer around a page's content. */
export function Layout({ ctx, children }: { ctx: PageContext; children: ReactNode }) {
  const t = CONTENT[ctx.lang];
  const home = localePath(ctx.lang, '');
  return (
    <>
      <a className="skip" href="#main">
        {t.header.skip}
      </a>
      <p className="banner">{fill(t.banner, ctx.values)}</p>
      <div className="topbar">
        <header className="header wrap">
          <a className="brand" href={home}>
            <Logo />
            <span>Charla</span>
          </a>
          <nav className="nav" aria-label="Charla">
            <a href={`${home}#pricing`}>{t.header.pricing}</a>
            <a href="/facebots">{t.header.facebots}</a>
            <details className="lang">
              <summary aria-label={t.header.language}>
                <span aria-hidden="true">🌐</span> {ctx.lang.toUpperCase()}
              </summary>
              <ul>
                {SITE_LANGUAGES.map((l) => (
                  <li key={l}>
                    <a
                      href={localePath(l, ctx.translated ? ctx.page : '')}
                      hrefLang={l}
                      lang={l}
                      data-lang-switch={l}
                      aria-current={l === ctx.lang ? 'true' : undefined}
                    >
                      {CONTENT[l].name}
                    </a>
                  </li>
                ))}
              </ul>
            </details>
            <a className="btn btn-small" href="/login">
              {t.header.cta}
            </a>
          </nav>
        </header>
      </div>
      <main id="main">{children}</main>
      <Footer ctx={ctx} />
    </>
  );
}

function Footer({ ctx }: { ctx: PageContext }) {
  const t = CONTENT[ctx.lang];
  const home = localePath(ctx.lang, '');
  return (
    <footer className="footer">
      <div className="wrap footer-grid">
        <div>
          <a className="brand" href={home}>
            <Logo />
            <span>Charla</span>
          </a>
          <p>{t.footer.tagline}</p>
        </div>
        <nav aria-label={t.footer.product}>
          <h2>{t.footer.product}</h2>
          <ul>
            <li>
              <a href={home}>{t.footer.links.home}</a>
            </li>
            <li>
              <a href="/facebots">{t.footer.links.directory}</a>
            </li>
            <li>
              <a href={`${home}#pricing`}>{t.footer.links.pricing}</a>
            </li>
            <li>
              <a href="/ialanding/ialanding-el-pato-pepe">{t.footer.links.demo}</a>
            </li>
            <li>
              <a href="/login">{t.footer.links.login}</a>
            </li>
          </ul>
        </nav>
        <nav aria-label={t.footer.legal}>
          <h2>{t.footer.legal}</h2>
          <ul>
            <li>
              <a href={localePath(ctx.lang, 'legal/tos')}>{t.footer.tos}</a>
            </li>
            <li>
              <a href={localePath(ctx.lang, 'legal/privacy')}>{t.footer.privacy}</a>
            </li>
            <li>
              <a href={localePath(ctx.lang, 'legal/security')}>{t.footer.security}</a>
            </li>
          </ul>
        </nav>
        {ctx.contactEmail || ctx.sourceUrl ? (
          <div>
            <h2>{t.footer.contact}</h2>
            {ctx.contactEmail ? (
              <p>
                {t.footer.contactText} <a href={`mailto:${ctx.contactEmail}`}>{ctx.contactEmail}</a>
              </p>
            ) : null}
            {ctx.sourceUrl ? (
              <p>
                <a href={ctx.sourceUrl}>{t.footer.links.source}</a>
              </p>
            ) : null}
          </div>
        ) : null}
      </div>
    </footer>
  );
}

/** The site assistant's closed state (spec 001 §2): the island takes over on the first click. */
export function AssistantButton({ ctx }: { ctx: PageContext }) {
  const t = CONTENT[ctx.lang].assistant;
  return (
    <div id="assistant" data-texts={JSON.stringify(t)} data-lang={ctx.lang}>
      <button type="button" className="assistant-fab" aria-label={t.open} data-assistant-open="">
        <svg aria-hidden="true" viewBox="0 0 24 24" width="26" height="26">
          <path d="M4 5h16v10H9l-5 4z" fill="#fff" />
        </svg>
      </button>
    </div>
  );
}
