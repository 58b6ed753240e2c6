import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Cold start (issue 13): `run` loads the ops packages (grammy with its fetch polyfills,
// prom-client, hono) only when Telegram, metrics or the dashboard are configured. In the
// CLI's bundle (dist/bundle-<id>/, built with dist/ by the global setup) that means the `run`
// command's chunk and every chunk it imports statically hold none of their code: they
// come in by dynamic import() only.
// The current build's folder (scripts/bundle-folders.mjs).
const bundleDir = resolve('dist', readFileSync('dist/bundle-current', 'utf8').trim());
const STATIC_IMPORT = /^(?:import|export)\s[^;]*?from\s*"(\.\/[^"]+)"|^import\s*"(\.\/[^"]+)"/gm;
const DYNAMIC_IMPORT = /import\("(\.\/[^"]+)"\)/g;
const OPS_PACKAGES = /node_modules\/(grammy|prom-client|hono|@hono\/node-server|node-fetch)\//;

const read = (file: string) => readFileSync(join(bundleDir, file), 'utf8');

/**
 * The chunk files Node loads, before a chunk runs, for `entry` (itself included); with
 * `dynamic`, also every chunk it may import later.
 */
function closure(entry: string, dynamic = false): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  for (let file = stack.pop(); file !== undefined; file = stack.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const text = read(file);
    for (const m of text.matchAll(STATIC_IMPORT))
      stack.push(join(dirname(file), m[1] ?? m[2] ?? ''));
    if (dynamic)
      for (const m of text.matchAll(DYNAMIC_IMPORT)) stack.push(join(dirname(file), m[1] ?? ''));
  }
  return seen;
}

/** Packages the bundle leaves external, loaded from node_modules by a chunk's import. */
const EXTERNAL_OPS = ['grammy'];

/**
 * The ops packages a chunk holds (its source map's sources) or imports from node_modules
 * (grammy is external: node-fetch under it checks a class's name, scope hoisting may change).
 */
function opsSourcesOf(file: string): string[] {
  const map = JSON.parse(read(`${file}.map`)) as { sources: string[] };
  const text = read(file);
  const imported = EXTERNAL_OPS.filter((p) =>
    new RegExp(`(?:from\\s*|import\\(\\s*)"${p}"`).test(text),
  ).map((p) => `node_modules/${p}/`);
  return [...map.sources.filter((s) => OPS_PACKAGES.test(s)), ...imported];
}

/** The chunk `main.js` imports for the `run` command. */
function runChunk(): string {
  const chunks = [...read('main.js').matchAll(DYNAMIC_IMPORT)].map((m) => m[1] ?? '');
  const run = chunks.find((c) => /^\.\/run-[A-Z0-9]+\.js$/.test(c));
  if (run === undefined) throw new Error(`no run chunk among ${chunks.join(', ')}`);
  return run.slice(2);
}

describe('the bundled run command', () => {
  it('loads no ops package before it runs: grammy, prom-client and hono come by import() when configured', () => {
    const loaded = [...closure(runChunk())].flatMap(opsSourcesOf);
    expect(loaded).toEqual([]);
    // Not vacuous: each package is in a chunk the command may import later.
    const lazy = new Set(
      [...closure(runChunk(), true)].flatMap(opsSourcesOf).map((s) => OPS_PACKAGES.exec(s)?.[1]),
    );
    expect([...lazy]).toEqual(
      expect.arrayContaining(['@hono/node-server', 'grammy', 'hono', 'prom-client']),
    );
  });
});
