import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, parse } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_PACKAGE_ENTRIES, FRAMEWORK_FORM } from './framework-layout.ts';

/** Static value imports and re-exports (`import type` left out) and their specifiers. */
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s*)?['"]([^'"]+)['"]/gm;
/** A bare specifier (a package's name), not a path or a URL such as `node:fs`. */
export const BARE = /^(?![./]|[a-zA-Z][a-zA-Z0-9+.-]*:)/;

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** The folder whose node_modules holds `name` for a file in `dir`, if any. */
export function installedAt(name: string, dir: string): string | undefined {
  const { root } = parse(dir);
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules', name))) return at;
    if (at === root) return undefined;
  }
}

/** The packages a module's source imports statically for their values, each once. */
export function staticPackageImports(source: string): string[] {
  const specifiers = new Set<string>();
  for (const [, specifier] of source.matchAll(STATIC_IMPORT)) {
    if (specifier !== undefined && BARE.test(specifier) && !specifier.startsWith('node:'))
      specifiers.add(specifier);
  }
  return [...specifiers];
}

/**
 * Imports, natively, the packages a strategy file imports that resolve to the runner's
 * own copies (its node_modules, or none near the strategy: the strategy hooks fall back
 * to the runner's). Done before tsx's loader hooks exist, because once they do every
 * module loaded pays round trips to the hooks thread, and a package such as
 * trading-signals is almost two hundred modules. The strategy's own import then finds
 * them cached. Failures are left to that import to report.
 */
export async function preloadPackages(file: string): Promise<void> {
  const runnerRoot = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  for (const specifier of staticPackageImports(source)) {
    // Served by the bundle's entry files (the strategy hooks point the import there).
    if (
      FRAMEWORK_FORM === 'bundle' &&
      (specifier in BUNDLE_PACKAGE_ENTRIES || specifier.startsWith('tiqs-runner'))
    )
      continue;
    const at = installedAt(packageName(specifier), dirname(file));
    if (at !== undefined && at !== runnerRoot) continue; // the strategy has its own copy
    await import(specifier).catch(() => undefined);
  }
}
