/**
 * `/facebots` (and `/en/facebots`, …), the public directory of active bots (spec 001 §2 Public
 * directory, §4 Like, §8 Directory; issue 16 §4), rendered on the server so a search engine and a
 * phone get every card as HTML, with no framework to boot:
 * - the sorts (populares, recientes, antiguos, relevantes) are links (`?sort=`), the category filter
 *   a GET form (sent on change by the site script, or with its button), further pages a link;
 * - each card: the business name (its page), @username, description, category, responses and likes
 *   in compact numbers, like (the site script: once per browser, the count moves at once), share
 *   (Web Share API, else the address is copied), open in Telegram and the IALanding;
 * - "No hay bots activos en este momento." and "No se pudieron cargar los bots activos.".
 */
import { CATEGORIES } from '../../../engine/schemas.ts';
import { SORTS, type Sort } from '../../facebots/api.ts';
import { categoryLabel, directoryTexts, responsesText } from '../content/directory.ts';
import { botSlug, localePath } from '../content/index.ts';
import { compact, LikeButton, type ListedBot } from './BotPage.tsx';
import { AssistantButton, Layout, type PageContext } from './Layout.tsx';

/** What the page shows: a page of bots in an order and category, or the failure. */
export interface DirectoryView {
  sort: Sort;
  category: string | undefined;
  page: number;
  bots: ListedBot[] | null;
  more: boolean;
}

/** The directory's address with a query. */
export function directoryHref(
  ctx: PageContext,
  q: { sort: Sort; category?: string | undefined; page?: number },
): string {
  const params = new URLSearchParams();
  if (q.sort !== 'populares') params.set('sort', q.sort);
  if (q.category) params.set('category', q.category);
  if (q.page && q.page > 1) params.set('page', String(q.page));
  const query = params.toString();
  return `${localePath(ctx.lang, 'facebots')}${query ? `?${query}` : ''}`;
}

/** The directory page. */
export function Directory({ ctx, view }: { ctx: PageContext; view: DirectoryView }) {
  const t = directoryTexts(ctx.lang);
  return (
    <Layout ctx={ctx}>
      <div className="section wrap directory-page">
        <div className="directory-head">
          <div>
            <h1>{t.title}</h1>
            <p className="lead">{t.subtitle}</p>
          </div>
          <a className="btn" href="/register">
            {t.create}
          </a>
        </div>
        <div className="directory-tools">
          <nav aria-label={t.sortBy} className="sorts">
            {SORTS.map((s) => (
              <a
                key={s}
                href={directoryHref(ctx, { sort: s, category: view.category })}
                aria-current={s === view.sort ? 'page' : undefined}
              >
                {t.sorts[s]}
              </a>
            ))}
          </nav>
          <form method="get" action={localePath(ctx.lang, 'facebots')} className="category-form">
            {view.sort !== 'populares' ? <input type="hidden" name="sort" value={view.sort} /> : null}
            <label>
              <span>{t.category}</span>
              <select name="category" defaultValue={view.category ?? ''} data-autosubmit="">
                <option value="">{t.allCategories}</option>
                {CATEGORIES.map((c) => (
                  <option key={c} value={c}>
                    {categoryLabel(ctx.lang, c)}
                  </option>
                ))}
              </select>
            </label>
            <noscript>
              <button type="submit" className="btn btn-small btn-ghost">
                {t.category}
              </button>
            </noscript>
          </form>
        </div>
        {view.bots === null ? (
          <p role="alert" className="notice error">
            {t.failed}
          </p>
        ) : view.bots.length === 0 ? (
          <p className="notice">{t.empty}</p>
        ) : (
          <ul className="cards">
            {view.bots.map((b) => (
              <li key={b.id}>
                <article className="card bot-card">
                  <h2>
                    <a href={localePath(ctx.lang, `facebots/${botSlug(b.name)}`)}>{b.name}</a>
                  </h2>
                  {b.username ? <p className="muted">@{b.username}</p> : null}
                  <p className="clamp">{b.description}</p>
                  {b.category ? <p className="muted">{categoryLabel(ctx.lang, b.category)}</p> : null}
                  <p className="counts">
                    <span>💬 {responsesText(ctx.lang, b.responses, compact(ctx.lang, b.responses))}</span>
                    <span>
                      ❤️ <span data-like-count={b.id}>{compact(ctx.lang, b.likes)}</span>
                    </span>
                  </p>
                  <div className="actions">
                    <LikeButton id={b.id} likes={b.likes} like={t.like} liked={t.liked} small />
                    <button
                      type="button"
                      className="btn btn-small btn-ghost"
                      data-share={b.name}
                      data-url={localePath(ctx.lang, `facebots/${botSlug(b.name)}`)}
                      data-copied={t.copied}
                    >
                      {t.share}
                    </button>
                    {b.username ? (
                      <a className="btn btn-small" href={`https://t.me/${b.username}`} rel="noopener">
                        {t.openTelegram}
                      </a>
                    ) : null}
                    {b.ialandingSlug ? (
                      <a className="btn btn-small" href={`/ialanding/${b.ialandingSlug}`}>
                        {t.landing}
                      </a>
                    ) : null}
                  </div>
                </article>
              </li>
            ))}
          </ul>
        )}
        <p role="status" className="muted center" data-share-status="" />
        {view.more ? (
          <p className="center">
            <a
              className="btn btn-ghost"
              rel="next"
              href={directoryHref(ctx, { sort: view.sort, category: view.category, page: view.page + 1 })}
            >
              {t.more}
            </a>
          </p>
        ) : null}
      </div>
      <AssistantButton ctx={ctx} />
    </Layout>
  );
}
