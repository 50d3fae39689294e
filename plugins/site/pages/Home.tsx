/**
 * The marketing home page (spec 001 §2 "Marketing home page, sections in order"; issue 16 §1):
 * banner and header (Layout), hero, carousel and demo video, how it works, IALanding, Facebots,
 * use cases, reservations, pricing (`#pricing`), comparison (`#comparison`), FAQ, footer.
 *
 * Everything works without JavaScript: the carousel is a CSS animation (4 slides, 3 s each, 1 s
 * fade; still under `prefers-reduced-motion`), the industry chips are radio buttons that filter
 * the cards with CSS, the FAQ items are `<details>`. Prices come from the billing plans.
 *
 * Decisions where the spec links pages Charla does not have (/guias/crear-canal-ia, /ialandings,
 * /plantillas/reservas-whatsapp): "how it works" and reservations link to sign-up, the IALanding
 * section to the demo IALanding, so no call to action ends on a redirect.
 */
import type { ReactNode } from 'react';
import { CUSTOM_PLAN, MONTHLY_PLAN } from '../../billing/api.ts';
import { botSlug, CONTENT, fill, formatPrice } from '../content/index.ts';
import { AssistantButton, Layout, type PageContext } from './Layout.tsx';

/** The demo IALanding the hero opens (spec 001 §2). */
export const DEMO_IALANDING = '/ialanding/ialanding-el-pato-pepe';

/**
 * The carousel's pictures (assets/site), in the spec's order: artist, clinic, reservations, company;
 * each in the page's language (`<slide>.<lang>.svg`, issue 29).
 */
export const SLIDES = ['artist', 'clinic', 'reservations', 'company'] as const;

function Check() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" width="18" height="18" className="tick">
      <circle cx="10" cy="10" r="10" fill="#ccfbf1" />
      <path d="M6 10.5l2.5 2.5L14 7.5" stroke="#0f766e" strokeWidth="2" fill="none" />
    </svg>
  );
}

/**
 * A section of the page, labelled by its heading (id `<name>-title`), on the alternate background
 * when `alt`, with the id `name` when it is an `anchor`. With a `side`, the heading and the content
 * take the left column and the side the right one (`wrap split`).
 */
function Section(props: {
  name: string;
  title: string;
  alt?: boolean;
  anchor?: boolean;
  narrow?: boolean;
  side?: ReactNode;
  children: ReactNode;
}) {
  const { name, side } = props;
  const heading = <h2 id={`${name}-title`}>{props.title}</h2>;
  return (
    <section
      className={props.alt ? 'section alt' : 'section'}
      id={props.anchor ? name : undefined}
      aria-labelledby={`${name}-title`}
    >
      {side ? (
        <div className="wrap split">
          <div>
            {heading}
            {props.children}
          </div>
          {side}
        </div>
      ) : (
        <div className={props.narrow ? 'wrap narrow' : 'wrap'}>
          {heading}
          {props.children}
        </div>
      )}
    </section>
  );
}

/** A section's closing call to action: a button centred under it. */
function CenterButton({ href, children }: { href: string; children: string }) {
  return (
    <p className="center">
      <a className="btn" href={href}>
        {children}
      </a>
    </p>
  );
}

/** A list of points, each with a tick. */
function Ticks({ items }: { items: readonly string[] }) {
  return (
    <ul className="ticks">
      {items.map((x) => (
        <li key={x}>
          <Check /> {x}
        </li>
      ))}
    </ul>
  );
}

/** A pricing plan's card; the `popular` one has its badge and the filled button. */
function Plan(props: {
  plan: { name: string; per: string; points: readonly string[]; badge?: string };
  price: string;
  text: string;
  cta: string;
  popular?: boolean;
}) {
  const { plan, popular } = props;
  return (
    <div className={popular ? 'card plan popular' : 'card plan'}>
      {popular ? <span className="badge">{plan.badge}</span> : null}
      <h3>{plan.name}</h3>
      <p className="price">
        {props.price}
        <span>{plan.per}</span>
      </p>
      <p>{props.text}</p>
      <Ticks items={plan.points} />
      <a className={popular ? 'btn' : 'btn btn-ghost'} href="/register">
        {props.cta}
      </a>
    </div>
  );
}

