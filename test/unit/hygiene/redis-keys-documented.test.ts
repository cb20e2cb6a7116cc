/**
 * docs/architecture.md's "## Redis" table lists every key family wavesync writes beside BullMQ's own keys. This
 * keeps it true from the code: every key wavesync builds is a template literal that starts with the queue prefix
 * (`${prefix}:drift:state:${application}`, or through a variable or a one-line function that holds such a template,
 * like `${base}:line:${application}` or `${this.key(channel)}:headers`); each is found in src/ with the TypeScript
 * parser, read as a pattern (`<prefix>:drift:state:<…>`), and must match a row of the table — or be the base a row
 * extends, as a click-claims base (`<prefix>:rollback:click`) is the start of `<prefix>:rollback:click:<key>`. A row
 * no key builder matches any more fails too. A template with a `*` in its text is a SCAN pattern, not a key.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const DOC = 'docs/architecture.md';

/** What a template's expression reads as when it is the installation's key prefix. */
const PREFIX_EXPRESSION = /(^|\.)\w*prefix$/i;
/** An expression the pattern cannot name (an argument, a job id, an Application's name). */
const ANY = '<…>';

interface KeyBuilder {
  /** `src/…/file.ts:line`. */
  at: string;
  /** The key as a pattern: `<prefix>:` then literal text and ANY. */
  pattern: string;
  /** Another template of its file is built on it (`base` in `${base}:line:${application}`). */
  base: boolean;
}

/** Every product source file under src/ (tests excluded), relative to the repository root. */
function sources(dir = path.join(ROOT, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path.relative(ROOT, full)] : [];
  });
}

/** The template a name stands for in scope at `from`: a `const`, a function or a class member returning one. */
function templateNamed(name: string, from: ts.Node): ts.TemplateLiteral | undefined {
  for (let scope: ts.Node | undefined = from.parent; scope; scope = scope.parent) {
    const members = ts.isClassLike(scope)
      ? scope.members
      : 'statements' in scope
        ? scope.statements
        : undefined;
    for (const member of (members ?? []) as readonly ts.Node[]) {
      const found = templateOfDeclaration(member, name);
      if (found) return found;
    }
  }
  return undefined;
}

