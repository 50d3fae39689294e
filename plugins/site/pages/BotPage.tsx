/**
 * A bot's page in the directory, `/facebots/{name-lowercased-with-dashes}` (spec 001 §2; issue 16
 * §4 "a real page per bot"): name, @username, description, category, responses and likes in
 * compact numbers, like, share (Web Share API, else copy), open in Telegram and the IALanding.
 * The home page's sample cards have pages too, marked as examples, with a call to create one.
 */
import { CONTENT, type SampleBot } from '../content/index.ts';
import { AssistantButton, Layout, type PageContext } from './Layout.tsx';

/** A listed bot as its page shows it. */
export interface ListedBot {
  id: string;
  name: string;
  username: string | null;
  description: string;
  category: string | null;
  language: string;
  responses: number;
  likes: number;
  ialandingSlug: string | null;
}

/** A number in the language's compact form (1,2 mil; 1.2K). */
export function compact(lang: string, n: number): string {
  return new Intl.NumberFormat(lang, { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

/** The page of a listed bot, or of a home-page sample. */
export function BotPage({
  ctx,
  bot,
  sample,
}: {
  ctx: PageContext;
  bot?: ListedBot | undefined;
  sample?: SampleBot | undefined;
}) {
  const t = CONTENT[ctx.lang];
  return (
    <Layout ctx={ctx}>
      <article className="section wrap narrow botpage">
        <p>
          <a href="/facebots">{t.bot.back}</a>
        </p>
        {bot ? (
          <>
            <h1>{bot.name}</h1>
            {bot.username ? <p className="muted">@{bot.username}</p> : null}
            <p className="lead">{bot.description}</p>
            <dl className="facts">
              {bot.category ? (
                <div>
                  <dt>{t.bot.industry}</dt>
                  <dd>{bot.category}</dd>
                </div>
              ) : null}
              <div>
                <dt>{t.bot.responses}</dt>
                <dd>{compact(ctx.lang, bot.responses)}</dd>
              </div>
              <div>
                <dt>{t.bot.likes}</dt>
                <dd data-like-count={bot.id}>{compact(ctx.lang, bot.likes)}</dd>
              </div>
            </dl>
            <div className="ctas">
              <LikeButton id={bot.id} likes={bot.likes} like={t.bot.like} liked={t.bot.liked} />
              <button
                type="button"
                className="btn btn-ghost"
                data-share={bot.name}
                data-copied={t.bot.copied}
              >
                {t.bot.share}
              </button>
              {bot.username ? (
                <a className="btn" href={`https://t.me/${bot.username}`} rel="noopener">
                  {t.bot.telegram}
                </a>
              ) : null}
              {bot.ialandingSlug ? (
                <a className="btn" href={`/ialanding/${bot.ialandingSlug}`}>
                  {t.bot.landing}
                </a>
              ) : null}
            </div>
            <p role="status" className="muted" data-share-status="" />
          </>
        ) : sample ? (
          <>
            <span className="badge">{t.bot.example}</span>
            <h1>{sample.name}</h1>
            <p className="lead">{sample.purpose}</p>
            <dl className="facts">
              <div>
                <dt>{t.bot.language}</dt>
                <dd>{sample.language}</dd>
              </div>
              <div>
                <dt>{t.bot.industry}</dt>
                <dd>{t.facebots.chips[sample.industry]}</dd>
              </div>
            </dl>
            <p>{t.bot.exampleText}</p>
          </>
        ) : null}
        <p>
          <a className="btn" href="/register">
            {t.bot.create}
          </a>
        </p>
      </article>
      <AssistantButton ctx={ctx} />
    </Layout>
  );
}

/**
 * The like button of a listed bot (spec 001 §4 Like): the site script (client/site.ts) reads its
 * `data-*` and counts the like; `small` in the directory's cards.
 */
export function LikeButton({
  id,
  likes,
  like,
  liked,
  small,
}: {
  id: string;
  likes: number;
  like: string;
  liked: string;
  small?: boolean;
}) {
  return (
    <button
      type="button"
      className={small ? 'btn btn-small btn-ghost' : 'btn btn-ghost'}
      data-like={id}
      data-count={likes}
      data-liked-text={liked}
      aria-pressed="false"
    >
      ♥ {like}
    </button>
  );
}
