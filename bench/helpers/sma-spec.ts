/**
 * A copy of backtests/sma-crossover.yaml for a bench: its data, report folder and
 * strategy module made absolute, the log silenced, and optionally another sweep grid.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The shipped SMA-crossover spec the benches run. */
const SMA_SPEC = resolve('backtests/sma-crossover.yaml');

/** Where and how the bench's copy of the spec runs. */
export interface SmaSpecOptions {
  /** Recording folder (or folder of recordings) to replay. */
  data: string;
  /** Report folder. */
  out: string;
  /** Replaces the spec's `sma.slow` sweep values (the grid is `sma.fast` × `sma.slow`). */
  slowValues?: readonly number[];
}

/**
 * Writes the spec to `file` and returns `file`.
 *
 * @example
 * ```ts
 * const spec = writeSmaSpec(join(work, 'spec.yaml'), { data: many, out: join(work, 'out') });
 * ```
 */
export function writeSmaSpec(file: string, options: SmaSpecOptions): string {
  let text = readFileSync(SMA_SPEC, 'utf8')
    .replace(
      'data: data/sample-day',
      `data: ${options.data}\n  out: ${options.out}\n  logLevel: silent`,
    )
    .replace('../strategies/', `${resolve('strategies')}/`);
  if (options.slowValues !== undefined) {
    const before = text;
    text = text.replace(/sma\.slow: \[[^\]]*\]/, `sma.slow: [${options.slowValues.join(', ')}]`);
    if (text === before) throw new Error(`${SMA_SPEC}: no sma.slow sweep values to replace`);
  }
  writeFileSync(file, text);
  return file;
}