function templateOfDeclaration(node: ts.Node, name: string): ts.TemplateLiteral | undefined {
  if (ts.isVariableStatement(node)) {
    for (const d of node.declarationList.declarations) {
      if (ts.isIdentifier(d.name) && d.name.text === name && d.initializer)
        return returnedTemplate(d.initializer);
    }
  }
  const named =
    (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name?.getText() === name;
  return named && node.body ? returnedTemplate(node.body) : undefined;
}

/** The template an initializer or body is, or returns as its one statement. */
function returnedTemplate(node: ts.Node): ts.TemplateLiteral | undefined {
  if (ts.isTemplateLiteral(node)) return node;
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return returnedTemplate(node.body);
  if (ts.isBlock(node) && node.statements.length === 1) {
    const only = node.statements[0]!;
    return ts.isReturnStatement(only) && only.expression ? returnedTemplate(only.expression) : undefined;
  }
  return undefined;
}

/** How an expression inside a template reads: the prefix, a template it names (added to `bases`), or ANY. */
function placeholderOf(expression: ts.Expression, bases: Set<ts.Node>, depth: number): string {
  if (PREFIX_EXPRESSION.test(expression.getText())) return '<prefix>';
  const callee = ts.isCallExpression(expression) ? expression.expression : expression;
  const name = ts.isIdentifier(callee)
    ? callee.text
    : ts.isPropertyAccessExpression(callee)
      ? callee.name.text
      : '';
  const template = name && depth < 5 ? templateNamed(name, expression) : undefined;
  if (!template) return ANY;
  bases.add(template);
  return patternOf(template, bases, depth + 1);
}

function patternOf(template: ts.TemplateLiteral, bases: Set<ts.Node>, depth = 0): string {
  if (ts.isNoSubstitutionTemplateLiteral(template)) return template.text;
  return template.templateSpans.reduce(
    (text, span) => text + placeholderOf(span.expression, bases, depth) + span.literal.text,
    template.head.text,
  );
}

/** The literal text of a template (what a `*` glob would be written in). */
function literalText(template: ts.TemplateLiteral): string {
  if (ts.isNoSubstitutionTemplateLiteral(template)) return template.text;
  return template.head.text + template.templateSpans.map((s) => s.literal.text).join('');
}

/** The key builders of one source text: templates whose pattern starts with `<prefix>:`. */
function keyBuildersOf(file: string, text: string): KeyBuilder[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { node: ts.Node; at: string; pattern: string }[] = [];
  const bases = new Set<ts.Node>();
  const visit = (node: ts.Node): void => {
    if (ts.isTemplateLiteral(node) && !literalText(node).includes('*')) {
      const pattern = patternOf(node, bases);
      if (pattern.startsWith('<prefix>:')) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push({ node, at: `${file}:${line}`, pattern });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.map(({ node, at, pattern }) => ({ at, pattern, base: bases.has(node) }));
}

/** The key patterns of the "## Redis" section's table: the first cell's backticked text of each row. */
function documentedKeys(doc: string): string[] {
  const section = /^## Redis\n([\s\S]*?)(?=^## )/m.exec(doc)?.[1] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => /^\| `([^`]+)`/.exec(line)![1]!);
}

/** A documented key with each `<name>` but `<prefix>` as one stand-in name. */
function sampleOf(documented: string): string {
  return documented.replace(/<(?!prefix>)[^>]+>/g, 'x');
}

/** Whether `pattern` is the `documented` key, or (`extended`) the start of it, one or more segments short. */
function builds(pattern: string, documented: string, extended: boolean): boolean {
  const escaped = pattern
    .split(ANY)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.+');
  return new RegExp(`^${escaped}${extended ? '(:.+)?' : ''}$`).test(sampleOf(documented));
}

/** Key builders no row documents: neither the key itself nor one it is the start of. */
function undocumented(builders: readonly KeyBuilder[], documented: readonly string[]): string[] {
  return builders
    .filter((b) => !documented.some((d) => builds(b.pattern, d, true)))
    .map((b) => `${b.pattern}  (${b.at})`);
}

/**
 * Rows no key builder builds. A base its own file extends must build the row itself (`<prefix>:approvals` does not
 * vouch for `<prefix>:approvals:gone:<id>`); one handed elsewhere, like a click-claims base, is the row's start.
 */
function unbuilt(builders: readonly KeyBuilder[], documented: readonly string[]): string[] {
  return documented.filter((d) => !builders.some((b) => builds(b.pattern, d, !b.base)));
}

describe('test/unit/hygiene/redis-keys-documented', () => {
  const builders = sources().flatMap((file) =>
    keyBuildersOf(file, readFileSync(path.join(ROOT, file), 'utf8')),
  );
  const documented = documentedKeys(readFileSync(path.join(ROOT, DOC), 'utf8'));

  it(`every Redis key family built in src/ is a row of ${DOC}'s "## Redis" table`, () => {
    expect(undocumented(builders, documented)).toEqual([]);
  });

  it('every row of the table is still built somewhere in src/', () => {
    expect(unbuilt(builders, documented)).toEqual([]);
  });

  it('finds the key builders it names, and reports a family the table lacks', () => {
    const text = `const base = \`\${options.prefix}:approvals\`;
const requestKey = (id: string) => \`\${base}:request:\${id}\`;
class Pacer { key(c: string) { return \`\${this.options.prefix}:pace:\${c}\`; }
  headers(c: string) { return \`\${this.key(c)}:headers\`; } }
const claims = redisClickClaims(redis, \`\${config.queue.prefix}:rollback:click\`, TTL);
const scan = \`\${prefix}:*\`;
const log = \`prefix \${prefix}: \${message}\`;`;
    const found = keyBuildersOf('sample.ts', text);

    expect(found.map((b) => b.pattern)).toEqual([
      '<prefix>:approvals',
      '<prefix>:approvals:request:<…>',
      '<prefix>:pace:<…>',
      '<prefix>:pace:<…>:headers',
      '<prefix>:rollback:click',
    ]);
    const table = [
      '<prefix>:approvals:request:<id>',
      '<prefix>:pace:<channel>',
      '<prefix>:pace:<channel>:headers',
      '<prefix>:rollback:click:<key>',
    ];
    expect(undocumented(found, table)).toEqual([]);
    expect(undocumented(found, table.slice(1))).toEqual([
      '<prefix>:approvals  (sample.ts:1)',
      '<prefix>:approvals:request:<…>  (sample.ts:2)',
    ]);
    expect(unbuilt(found, table)).toEqual([]);
    expect(unbuilt(found, [...table, '<prefix>:approvals:gone:<id>', '<prefix>:drift:state:<app>'])).toEqual([
      '<prefix>:approvals:gone:<id>',
      '<prefix>:drift:state:<app>',
    ]);
  });
});
