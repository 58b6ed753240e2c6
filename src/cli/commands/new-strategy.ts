import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { EXIT } from '../exit-codes.ts';

const strategyTemplate = (
  name: string,
) => `import { filter, map, type Observable, take } from 'rxjs';
import { defineStrategy, type Instrument, type OrderIntent, z } from '../src/index.ts';

const params = z.object({
  token: z.number().int().positive().default(3045),
  symbol: z.string().default('SBIN-EQ'),
  /** Buy once when the LTP falls below this many paise. */
  buyBelow: z.number().int().positive().default(80_000),
  quantity: z.number().int().positive().default(1),
});

/** ${name}: describe what it does. */
export default defineStrategy({
  name: '${name}',
  params,
  setup(ctx): Observable<OrderIntent> {
    const p = ctx.params;
    const instrument: Instrument = { exchange: 'NSE', token: p.token, symbol: p.symbol };
    return ctx.market.quote$(p.token, 'ltp').pipe(
      filter((q) => q.quote.ltp < p.buyBelow),
      take(1),
      map(() => ctx.intents.place({ instrument, side: 'B', quantity: p.quantity, orderType: 'MKT', product: 'I' })),
    );
  },
});
`;

const testTemplate = (name: string) => `import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTestContext, type OrderIntent, TradingCalendar } from '../src/index.ts';
import strategy from './${name}.ts';

const calendar = TradingCalendar.fromHolidays(JSON.parse(readFileSync('test/fixtures/holidays-2026.json', 'utf8')));

describe('${name}', () => {
  it('buys once when the price falls below the threshold', () => {
    const params = strategy.params.parse({ buyBelow: 80_000, quantity: 2 });
    const t = createTestContext({ strategyId: '${name}', params, calendar, start: Date.parse('2026-11-20T09:15:00+05:30') });
    const intents: OrderIntent[] = [];
    strategy.setup(t.ctx).subscribe((i) => intents.push(i));
    t.pushQuote({ token: 3045, ltp: 80_500, close: 80_000 }, 'ltp');
    t.clock.advanceBy(1_000);
    t.pushQuote({ token: 3045, ltp: 79_900, close: 80_000 }, 'ltp');
    t.pushQuote({ token: 3045, ltp: 79_800, close: 80_000 }, 'ltp');
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
