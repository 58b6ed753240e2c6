/**
 * The whole-process floor of bench/backtest-process.bench.ts: a TypeScript script that
 * opens the recording named by its argument with the project's reader, decodes every
 * record and runs the SMA crossover by hand, then prints what it saw as JSON. It is
 * loaded by ./run-like-strategy.mjs the way the CLI loads a strategy file, so its import
 * of `src/recording/recording-set.ts` loads the compiled reader from `dist/`, as the CLI's
 * does.
 */

import { openRecordings } from '../../src/recording/recording-set.ts';
import { smaCrossoverFloor } from './sma-floor.ts';

/** Reads and decodes `argv[0]`, a recording folder, and prints `{records, crossings}`. */
export async function main(argv: readonly string[]): Promise<number> {
  const data = argv[0];
  if (data === undefined) {
    process.stderr.write('usage: process-floor.ts <recording folder>\n');
    return 2;
  }
  const count = await smaCrossoverFloor(await openRecordings(data));
  process.stdout.write(`${JSON.stringify(count)}\n`);
  return 0;
}
