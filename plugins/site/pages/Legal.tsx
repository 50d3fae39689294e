/**
 * A legal page (spec 001 §2: `/legal/tos`, `/legal/privacy`, `/legal/security`, each with a
 * back-to-home link; issue 16 §3): written for a self-hosted open-source product, naming the
 * operator set in CHARLA_OPERATOR_NAME and CHARLA_OPERATOR_EMAIL.
 */
import { CONTENT, fill, type LegalPageId, localePath } from '../content/index.ts';
import { AssistantButton, Layout, type PageContext } from './Layout.tsx';

/** The operator of this installation, from the settings. */
export interface Operator {
  name: string | undefined;
  email: string | undefined;
}

/**
 * "This installation is operated by {name}. Contact: {email}." without the contact sentence when no
 * address is set, and without a doubled full stop after a name that ends in one ("S.L.").
 */
export function operatorText(sentence: string, unset: string, operator: Operator): string {
  if (!operator.name) return unset;
  const text = operator.email ? sentence : sentence.replace(/\s*[^\s.।]+\s?:\s*\{email\}[.।]?/u, '');
  return fill(text, { name: operator.name, email: operator.email ?? '' }).replace(/\.\./g, '.');
}

/** One legal page in one language. */
export function Legal({ ctx, id, operator }: { ctx: PageContext; id: LegalPageId; operator: Operator }) {
  const t = CONTENT[ctx.lang].legal;
  const page = t[id];
  return (
    <Layout ctx={ctx}>
      <article className="section wrap narrow legal">
        <p>
          <a href={localePath(ctx.lang, '')}>{t.back}</a>
        </p>
        <h1>{page.title}</h1>
        <p className="muted">{t.updated}</p>
        <p className="operator">{operatorText(t.operator, t.operatorUnset, operator)}</p>
        {page.sections.map((section) => (
          <section key={section.h}>
            <h2>{section.h}</h2>
            {section.p.map((p) => (
              <p key={p}>{p}</p>
            ))}
          </section>
        ))}
        <p>
          <a href={localePath(ctx.lang, '')}>{t.back}</a>
        </p>
      </article>
      <AssistantButton ctx={ctx} />
    </Layout>
  );
}
