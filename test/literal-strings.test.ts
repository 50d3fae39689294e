/**
 * Every text an owner sees in the dashboard goes through i18n (spec 000 §1, 001 §9): no component
 * renders a literal, untranslated string. The test parses every dashboard/src/**\/*.tsx with the
 * TypeScript 7 compiler (its `typescript/unstable/sync` API; TypeScript 7 has no classic
 * `import ts from 'typescript'` compiler API) and reports, as file:line, each
 *   - JSX text with a letter in it (`<p>Hola</p>`),
 *   - string literal with a letter given to a user-visible attribute or prop (alt, title, placeholder,
 *     aria-label and the other aria-* texts, label, hint, subtitle), directly or through
 *     `{cond ? 'a' : 'b'}`, `{x || 'a'}`, template literals and the like,
 *   - string literal with a letter rendered as a JSX child (`{'Hola'}`, `{busy ? 'Espera' : null}`),
 *   - string literal with a letter passed to toast(), toast.error() and friends (also as their
 *     `description` option), alert(), confirm(), setError() (the screens' shown error), or to
 *     `new Error()`: the components show an error's message in a toast.
 * Whitespace, punctuation, digits and emoji are allowed; so are the few names in ALLOWED.
 * A first test runs the scanner on a sample file with known offenders, so the check itself is
 * shown to fail when a literal is there.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  isAsExpression,
  isBinaryExpression,
  isCallExpression,
  isConditionalExpression,
  isIdentifier,
  isJsxAttribute,
  isJsxExpression,
  isJsxText,
  isNewExpression,
  isNoSubstitutionTemplateLiteral,
  isObjectLiteralExpression,
  isParenthesizedExpression,
  isPropertyAccessExpression,
  isPropertyAssignment,
  isSatisfiesExpression,
  isStringLiteral,
  isTemplateExpression,
  type Node,
  type SourceFile,
  SyntaxKind,
} from 'typescript/unstable/ast';
import { API } from 'typescript/unstable/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const dashboardSrc = join(root, 'dashboard', 'src');

/** Attributes and props whose string value reaches the user (shown, or read by a screen reader). */
const VISIBLE_ATTRIBUTES = new Set([
  'alt',
  'title',
  'placeholder',
  'aria-label',
  'aria-description',
  'aria-placeholder',
  'aria-roledescription',
  'aria-valuetext',
  'label',
  'hint',
  'subtitle',
]);

/** Calls whose first argument is shown to the user. */
const VISIBLE_CALLS = new Set([
  'toast',
  'toast.error',
  'toast.success',
  'toast.info',
  'toast.warning',
  'toast.message',
  'toast.loading',
  'alert',
  'confirm',
  'prompt',
  'window.alert',
  'window.confirm',
  'window.prompt',
  'setError',
  'Error',
]);

/** Options of those calls that are shown too (sonner's toast description). */
const VISIBLE_OPTIONS = new Set(['description']);

/** Texts that are the same in every language (brand names). Compared after trimming. */
const ALLOWED = new Set(['Charla']);

/** A literal a user would see, found at `file:line`. */
interface Offender {
  file: string;
  line: number;
  kind: string;
  text: string;
}

const hasLetter = (text: string) => /\p{L}/u.test(text);

/** The string literals an expression can evaluate to as text (not those it only tests). */
function literalsOf(expr: Node | undefined): Node[] {
  if (!expr) return [];
  if (isStringLiteral(expr) || isNoSubstitutionTemplateLiteral(expr)) return [expr];
  if (isTemplateExpression(expr))
    return [expr.head, ...expr.templateSpans.flatMap((s) => [s.literal, ...literalsOf(s.expression)])];
  if (isParenthesizedExpression(expr) || isAsExpression(expr) || isSatisfiesExpression(expr))
    return literalsOf(expr.expression);
  if (isConditionalExpression(expr)) return [...literalsOf(expr.whenTrue), ...literalsOf(expr.whenFalse)];
  if (isBinaryExpression(expr)) {
    switch (expr.operatorToken.kind) {
      case SyntaxKind.AmpersandAmpersandToken:
        return literalsOf(expr.right);
      case SyntaxKind.BarBarToken:
      case SyntaxKind.QuestionQuestionToken:
      case SyntaxKind.PlusToken:
        return [...literalsOf(expr.left), ...literalsOf(expr.right)];
      default:
        return [];
    }
  }
  return [];
}

/** `toast.error`, `window.confirm`, `alert`: the dotted name of a callee, or '' for anything else. */
function calleeName(expr: Node): string {
  if (isIdentifier(expr)) return expr.text;
  if (isPropertyAccessExpression(expr)) {
    const left = calleeName(expr.expression);
    return left && isIdentifier(expr.name) ? `${left}.${expr.name.text}` : '';
  }
  return '';
}

