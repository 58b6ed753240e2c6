#!/usr/bin/env node
/**
 * One name, one meaning (issue 12): fails when two files under `src/` each declare an export
 * of the same name (`export interface OrderEvent` in two places, say), because a reader, an
 * editor's auto-import and a public door can then pick the wrong one. knip's `duplicates`
 * only sees one declaration exported twice; this sees two declarations sharing a name.
 *
 * Re-exports (`export { X } from …`) are not declarations and are not counted, nor are test
 * files (`*.test.ts`), which export nothing anyone imports. The TypeScript parser reads each
 * file's syntax only (no type-check), so the check takes well under a second.
 *
 * Usage: `node scripts/check-duplicate-exports.mjs` (part of npm run lint); exit 1 on a finding.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** Every non-test `.ts` file under `dir`, as a forward-slash path. */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name).replaceAll('\\', '/'))
    .sort();
}

const isExported = (node) =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The names a file declares with `export` in front (functions, classes, types, consts…). */
function declaredExports(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
  const names = [];
  for (const statement of source.statements) {
    if (!isExported(statement)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) names.push(d.name.text);
      }
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name !== undefined
    ) {
      names.push(statement.name.text);
    }
  }
  // A function's overloads, or an interface merged with itself, are one declaration.
  return [...new Set(names)];
}

const filesOf = new Map();
for (const file of sourceFiles('src')) {
  for (const name of declaredExports(file)) filesOf.set(name, [...(filesOf.get(name) ?? []), file]);
}

const twice = [...filesOf].filter(([, files]) => files.length > 1);
if (twice.length > 0) {
  console.error(`check-duplicate-exports: ${twice.length} name(s) exported from two places`);
  for (const [name, files] of twice) console.error(`- ${name}: ${files.join(', ')}`);
  process.exit(1);
}
console.log(`check-duplicate-exports: ${filesOf.size} exported names, each declared once`);
