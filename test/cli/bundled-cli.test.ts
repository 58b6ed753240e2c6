import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The CLI as `npm start` runs it: bin/tiqs-runner.js, which runs the bundle (the folder
// dist/bundle-current names, built with dist/ by the global setup). A strategy must get the bundle's instances of
// the framework, rxjs and zod, however it is loaded: from the strategy cache (esbuild),
// by tsx (cache off), or as JavaScript through the strategy module hooks. The probe
// imports the bundle's entry files by path to compare, and writes what it saw to a file.
const root = resolve('.');
/** The current build's folder, as bin/tiqs-runner.js finds it. */
const current = readFileSync(join(root, 'dist/bundle-current'), 'utf8').trim();
const bundle = (file: string) => JSON.stringify(join(root, 'dist', current, file));

const PROBE_IMPORTS = [
  `import { defineStrategy, TradingCalendar, z } from ${JSON.stringify(join(root, 'src/index.ts'))};`,
  "import * as pkg from 'tiqs-runner';",
  "import * as backtest from 'tiqs-runner/backtest';",
  "import { EMPTY, Observable } from 'rxjs';",
  "import { map } from 'rxjs/operators';",
  "import { z as zod } from 'zod';",
  "import { existsSync, writeFileSync } from 'node:fs';",
  `import * as bundled from ${bundle('index.js')};`,
  `import * as bundledBacktest from ${bundle('backtest.js')};`,
  `import * as bundledRxjs from ${bundle('vendor-rxjs.js')};`,
  `import * as bundledOperators from ${bundle('vendor-rxjs-operators.js')};`,
  `import * as bundledZod from ${bundle('vendor-zod.js')};`,
];
const PROBE_BODY = [
  'writeFileSync(process.env.PROBE_OUT, JSON.stringify({',
  '  source: TradingCalendar === bundled.TradingCalendar,',
  '  package: pkg.TradingCalendar === bundled.TradingCalendar,',
  '  backtest: backtest.runBacktest === bundledBacktest.runBacktest,',
  '  rxjs: Observable === bundledRxjs.Observable,',
  '  operators: map === bundledOperators.map && map === bundledRxjs.map,',
  '  zod: z === bundledZod.z && zod === bundledZod.z,',
  // The CLI holds the folder it runs from, so no later build removes it under it.
  `  held: existsSync(${JSON.stringify(join(root, 'dist', current, '.holders'))} + "/" + process.pid),`,
  '}));',
  "export default defineStrategy({ name: 'probe', params: z.object({}), setup: () => EMPTY });",
];

function validate(dir: string, module: string, env: NodeJS.ProcessEnv) {
  const config = join(dir, `${module}.yaml`);
  writeFileSync(config, `mode: paper\nstrategies:\n  - id: probe\n    module: ./${module}\n`);
  const out = join(dir, `${module}.${env.TIQS_RUNNER_CACHE_DIR === 'off' ? 'tsx' : 'cache'}.json`);
  const run = spawnSync(
    process.execPath,
    [join(root, 'bin/tiqs-runner.js'), 'validate', '--config', config, '--offline'],
    { cwd: dir, encoding: 'utf8', timeout: 30_000, env: { ...env, PROBE_OUT: out } },
  );
  return { code: run.status, stderr: run.stderr, seen: JSON.parse(readFileSync(out, 'utf8')) };
}

const ALL_SHARED = {
  held: true,
  source: true,
  package: true,
  backtest: true,
  rxjs: true,
  operators: true,
  zod: true,
};

describe('the bundled CLI loading strategies', () => {
  it('is what bin/tiqs-runner.js runs: the bundle is built and stamped after dist/', () => {
    const stamp = (path: string) => statSync(join(root, path)).mtimeMs;
    expect(stamp('dist/bundle-current')).toBeGreaterThanOrEqual(stamp('dist/.build-stamp'));
    expect(current).toMatch(/^bundle-[0-9a-z]+-\d+$/);
  });

  it.each([
    ['TypeScript, from the strategy cache', 'probe.ts', 'cache'],
    ['TypeScript, by tsx (cache off)', 'probe.ts', 'off'],
    ['JavaScript, through the strategy hooks', 'probe.mjs', 'cache'],
  ])("gives a strategy the bundle's framework, rxjs and zod (%s)", (_, module, how) => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-bundle-'));
    writeFileSync(join(dir, module), [...PROBE_IMPORTS, ...PROBE_BODY].join('\n'));
    const env = {
      ...process.env,
      TIQS_RUNNER_CACHE_DIR: how === 'off' ? 'off' : join(dir, 'cache'),
    };
    const first = validate(dir, module, env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.seen).toEqual(ALL_SHARED);
    // A second start: the cached compilation points at the bundle's entries too.
    expect(validate(dir, module, env).seen).toEqual(ALL_SHARED);
  });

  it('boots sweep worker processes from the bundle (dist/<current>/sweep-worker.js)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-bundle-'));
    const spec = join(dir, 'orb.yaml');
    writeFileSync(
      spec,
      readFileSync(join(root, 'backtests/opening-range-breakout.yaml'), 'utf8')
        .replace('data: data/sample-day', `data: ${join(root, 'backtests/data/sample-day')}`)
        .replace('capital: 1000000', 'capital: 1000000\n  to: "2026-11-20T10:00:00+05:30"')
        .replace(/module: \.\.\/strategies\//, `module: ${root}/strategies/`)
        .replace('[5, 15, 30]', '[5, 15]'),
    );
    const run = spawnSync(
      process.execPath,
      [
        join(root, 'bin/tiqs-runner.js'),
        'backtest',
        '--config',
        spec,
        '--sweep',
        '--workers',
        '2',
        '--out',
        join(dir, 'out'),
      ],
      { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(run.stderr).not.toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/);
    expect(run.status).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'out', 'sweep.json'), 'utf8')).results as {
      ok: boolean;
    }[];
    expect(results.map((r) => r.ok)).toEqual([true, true]);
  });

  it('tells the forms apart: run from dist/ (TIQS_RUNNER_BUNDLE=off), the strategy gets dist/', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-bundle-'));
    writeFileSync(join(dir, 'probe.ts'), [...PROBE_IMPORTS, ...PROBE_BODY].join('\n'));
    const off = validate(dir, 'probe.ts', {
      ...process.env,
      TIQS_RUNNER_BUNDLE: 'off',
      TIQS_RUNNER_CACHE_DIR: join(dir, 'cache'),
    });
    expect(off.code).toBe(0);
    expect(off.seen).toEqual({
      held: false,
      source: false,
      package: false,
      backtest: false,
      rxjs: false,
      operators: false,
      zod: false,
    });
    // The same cache folder serves both forms, each its own manifest (no recompiling when
    // they alternate).
    const on = validate(dir, 'probe.ts', {
      ...process.env,
      TIQS_RUNNER_CACHE_DIR: join(dir, 'cache'),
    });
    expect(on.seen).toEqual(ALL_SHARED);
    expect(readdirSync(join(dir, 'cache')).filter((f) => f.endsWith('.json'))).toHaveLength(2);
  });

  // Checked to fail: with typescript-loader.ts back on process.setSourceMapsEnabled(true)
  // (maps of modules loaded after it only), the framework's frame names a bundle chunk,
  // not src/domain/money.ts; with no maps at all, the strategy's names the cache file.
  it.each([
    ['the bundle, strategy from the cache', {}],
    ['dist/ (TIQS_RUNNER_BUNDLE=off), strategy from the cache', { TIQS_RUNNER_BUNDLE: 'off' }],
    ['the bundle, strategy by tsx (cache off)', { TIQS_RUNNER_CACHE_DIR: 'off' }],
  ])("prints stack traces at the strategy's and the framework's source lines (%s)", (_, extra) => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-bundle-'));
    const lines = [
      `import { defineStrategy, parseRupees, z } from ${JSON.stringify(join(root, 'src/index.ts'))};`,
      "import { EMPTY } from 'rxjs';",
      "import { writeFileSync } from 'node:fs';",
      '',
      'function fail(): Error {',
      "  return new Error('from the strategy');",
      '}',
      "let framework = '';",
      'try {',
      "  parseRupees('not money');",
      '} catch (err) {',
      "  framework = (err as Error).stack ?? '';",
      '}',
      'function bad(): string {',
      "  try { Buffer.alloc(-1); } catch (err) { return (err as Error).stack ?? ''; }",
      "  return '';",
      '}',
      'writeFileSync(process.env.PROBE_OUT as string, JSON.stringify({ own: fail().stack, framework, node: bad() }));',
      "export default defineStrategy({ name: 'probe', params: z.object({}), setup: () => EMPTY });",
    ];
    writeFileSync(join(dir, 'probe.ts'), lines.join('\n'));
    const env = { ...process.env, TIQS_RUNNER_CACHE_DIR: join(dir, 'cache'), ...extra };
    for (const round of ['first start', 'second start']) {
      const run = validate(dir, 'probe.ts', env);
      expect(run.code, round).toBe(0);
      const { own, framework, node } = run.seen as {
        own: string;
        framework: string;
        node: string;
      };
      const probe = join(dir, 'probe.ts');
      expect(own.split('\n').slice(0, 2), round).toEqual([
        'Error: from the strategy',
        expect.stringMatching(new RegExp(`^ {4}at fail \\((file://)?${probe}:6:10\\)$`)),
      ]);
      expect(framework.split('\n').slice(0, 3), round).toEqual([
        'MoneyFormatError: not a rupee amount: "not money"',
        expect.stringMatching(
          /^ {4}at parseRupees \((file:\/\/)?\/.*\/src\/domain\/money\.ts:28:\d+\)$/,
        ),
        expect.stringMatching(new RegExp(`^ {4}at (file://)?${probe}:10:3$`)),
      ]);
      // Node's own errors keep Node's first line, code included, and the strategy's lines.
      expect(node.split('\n').slice(0, 3), round).toEqual([
        expect.stringMatching(
          /^RangeError \[ERR_OUT_OF_RANGE\]: The value of "size" is out of range/,
        ),
        expect.stringMatching(/^ {4}at Function\.alloc \(node:buffer:\d+:\d+\)$/),
        expect.stringMatching(new RegExp(`^ {4}at bad \\((file://)?${probe}:15:\\d+\\)$`)),
      ]);
    }
  });
});
