import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { EXIT } from '../exit-codes.ts';

// Both templates are biome-formatted as written (test/cli/new-strategy-output.test.ts
// checks the output with the formatter, the linter and the compiler).
const strategyTemplate = (name: string) => `import { mergeMap, type Observable } from 'rxjs';
import { defineStrategy, type OrderIntent, z } from '../src/index.ts';

const params = z.object({
  exchange: z.enum(['NSE', 'BSE']).default('NSE'),
  symbol: z.string().default('SBIN-EQ'),
  /** Long while 1m candles close below this many paise, flat when one closes above it. */
  buyBelow: z.number().int().positive().default(80_000),
  quantity: z.number().int().positive().default(1),
});

/** ${name}: describe what it does. */
export default defineStrategy({
  name: '${name}',
  params,
  setup(ctx): Observable<OrderIntent> {
    const p = ctx.params;
    const instrument = ctx.instruments.lookup({ exchange: p.exchange, symbol: p.symbol });
    if (instrument === undefined) throw new Error(\`\${p.symbol} is not in the instrument master\`);
    return ctx.market.candles$(instrument.token, '1m', { history: 1 }).pipe(
      mergeMap((candle) => {
        ctx.plot('close', candle.close);
        const quantity = candle.close < p.buyBelow ? p.quantity : 0;
        // The position wanted; ctx.intents.target sends only what it takes to get there.
        return ctx.intents.target({ instrument, quantity, product: 'I' });
      }),
    );
  },
});
`;

const testTemplate = (name: string) => `import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTestContext, type OrderIntent, TradingCalendar } from '../src/index.ts';
import strategy from './${name}.ts';

const calendar = TradingCalendar.fromHolidays(
  JSON.parse(readFileSync('test/fixtures/holidays-2026.json', 'utf8')),
);
const SBIN = { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ', lotSize: 1, tickSize: 5 } as const;

describe('${name}', () => {
  it('goes long when a candle closes below the threshold', async () => {
    const params = strategy.params.parse({ buyBelow: 80_000, quantity: 2 });
    const t = createTestContext({
      strategyId: '${name}',
      params,
      calendar,
      start: Date.parse('2026-11-20T09:15:00+05:30'),
      instruments: [SBIN],
    });
    const intents: OrderIntent[] = [];
    strategy.setup(t.ctx).subscribe((i) => intents.push(i));
    for (const [i, ltp] of [80_500, 79_900].entries()) {
      const quote = { token: 3045, open: ltp, high: ltp, low: ltp, close: ltp, ltt: 0, oi: 0 };
      t.pushQuote({ ...quote, ltp, volume: 10 * (i + 1) });
      await t.clock.advanceByAsync(60_000); // the candle closes at its end
    }
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({ kind: 'place', side: 'B', quantity: 2 });
  });
});
`;

/** `tiqs-runner new-strategy NAME`: scaffolds a strategy and its virtual-time test. */
export function newStrategyCommand(): Command {
  return new Command('new-strategy')
    .description('Scaffold a strategy plugin and its test in strategies/')
    .argument('<name>', 'kebab-case name, e.g. mean-reversion')
    .option('-d, --dir <dir>', 'folder to write into', 'strategies')
    .action(async (name: string, opts: { dir: string }) => {
      if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) {
        process.stderr.write(`new-strategy: "${name}" is not kebab-case (e.g. mean-reversion)\n`);
        process.exitCode = EXIT.usage;
        return;
      }
      const file = join(opts.dir, `${name}.ts`);
      const test = join(opts.dir, `${name}.test.ts`);
      if (existsSync(file) || existsSync(test)) {
        process.stderr.write(`new-strategy: ${file} or its test exists already; nothing written\n`);
        process.exitCode = EXIT.failure;
        return;
      }
      await mkdir(opts.dir, { recursive: true });
      await writeFile(file, strategyTemplate(name));
      await writeFile(test, testTemplate(name));
      process.stdout.write(
        `wrote ${file} and ${test}\nadd it to a config:\n  strategies:\n    - id: ${name}\n      module: ${file}\n`,
      );
    });
}
