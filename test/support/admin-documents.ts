// Every Admin GraphQL document the app holds, read from its source: each
// template literal under app/ that starts with `#graphql` (or with `query` or
// `mutation`), with its `${...}` parts filled in from the constants of the same
// file, or of the app file it imports them from by name. A part neither
// defines is accepted only inside a quoted string (a metafield's namespace,
// say), where it changes no cost.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export interface AppDocument {
  /** app/... */
  file: string;
  text: string;
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const OPERATION = /^\s*(#graphql|query\b|mutation\b)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

type Template = ts.TemplateExpression | ts.NoSubstitutionTemplateLiteral;

function isTemplate(node: ts.Node): node is Template {
  return ts.isTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node);
}

/** The file's constants whose value is text or a number written in place. */
function constants(source: ts.SourceFile): Map<string, ts.Expression> {
  const found = new Map<string, ts.Expression>();
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) found.set(node.name.text, node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function textOf(expression: ts.Expression, known: Map<string, ts.Expression>, file: string): string | undefined {
  if (ts.isStringLiteral(expression) || ts.isNumericLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return expression.text;
  if (ts.isTemplateExpression(expression)) return fill(expression, known, file);
  if (ts.isIdentifier(expression)) {
    const value = known.get(expression.text);
    return value ? textOf(value, known, file) : undefined;
  }
  return undefined;
}

function fill(template: ts.TemplateExpression, known: Map<string, ts.Expression>, file: string): string {
  let text = template.head.text;
  for (const span of template.templateSpans) {
    const value = textOf(span.expression, known, file);
    if (value === undefined) {
      const insideQuotes = (text.match(/"/g) ?? []).length % 2 === 1;
      if (!insideQuotes) throw new Error(`${file}: \${${span.expression.getText()}} in a GraphQL document is not a constant of the file`);
      text += "x";
    } else {
      text += value;
    }
    text += span.literal.text;
  }
  return text;
}

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true, path.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

/** The constants a file imports by name from another app file (a shared selection of fields, say). */
function importedConstants(source: ts.SourceFile, path: string): Map<string, ts.Expression> {
  const found = new Map<string, ts.Expression>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const specifier = statement.moduleSpecifier.text;
    if (!specifier.startsWith(".")) continue;
    const base = join(dirname(path), specifier);
    const target = [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((candidate) => existsSync(candidate));
    const bindings = statement.importClause?.namedBindings;
    if (!target || !bindings || !ts.isNamedImports(bindings)) continue;
    const theirs = constants(parse(target));
    for (const element of bindings.elements) {
      const value = theirs.get((element.propertyName ?? element.name).text);
      if (value) found.set(element.name.text, value);
    }
  }
  return found;
}

export function appDocuments(): AppDocument[] {
  const documents: AppDocument[] = [];
  // The Customer Account API client asks another API, priced by its own rules.
  for (const path of sourceFiles(join(ROOT, "app")).filter((file) => !file.includes("/platform/shopify-customer-account/"))) {
    const code = readFileSync(path, "utf8");
    if (!code.includes("`")) continue;
    const file = relative(ROOT, path);
    const source = ts.createSourceFile(path, code, ts.ScriptTarget.Latest, true, path.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const known = new Map([...importedConstants(source, path), ...constants(source)]);
    const visit = (node: ts.Node) => {
      if (isTemplate(node)) {
        const head = ts.isNoSubstitutionTemplateLiteral(node) ? node.text : node.head.text;
        if (OPERATION.test(head)) documents.push({ file, text: ts.isNoSubstitutionTemplateLiteral(node) ? node.text : fill(node, known, file) });
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return documents;
}
