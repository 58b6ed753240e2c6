import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, resolve } from 'node:path';

/** tsconfig.json is JSON with comments and trailing commas. */
function readJsonc(text: string): unknown {
  const stripped = text
    .replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_m, str: string | undefined) =>
      str === undefined ? '' : str,
    )
    .replace(/,(\s*[}\]])/g, '$1');
  return JSON.parse(stripped);
}

/** Where one `extends` entry of the tsconfig in `dir` points, as TypeScript finds it. */
function resolveExtends(spec: string, dir: string): string | undefined {
  if (spec.startsWith('.') || isAbsolute(spec)) {
    const path = resolve(dir, spec);
    for (const p of [path, `${path}.json`]) if (existsSync(p)) return p;
    return undefined;
  }
  // A package's config: `pkg` (its tsconfig.json), `pkg/file` or `pkg/file.json`.
  const require = createRequire(resolve(dir, 'tsconfig.json'));
  for (const s of [spec, `${spec}.json`, `${spec}/tsconfig.json`]) {
    try {
      return require.resolve(s);
    } catch {
      // the next form
    }
  }
  return undefined;
}

/**
 * `tsconfig` and every config it `extends` (a path, a list, or a package's), nearest
 * first, each once. esbuild compiles by the merged settings, so a change in any of them
 * changes the output; an unreadable file ends its branch (esbuild would fail or ignore it).
 *
 * @example
 * ```ts
 * tsconfigChain('/proj/tsconfig.json'); // ['/proj/tsconfig.json', '/proj/base.json']
 * ```
 */
export function tsconfigChain(tsconfig: string): string[] {
  const chain: string[] = [];
  const visit = (file: string): void => {
    if (chain.includes(file)) return;
    chain.push(file);
    let parsed: { extends?: unknown };
    try {
      parsed = readJsonc(readFileSync(file, 'utf8')) as { extends?: unknown };
    } catch {
      return;
    }
    const ext = parsed?.extends;
    const specs = typeof ext === 'string' ? [ext] : Array.isArray(ext) ? ext : [];
    for (const spec of specs) {
      if (typeof spec !== 'string') continue;
      const found = resolveExtends(spec, dirname(file));
      if (found !== undefined) visit(found);
    }
  };
  visit(tsconfig);
  return chain;
}