/** The home page in one language. */
export function Home({ ctx }: { ctx: PageContext }) {
  const t = CONTENT[ctx.lang];
  const v = ctx.values;
  const f = (s: string) => fill(s, v);
  return (
    <Layout ctx={ctx}>
      <section className="hero wrap" aria-labelledby="hero-title">
        <div className="hero-text">
          <h1 id="hero-title">
            {t.hero.title} <span className="highlight">{t.hero.highlight}</span>
          </h1>
          <p className="lead">{t.hero.subtitle}</p>
          <div className="ctas">
            <a className="btn" href="/register">
              {t.hero.login}
            </a>
            <a className="btn btn-ghost" href="/facebots">
              {t.hero.directory}
            </a>
            <a className="btn btn-ghost" href={DEMO_IALANDING}>
              {t.hero.demo}
            </a>
          </div>
          <Ticks items={t.hero.ticks} />
        </div>
        <div className="hero-media">
          <figure className="carousel" aria-label={t.carousel.label}>
            {SLIDES.map((slide, i) => (
              <img
                key={slide}
                className="slide"
                src={`/site/media/${slide}.${ctx.lang}.svg`}
                alt={t.carousel.slides[i]}
                width="360"
                height="440"
                decoding="async"
                {...(i === 0 ? { fetchPriority: 'high' as const } : { loading: 'lazy' as const })}
              />
            ))}
          </figure>
          <video
            className="demo-video"
            src="/site/media/demo.webm"
            poster="/site/media/demo-poster.webp"
            muted
            loop
            autoPlay
            playsInline
            preload="none"
            width="320"
            height="200"
            aria-label={t.carousel.video}
          />
        </div>
      </section>

      <Section name="how" title={t.howItWorks.title} alt>
        <ol className="steps">
          {t.howItWorks.steps.map((step) => (
            <li key={step.h} className="card">
              <h3>{step.h}</h3>
              <p>{f(step.p[0] ?? '')}</p>
            </li>
          ))}
        </ol>
        <CenterButton href="/register">{t.howItWorks.cta}</CenterButton>
      </Section>

      <Section
        name="ialanding"
        title={t.ialanding.title}
        side={
          <ul className="examples">
            {t.ialanding.examples.map((x, i) => (
              <li key={x} className="card">
                <span aria-hidden="true">{['🍽️', '🎨', '🩺'][i]}</span> {x}
              </li>
            ))}
          </ul>
        }
      >
        <p>{t.ialanding.text}</p>
        <Ticks items={t.ialanding.features} />
        <a className="btn" href={DEMO_IALANDING}>
          {t.ialanding.cta}
        </a>
      </Section>

      <Section name="facebots" title={t.facebots.title} alt>
        <p>{t.facebots.text}</p>
        <div className="directory">
          <fieldset className="chips">
            <legend className="sr-only">{t.facebots.filterLabel}</legend>
            {(['all', 'health', 'education', 'entertainment'] as const).map((chip) => (
              <span key={chip}>
                <input
                  type="radio"
                  name="industry"
                  id={`industry-${chip}`}
                  value={chip}
                  defaultChecked={chip === 'all'}
                />
                <label htmlFor={`industry-${chip}`}>{t.facebots.chips[chip]}</label>
              </span>
            ))}
          </fieldset>
          <ul className="bots">
            {t.facebots.bots.map((bot) => (
              <li key={bot.name} className="card bot" data-industry={bot.industry}>
                <a href={`/facebots/${botSlug(bot.name)}`}>
                  <span className="badge">{t.facebots.sample}</span>
                  <h3>{bot.name}</h3>
                  <p>{bot.purpose}</p>
                  <p className="muted">
                    {bot.language} · {t.facebots.chips[bot.industry]}
                  </p>
                </a>
              </li>
            ))}
          </ul>
        </div>
        <CenterButton href="/facebots">{t.facebots.cta}</CenterButton>
      </Section>

      <Section name="cases" title={t.useCases.title}>
        <ul className="grid3">
          {t.useCases.cases.map((c) => (
            <li key={c.title} className="card">
              <h3>{c.title}</h3>
              <p className="metric">{c.metric}</p>
              <blockquote>{c.quote}</blockquote>
            </li>
          ))}
        </ul>
      </Section>

      <Section
        name="reservations"
        title={t.reservations.title}
        alt
        side={
          <div className="phone" aria-hidden="true">
            <span className="pill">⏰ {t.reservations.reminder}</span>
            <p className="bubble">{t.reservations.reminderText}</p>
          </div>
        }
      >
        <p>{t.reservations.text}</p>
        <Ticks items={t.reservations.points} />
        <a className="btn" href="/register">
          {t.reservations.cta}
        </a>
      </Section>

      <Section name="pricing" title={t.pricing.title} anchor>
        <p>{t.pricing.text}</p>
        <p className="trial">🎁 {f(t.pricing.trial)}</p>
        <div className="plans">
          <Plan
            plan={t.pricing.dayPass}
            price={formatPrice(ctx.lang, CUSTOM_PLAN.dayCents)}
            text={f(t.pricing.dayPass.text)}
            cta={t.pricing.cta}
          />
          <Plan
            plan={t.pricing.monthly}
            price={formatPrice(ctx.lang, MONTHLY_PLAN.amountCents)}
            text={f(t.pricing.monthly.text)}
            cta={t.pricing.cta}
            popular
          />
        </div>
        <p className="muted center">{t.pricing.note}</p>
      </Section>

      <Section name="comparison" title={t.comparison.title} alt anchor>
        <p>{t.comparison.text}</p>
        {/* Focusable so a keyboard can scroll it on a phone. */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (axe scrollable-region-focusable) */}
        <section className="table-scroll" tabIndex={0} aria-label={t.comparison.title}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t.comparison.feature}</th>
                <th scope="col">Charla</th>
                <th scope="col">ManyChat</th>
                <th scope="col">Botpress</th>
                <th scope="col">Typebot</th>
              </tr>
            </thead>
            <tbody>
              {t.comparison.rows.map((row) => (
                <tr key={row.feature}>
                  <th scope="row">{row.feature}</th>
                  <td className="ours">{f(row.charla)}</td>
                  <td>{row.manychat}</td>
                  <td>{row.botpress}</td>
                  <td>{row.typebot}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <p className="muted">{t.comparison.note}</p>
      </Section>

      <Section name="faq" title={t.faq.title} narrow>
        {t.faq.items.map((item) => (
          <details key={item.q} className="faq">
            <summary>{item.q}</summary>
            <p>{f(item.a)}</p>
          </details>
        ))}
      </Section>
      <AssistantButton ctx={ctx} />
    </Layout>
  );
}
