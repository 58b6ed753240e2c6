import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The compiled framework (dist/, built by the global setup) loading strategies the way the
// CLI does, in a plain `node` child: no tsx registered up front.
const root = resolve('.');
const dist = (path: string) => JSON.stringify(join(root, 'dist', path));

function runNode(script: string, env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: tmpdir(),
    encoding: 'utf8',
    timeout: 20_000,
    env,
  });
}

describe('compiled framework loading strategies', () => {
  // Through the strategy cache (esbuild), and with it off (tsx), as before the cache.
  it.each([
    ['the strategy cache', 'cache'],
    ['tsx', 'off'],
  ])(
    "gives a strategy importing ../src/index.ts or 'tiqs-runner' the running framework's modules (%s)",
    (_, how) => {
      const dir = mkdtempSync(join(tmpdir(), 'tr-compiled-'));
      writeFileSync(
        join(dir, 'probe.ts'),
        [
          `import { defineStrategy, TradingCalendar, z } from ${JSON.stringify(join(root, 'src/index.ts'))};`,
          "import * as pkg from 'tiqs-runner';",
          "import { EMPTY } from 'rxjs';",
          "const definition = defineStrategy({ name: 'probe', params: z.object({ n: z.number().default(1) }), setup: () => EMPTY });",
          'export default Object.assign(definition, { fromSource: TradingCalendar, fromPackage: pkg.TradingCalendar });',
        ].join('\n'),
      );
      writeFileSync(join(dir, 'plain.mjs'), "export default { name: 'plain' };\n");
      const out = runNode(
        `
      const { loadStrategy, StrategyLoadError } = await import(${dist('strategy/load-strategy.js')});
      const { TradingCalendar } = await import(${dist('calendar/trading-calendar.js')});
      // A JavaScript module first: the hooks go in before tsx, and must still win after it.
      const plain = await loadStrategy('plain', ${JSON.stringify(join(dir, 'plain.mjs'))}, {}, '/').catch((e) => e);
      const loaded = await loadStrategy('p', ${JSON.stringify(join(dir, 'probe.ts'))}, {}, '/');
      const mod = loaded.definition;
      console.log(JSON.stringify({
        plainRejected: plain instanceof StrategyLoadError,
        params: loaded.params,
        sameFromSource: mod.fromSource === TradingCalendar,
        sameFromPackage: mod.fromPackage === TradingCalendar,
      }));
    `,
        { ...process.env, TIQS_RUNNER_CACHE_DIR: how === 'off' ? 'off' : join(dir, 'cache') },
      );
      expect(JSON.parse(out.trim())).toEqual({
        plainRejected: true,
        params: { n: 1 },
        sameFromSource: true,
        sameFromPackage: true,
      });
    },
  );

  it('loads the shipped TypeScript strategies', () => {
    const out = runNode(`
      const { loadStrategy } = await import(${dist('strategy/load-strategy.js')});
      const names = [];
      for (const f of ['sma-crossover', 'opening-range-breakout', 'index-short-straddle'])
        names.push((await loadStrategy(f, ${JSON.stringify(join(root, 'strategies'))} + '/' + f + '.ts', {}, '/')).definition.name);
      console.log(names.join(','));
    `);
    expect(out.trim().split(',')).toHaveLength(3);
  });
});