/** The offenders of one parsed file; `display` is how the file is named in the report. */
function scanSourceFile(sf: SourceFile, display: string): Offender[] {
  const text = sf.text;
  const lineOf = (pos: number) => text.slice(0, pos).split('\n').length;
  const found: Offender[] = [];
  const report = (node: Node, kind: string, value: string, start = node.getStart(sf)) => {
    if (!hasLetter(value) || ALLOWED.has(value.trim())) return;
    found.push({ file: display, line: lineOf(start), kind, text: value.trim().replace(/\s+/g, ' ') });
  };
  const reportLiterals = (expr: Node | undefined, kind: string) => {
    for (const lit of literalsOf(expr)) report(lit, kind, (lit as Node & { text: string }).text);
  };

  const visit = (node: Node): void => {
    if (isJsxText(node)) {
      const raw = text.slice(node.pos, node.end);
      report(node, 'JSX text', node.text, node.pos + (raw.length - raw.trimStart().length));
    } else if (isJsxAttribute(node)) {
      const name = node.name.getText(sf);
      if (VISIBLE_ATTRIBUTES.has(name)) {
        const init = node.initializer;
        if (init && isJsxExpression(init)) reportLiterals(init.expression, `${name}=`);
        else reportLiterals(init, `${name}=`);
      }
      // A literal inside an attribute's expression is not a child: do not visit it as one.
      if (node.initializer && isJsxExpression(node.initializer)) visitNested(node.initializer.expression);
      return;
    } else if (isJsxExpression(node) && node.parent && isJsxChildParent(node.parent)) {
      reportLiterals(node.expression, 'JSX child {…}');
    } else if (
      (isCallExpression(node) || isNewExpression(node)) &&
      VISIBLE_CALLS.has(calleeName(node.expression))
    ) {
      const [message, options] = node.arguments ?? [];
      const kind = `${isNewExpression(node) ? 'new ' : ''}${calleeName(node.expression)}()`;
      reportLiterals(message, kind);
      if (options && isObjectLiteralExpression(options))
        for (const prop of options.properties)
          if (isPropertyAssignment(prop) && VISIBLE_OPTIONS.has(prop.name.getText(sf)))
            reportLiterals(prop.initializer, `${kind} ${prop.name.getText(sf)}`);
    }
    node.forEachChild(visit);
  };
  const visitNested = (node: Node | undefined) => {
    if (node) visit(node);
  };
  visit(sf);
  return found;
}

const isJsxChildParent = (node: Node) =>
  node.kind === SyntaxKind.JsxElement || node.kind === SyntaxKind.JsxFragment;

/** Every .tsx file under a directory, recursively. */
function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.tsx'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Parses the files of a tsconfig project with the TypeScript 7 API and scans them. */
function scanProject(api: API, tsconfig: string, files: string[]): Offender[] {
  const snapshot = api.updateSnapshot({ openProjects: [tsconfig] });
  const project = snapshot.getProject(tsconfig);
  if (!project) throw new Error(`TypeScript did not load ${tsconfig}`);
  return files.flatMap((file) => {
    const sf = project.program.getSourceFile(file);
    if (!sf) throw new Error(`${file} is not part of ${tsconfig}`);
    return scanSourceFile(sf, relative(root, file));
  });
}

const format = (offenders: Offender[]) =>
  offenders.map((o) => `${o.file}:${o.line}  ${o.kind}  "${o.text}"`).join('\n');

let api: API;
beforeAll(() => {
  api = new API({ cwd: root });
});
afterAll(() => api?.close());

describe('literal user-visible strings in the dashboard', () => {
  it('the scanner reports each kind of literal, with its line, and lets translated texts through', () => {
    const dir = mkdtempSync(join(tmpdir(), 'charla-literals-'));
    try {
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { jsx: 'preserve', noLib: true }, files: ['Sample.tsx'] }),
      );
      const sample = join(dir, 'Sample.tsx');
      writeFileSync(
        sample,
        `declare const t: (k: string) => string; declare const toast: { error(m: string): void }; declare const ok: boolean;
export const A = () => (
  <div title="Ayuda" className="not visible" data-testid="sample">
    <p>Hola mundo</p>
    <img alt={ok ? 'Foto' : t('x')} src='/a.png' />
    {ok ? 'Cargando' : null} {t('x')}: 12 · 😀 × — {\`\${1}%\`}
    <span>Charla</span> <b aria-label={\`Cerrar \${1}\`} />
    {ok && <i onClick={() => toast.error('Falló', { description: t('x'), id: 'abc' })} />}
    <p onClick={() => { throw new Error(\`HTTP \${1}\`); }}>{t('x')}</p>
    <p onClick={() => toast.error(t('x'), { description: 'Inténtalo' })} />
    <input placeholder={t('x')} aria-hidden={ok ? 'true' : 'false'} />
  </div>
);
`,
      );
      const found = scanProject(api, join(dir, 'tsconfig.json'), [sample]).map(
        (o) => `${o.line} ${o.kind} ${o.text}`,
      );
      expect(found).toEqual([
        '3 title= Ayuda',
        '4 JSX text Hola mundo',
        '5 alt= Foto',
        '6 JSX child {…} Cargando',
        '7 aria-label= Cerrar',
        '8 toast.error() Falló',
        '9 new Error() HTTP',
        '10 toast.error() description Inténtalo',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no dashboard component renders a literal text instead of t()', () => {
    const files = tsxFiles(dashboardSrc);
    expect(files.length).toBeGreaterThan(5);
    const offenders = scanProject(api, join(root, 'dashboard', 'tsconfig.json'), files);
    expect(
      format(offenders),
      'Literal user-visible text; move it to dashboard/src/i18n/locales/*.json and use t()',
    ).toBe('');
  });
});
