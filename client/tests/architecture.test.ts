// @vitest-environment node
// House rules the compiler cannot see (STYLE.md 12-15), checked over every source file in src/:
// no literal user-facing text in JSX, no t() at module scope, feature folders that reach each
// other only through their index, the typed Redux hooks only, and no hand-written fetch.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.(test|spec)\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const files = sourceFiles(SRC).filter((file) => !relative(SRC, file).startsWith(`test${sep}`));

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

function where(source: ts.SourceFile, node: ts.Node): string {
  const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
  return `${relative(SRC, source.fileName)}:${line + 1}`;
}

const HAS_LETTER = /\p{L}/u;

/** Props that end up visible (or read aloud) and so must come from i18next. */
const TEXT_PROPS = new Set([
  'title', 'placeholder', 'alt', 'aria-label', 'aria-description', 'label', 'hint', 'message',
  'emptyText', 'noResultsText', 'submitLabel', 'submittingLabel', 'searchPlaceholder', 'softText', 'hardText', 'formLabel',
]);

function literalText(node: ts.Node | undefined): string | undefined {
  if (!node) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('');
  return undefined;
}

/** Literal user-facing text in JSX: text children, {'text'} children and text-bearing props. */
export function findLiteralJsxText(source: ts.SourceFile): string[] {
  const problems: string[] = [];
  walk(source, (node) => {
    if (ts.isJsxText(node) && HAS_LETTER.test(node.text)) {
      problems.push(`${where(source, node)} text "${node.text.trim()}"`);
    } else if (ts.isJsxExpression(node) && node.parent && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      const text = literalText(node.expression);
      if (text && HAS_LETTER.test(text)) problems.push(`${where(source, node)} text {"${text}"}`);
    } else if (ts.isJsxAttribute(node) && TEXT_PROPS.has(node.name.getText(source))) {
      const init = node.initializer;
      const text = init && ts.isJsxExpression(init) ? literalText(init.expression) : literalText(init);
      if (text && HAS_LETTER.test(text)) problems.push(`${where(source, node)} ${node.name.getText(source)}="${text}"`);
    }
  });
  return problems;
}

function isInsideFunction(node: ts.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (ts.isFunctionLike(current)) return true;
  }
  return false;
}

function moduleScopeTranslations(source: ts.SourceFile): string[] {
  const problems: string[] = [];
  walk(source, (node) => {
    if (!ts.isCallExpression(node) || isInsideFunction(node)) return;
    const callee = node.expression;
    const isT = (ts.isIdentifier(callee) && callee.text === 't') ||
      (ts.isPropertyAccessExpression(callee) && callee.name.text === 't');
    if (isT) problems.push(where(source, node));
  });
  return problems;
}

function imports(source: ts.SourceFile): { spec: string; node: ts.Node }[] {
  const found: { spec: string; node: ts.Node }[] = [];
  walk(source, (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ spec: node.moduleSpecifier.text, node });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteral(arg)) found.push({ spec: arg.text, node });
    }
  });
  return found;
}

/** 'features/<name>' of a file or resolved import inside src, else undefined. */
function featureOf(path: string): string | undefined {
  const parts = relative(SRC, path).split(sep);
  return parts[0] === 'features' && parts.length > 1 ? parts[1] : undefined;
}

/** 'features/<name>' or 'features/<name>/index': the public face of a feature. */
function isFeatureIndex(path: string): boolean {
  const parts = relative(SRC, path).split(sep);
  return parts[0] === 'features' && (parts.length === 2 || (parts.length === 3 && parts[2] === 'index'));
}

const parsed = files.map(parse);

describe('architecture', () => {
  it('scans the source tree', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('the literal-text check catches literals (self-test)', () => {
    const sample = ts.createSourceFile('sample.tsx',
      'const a = <p title="Hola">Hola mundo {"texto"} {t("ok")} {`@${x}`}<b aria-label={"Cerrar"}>{n}</b></p>;',
      ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    expect(findLiteralJsxText(sample)).toHaveLength(4);
  });

  it('has no literal user-facing text in JSX (everything goes through i18next)', () => {
    expect(parsed.flatMap(findLiteralJsxText)).toEqual([]);
  });

  it('never calls t() at module scope', () => {
    expect(parsed.flatMap(moduleScopeTranslations)).toEqual([]);
  });

  it('a feature imports another only through its index, and shared code does not import features', () => {
    const problems: string[] = [];
    for (const source of parsed) {
      const from = relative(SRC, source.fileName);
      const ownFeature = featureOf(source.fileName);
      const layer = from.split(sep)[0];
      for (const { spec, node } of imports(source)) {
        if (!spec.startsWith('.')) continue;
        const target = resolve(dirname(source.fileName), spec);
        const targetFeature = featureOf(target);
        if (!targetFeature) continue;
        if (ownFeature && targetFeature !== ownFeature && !isFeatureIndex(target)) {
          problems.push(`${where(source, node)} imports ${spec}`);
        }
        if (!ownFeature && ['app', 'components', 'lib', 'i18n'].includes(layer ?? '')) {
          problems.push(`${where(source, node)} (shared) imports ${spec}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("uses only the typed Redux hooks (react-redux's useDispatch/useSelector only in app/hooks.ts)", () => {
    const problems: string[] = [];
    for (const source of parsed) {
      if (relative(SRC, source.fileName) === join('app', 'hooks.ts')) continue;
      walk(source, (node) => {
        if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text === 'react-redux') {
          const names = node.importClause?.namedBindings;
          if (names && ts.isNamedImports(names)) {
            for (const element of names.elements) {
              if (['useDispatch', 'useSelector', 'useStore'].includes(element.name.text)) {
                problems.push(`${where(source, node)} ${element.name.text}`);
              }
            }
          }
        }
      });
    }
    expect(problems).toEqual([]);
  });

  it('talks to the API only through RTK Query (no fetch, XMLHttpRequest or axios)', () => {
    const problems: string[] = [];
    // The one exception: an upload's progress, which only XMLHttpRequest reports, sent from an
    // RTK Query endpoint's queryFn.
    const UPLOAD = 'app/upload.ts';
    for (const source of parsed.filter((file) => relative(SRC, file.fileName) !== UPLOAD)) {
      walk(source, (node) => {
        if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'fetch') {
          problems.push(where(source, node));
        }
        if (ts.isIdentifier(node) && node.text === 'XMLHttpRequest') problems.push(where(source, node));
      });
      for (const { spec, node } of imports(source)) if (spec === 'axios') problems.push(where(source, node));
    }
    expect(problems).toEqual([]);
  });
});
