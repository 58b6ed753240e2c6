import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The compiled framework (dist/, built by the global setup) loading TypeScript strategies
// through the strategy cache, in plain `node` children as the CLI does: each child is a
// fresh process, so a second child finds only what the first left in the cache folder.
const root = resolve('.');
const dist = (path: string) => JSON.stringify(join(root, 'dist', path));

interface Probe {
  names: string[];
  /** Whether tsx's loader was registered in the child. */
  tsx: boolean;
  values: unknown[];
  /** Whether the first two strategies got one instance of their helper and of trading-signals. */
  shared: { helper: boolean; sma: boolean };
  stderr: string;
}

/** Loads `files` (in order) in a fresh child with the cache in `cacheDir`. */
function load(cacheDir: string, ...files: string[]): Probe {
  const script = `
    const { loadStrategy } = await import(${dist('strategy/load-strategy.js')});
    const { typeScriptLoaderRegistered } = await import(${dist('strategy/typescript-loader.js')});
    const { TradingCalendar } = await import(${dist('calendar/trading-calendar.js')});
    const rxjs = await import('rxjs');
    const names = [];
    const values = [];
    const probes = [];
    for (const file of ${JSON.stringify(files)}) {
      const loaded = await loadStrategy('s', file, {}, '/');
      names.push(loaded.definition.name);
      const probe = loaded.definition.probe ?? {};
      probes.push(probe);
      values.push({
        ...probe,
        calendar: probe.calendar === undefined ? undefined : probe.calendar === TradingCalendar,
        of: probe.of === undefined ? undefined : probe.of === rxjs.of,
      });
    }
    const [a, b] = probes;
    const shared = {
      helper: a?.shared !== undefined && a.shared === b?.sharedB,
      sma: typeof a?.sma === 'function' && a.sma === b?.smaB,
    };
    process.stdout.write(JSON.stringify({ names, tsx: typeScriptLoaderRegistered(), values, shared }));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root, // the script's own import of rxjs finds the runner's
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, TIQS_RUNNER_CACHE_DIR: cacheDir },
  });
  if (child.status !== 0) throw new Error(`child failed: ${child.stderr}`);
  const out = child.stdout;
  const stderr = child.stderr;
  return { ...(JSON.parse(out) as Omit<Probe, 'stderr'>), stderr };
}

const src = JSON.stringify(join(root, 'src/index.ts'));

function strategy(name: string, extra = '', probe = '{}'): string {
  return [
    `import { defineStrategy, z } from ${src};`,
    "import { EMPTY } from 'rxjs';",
    extra,
    `const def = defineStrategy({ name: ${JSON.stringify(name)}, params: z.object({}), setup: () => EMPTY });`,
    `export default Object.assign(def, { probe: ${probe} });`,
  ].join('\n');
}

describe('strategy cache (compiled framework)', () => {
  it('compiles once, then loads from the cache without tsx, sharing the framework and packages', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-cache-'));
    const cache = join(dir, 'cache');
    writeFileSync(
      join(dir, 'helper.ts'),
      'export const shared: { n: number } = { n: 1 };\nexport const label = (s: string): string => `<${s}>`;\n',
    );
    const extra = [
      "import * as pkg from 'tiqs-runner';",
      "import { of } from 'rxjs';",
      "import { label, shared } from './helper.ts';",
      "import { SMA } from 'trading-signals';",
    ].join('\n');
    const probe = '{ calendar: pkg.TradingCalendar, of, label: label("a"), shared, sma: SMA }';
    writeFileSync(join(dir, 'a.ts'), strategy('a', extra, probe));
    writeFileSync(
      join(dir, 'b.ts'),
      strategy(
        'b',
        "import { shared } from './helper.ts';\nimport { SMA } from 'trading-signals';",
        '{ sharedB: shared, smaB: SMA }',
      ),
    );

    const first = load(cache, join(dir, 'a.ts'), join(dir, 'b.ts'));
    expect(first.names).toEqual(['a', 'b']);
    expect(first.tsx).toBe(false);
    expect(first.values[0]).toMatchObject({ calendar: true, of: true, label: '<a>' });
    // One helper module and one trading-signals for both, that one from the cache's bundle.
    expect(first.shared).toEqual({ helper: true, sma: true });
    expect(readdirSync(cache).filter((f) => f.startsWith('vendor-trading-signals-'))).toHaveLength(
      1,
    );
    const manifests = readdirSync(cache).filter((f) => f.endsWith('.json'));
    expect(manifests).toHaveLength(2);
    const written = statSync(join(cache, manifests[0] as string)).mtimeMs;

    const second = load(cache, join(dir, 'a.ts'), join(dir, 'b.ts'));
    expect(second.names).toEqual(['a', 'b']);
    expect(second.tsx).toBe(false);
    expect(second.values[0]).toMatchObject({ calendar: true, of: true, label: '<a>' });
    expect(second.shared).toEqual({ helper: true, sma: true });
    // Nothing compiled again: the manifest is as the first run wrote it.
    expect(statSync(join(cache, manifests[0] as string)).mtimeMs).toBe(written);
  });

  it('never loads old code: a changed strategy or a changed helper it imports is compiled again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-cache-'));
    const cache = join(dir, 'cache');
    const file = join(dir, 's.ts');
    writeFileSync(join(dir, 'helper.ts'), 'export const version = 1;\n');
    const body = (name: string) =>
      strategy(name, "import { version } from './helper.ts';", '{ version }');
    writeFileSync(file, body('first'));
    expect(load(cache, file)).toMatchObject({ names: ['first'], values: [{ version: 1 }] });
    // Same length: only the content differs.
    writeFileSync(file, body('secnd'));
    expect(load(cache, file)).toMatchObject({ names: ['secnd'], values: [{ version: 1 }] });
    writeFileSync(join(dir, 'helper.ts'), 'export const version = 2;\n');
    expect(load(cache, file)).toMatchObject({ names: ['secnd'], values: [{ version: 2 }] });
    // The tsconfig.json esbuild compiled by counts as a source too.
    const manifest = () => {
      const name = readdirSync(cache).find((f) => f.endsWith('.json')) as string;
      return readFileSync(join(cache, name), 'utf8');
    };
    const before = manifest();
    expect(before).not.toContain(join(dir, 'tsconfig.json'));
    writeFileSync(join(dir, 'tsconfig.json'), '{ "compilerOptions": { "target": "es2022" } }\n');
    load(cache, file);
    const withConfig = manifest();
    expect(withConfig).toContain(join(dir, 'tsconfig.json'));
    writeFileSync(join(dir, 'tsconfig.json'), '{ "compilerOptions": { "target": "es2020" } }\n');
    load(cache, file);
    expect(manifest()).not.toBe(withConfig);
  });

  it('leaves a strategy that needs its own location to tsx, saying so', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-cache-'));
    const cache = join(dir, 'cache');
    const file = join(dir, 'where.ts');
    writeFileSync(file, strategy('where', '', '{ url: import.meta.url }'));
    const probe = load(cache, file);
    expect(probe.tsx).toBe(true);
    // Under tsx, import.meta.url is the strategy's own file, not a file in the cache.
    expect(probe.values[0]).toMatchObject({ url: `file://${file}` });
    expect(probe.stderr).toContain(`strategy ${file} not compiled into the cache (`);
    expect(probe.stderr).toContain('loading it with tsx');
  });

  it('never imports a package copy that is gone: the same version found elsewhere is compiled against anew', () => {
    const root = mkdtempSync(join(tmpdir(), 'tr-cache-'));
    const cache = join(root, 'cache');
    const pkg = (dir: string, where: string) => {
      mkdirSync(dir, { recursive: true });
      // The same package.json in both places: only its path tells the copies apart.
      writeFileSync(
        join(dir, 'package.json'),
        '{ "name": "trfake", "version": "1.0.0", "type": "module", "main": "index.js" }\n',
      );
      writeFileSync(join(dir, 'index.js'), `export const where = '${where}';\n`);
    };
    pkg(join(root, 'node_modules', 'trfake'), 'outer');
    pkg(join(root, 'proj', 'node_modules', 'trfake'), 'inner');
    const file = join(root, 'proj', 's.ts');
    writeFileSync(file, strategy('s', "import { where } from 'trfake';", '{ where }'));
    expect(load(cache, file)).toMatchObject({ tsx: false, values: [{ where: 'inner' }] });
    rmSync(join(root, 'proj', 'node_modules'), { recursive: true });
    expect(load(cache, file)).toMatchObject({ tsx: false, values: [{ where: 'outer' }] });
  });

  it('loads with tsx when a cached entry no longer links, and compiles it again on the next start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-cache-'));
    const cache = join(dir, 'cache');
    writeFileSync(join(dir, 'helper.ts'), 'export const version = 7;\n');
    const file = join(dir, 's.ts');
    writeFileSync(file, strategy('s', "import { version } from './helper.ts';", '{ version }'));
    expect(load(cache, file)).toMatchObject({ tsx: false, values: [{ version: 7 }] });
    // The compiled helper is lost (a partial clean-up): the entry's check still passes.
    const entry = JSON.parse(
      readFileSync(
        join(cache, readdirSync(cache).find((f) => f.endsWith('.json')) as string),
        'utf8',
      ),
    ) as { entry: string };
    const helper = readdirSync(cache).find((f) => f.endsWith('.mjs') && f !== entry.entry);
    rmSync(join(cache, helper as string));
    const fallback = load(cache, file);
    expect(fallback).toMatchObject({ tsx: true, values: [{ version: 7 }] });
    expect(fallback.stderr).toContain('its cached compilation no longer loads');
    expect(load(cache, file)).toMatchObject({ tsx: false, values: [{ version: 7 }] });
  });

  it('notices a change in a tsconfig the nearest one extends (a path, a list, a package)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-cache-'));
    const cache = join(dir, 'cache');
    const file = join(dir, 's.ts');
    // Class fields: `[[Define]]` semantics reset `n` to undefined after the base constructor set it.
    const probe = '{ n: String(new Sub().n) }';
    const extra = [
      'class Base { constructor() { (this as unknown as { n: number }).n = 1; } }',
      'class Sub extends Base { n!: number; }',
    ].join('\n');
    writeFileSync(file, strategy('s', extra, probe));
    mkdirSync(join(dir, 'node_modules', 'trconfig'), { recursive: true });
    writeFileSync(
      join(dir, 'node_modules', 'trconfig', 'package.json'),
      '{ "name": "trconfig" }\n',
    );
    writeFileSync(join(dir, 'node_modules', 'trconfig', 'tsconfig.json'), '{}\n');
    writeFileSync(join(dir, 'tsconfig.json'), '{ "extends": ["trconfig", "./base"] }\n');
    const base = (define: boolean) =>
      writeFileSync(
        join(dir, 'base.json'),
        `{ "compilerOptions": { "useDefineForClassFields": ${define} } } // shared\n`,
      );
    base(false);
    expect(load(cache, file)).toMatchObject({ tsx: false, values: [{ n: '1' }] });
    base(true);
    expect(load(cache, file)).toMatchObject({ tsx: false, values: [{ n: 'undefined' }] });
    const manifest = readFileSync(
      join(cache, readdirSync(cache).find((f) => f.endsWith('.json')) as string),
      'utf8',
    );
    expect(manifest).toContain(join(dir, 'base.json'));
    expect(manifest).toContain(join(dir, 'node_modules', 'trconfig', 'tsconfig.json'));
  });

  it("bundles a runner package only if its code does not need its own folder, named by its files' digests", () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-cache-'));
    const cache = join(dir, 'cache');
    // Two packages of the runner's own installation (the only ones bundled), removed after.
    const tag = `${process.pid}-${Date.now()}`;
    const bound = `trbound-${tag}`;
    const plain = `trplain-${tag}`;
    const made = [bound, plain].map((name) => join(root, 'node_modules', name));
    const pkg = (name: string, code: string) => {
      mkdirSync(join(root, 'node_modules', name), { recursive: true });
      writeFileSync(
        join(root, 'node_modules', name, 'package.json'),
        `{ "name": "${name}", "version": "1.0.0", "type": "module", "main": "index.js" }\n`,
      );
      writeFileSync(join(root, 'node_modules', name, 'index.js'), code);
    };
    try {
      pkg(bound, "export const here = new URL('.', import.meta.url).pathname;\n");
      pkg(plain, 'export const version = 1;\n');
      const file = join(dir, 's.ts');
      const extra = `import { here } from '${bound}';\nimport { version } from '${plain}';`;
      writeFileSync(file, strategy('s', extra, '{ here, version }'));
      const first = load(cache, file);
      expect(first).toMatchObject({ tsx: false, values: [{ version: 1 }] });
      // Still imported from its own folder, so its URL is its own.
      expect(first.values[0]).toMatchObject({ here: `${made[0]}/` });
      const vendored = () => readdirSync(cache).filter((f) => f.startsWith('vendor-'));
      expect(vendored().some((f) => f.includes(bound))).toBe(false);
      expect(vendored().filter((f) => f.includes(plain))).toHaveLength(1);
      // A patched file (package.json unchanged, as patch-package leaves it): a new bundle.
      writeFileSync(join(root, 'node_modules', plain, 'index.js'), 'export const version = 2;\n');
      expect(load(cache, file)).toMatchObject({ tsx: false, values: [{ version: 2 }] });
      expect(vendored().filter((f) => f.includes(plain))).toHaveLength(2);
    } finally {
      for (const path of made) rmSync(path, { recursive: true, force: true });
    }
  });

  it('bench/helpers/run-like-strategy.mjs loads a script as the CLI loads a strategy: from the cache, without tsx', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-cache-'));
    const file = join(dir, 'script.ts');
    const loader = JSON.stringify(join(root, 'src/strategy/typescript-loader.ts'));
    writeFileSync(
      file,
      `import { typeScriptLoaderRegistered } from ${loader};\nexport async function main(args: string[]): Promise<number> {\n  process.stdout.write(JSON.stringify({ args, tsx: typeScriptLoaderRegistered() }));\n  return 0;\n}\n`,
    );
    const run = () =>
      spawnSync(process.execPath, ['bench/helpers/run-like-strategy.mjs', file, 'x'], {
        cwd: root,
        encoding: 'utf8',
        timeout: 20_000,
        env: { ...process.env, TIQS_RUNNER_CACHE_DIR: join(dir, 'cache') },
      });
    for (const child of [run(), run()]) {
      expect(child.status).toBe(0);
      expect(JSON.parse(child.stdout)).toEqual({ args: ['x'], tsx: false });
    }
    expect(readdirSync(join(dir, 'cache')).some((f) => f.endsWith('.json'))).toBe(true);
  });

  it('loads with tsx, quietly, when the cache folder cannot be written (a read-only install)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-cache-'));
    // Under a file, so not a folder even for root (a read-only mount is not makeable here).
    writeFileSync(join(dir, 'file'), '');
    const file = join(dir, 's.ts');
    writeFileSync(file, strategy('s'));
    const probe = load(join(dir, 'file', 'cache'), file);
    expect(probe).toMatchObject({ names: ['s'], tsx: true });
    expect(probe.stderr).toBe('');
  });
});
