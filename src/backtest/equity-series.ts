import type { EquityColumns, EquityPoint } from './metrics.ts';

/** Columns start this long and double as they fill. */
const FIRST_CAPACITY = 1_024;

/**
 * A backtest's equity curve while it runs: one number column per field (typed arrays),
 * not one object per sample. A month of 60 s samples is about 60 000 points; as objects
 * on the heap they kept the garbage collector's old space (and the process's memory)
 * growing with the length of the run, as columns they are a few flat buffers it never
 * scans. {@link columns} is what the summary and the report read; {@link points} builds
 * the objects for whoever asks for them (`BacktestResult.equity`).
 *
 * Money is in integer paise and times in epoch ms: both are exact in a float64.
 *
 * @example
 * ```ts
 * const curve = new EquitySeries();
 * curve.push({ at, equity, drawdown: 0, exposure: 0, open: true });
 * summarize({ ...rest, equity: curve.columns() });
 * ```
 */
export class EquitySeries {
  private at = new Float64Array(FIRST_CAPACITY);
  private equity = new Float64Array(FIRST_CAPACITY);
  private drawdown = new Float64Array(FIRST_CAPACITY);
  private exposure = new Float64Array(FIRST_CAPACITY);
  private open = new Uint8Array(FIRST_CAPACITY);
  /** Samples taken so far. */
  length = 0;

  /** Appends one sample. */
  push(p: EquityPoint): void {
    if (this.length === this.at.length) this.grow();
    const i = this.length++;
    this.at[i] = p.at;
    this.equity[i] = p.equity;
    this.drawdown[i] = p.drawdown;
    this.exposure[i] = p.exposure;
    this.open[i] = p.open ? 1 : 0;
  }

  /** The samples so far as columns (views of this series' buffers, not copies). */
  columns(): EquityColumns {
    const n = this.length;
    return {
      length: n,
      at: this.at.subarray(0, n),
      equity: this.equity.subarray(0, n),
      drawdown: this.drawdown.subarray(0, n),
      exposure: this.exposure.subarray(0, n),
      open: this.open.subarray(0, n),
    };
  }

  /** The samples as points, oldest first. */
  points(): EquityPoint[] {
    const out: EquityPoint[] = new Array(this.length);
    for (let i = 0; i < this.length; i++) {
      out[i] = {
        at: this.at[i] as number,
        equity: this.equity[i] as number,
        drawdown: this.drawdown[i] as number,
        exposure: this.exposure[i] as number,
        open: this.open[i] === 1,
      };
    }
    return out;
  }

  private grow(): void {
    const size = this.at.length * 2;
    const wider = <T extends Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.at = wider(this.at, (n) => new Float64Array(n));
    this.equity = wider(this.equity, (n) => new Float64Array(n));
    this.drawdown = wider(this.drawdown, (n) => new Float64Array(n));
    this.exposure = wider(this.exposure, (n) => new Float64Array(n));
    this.open = wider(this.open, (n) => new Uint8Array(n));
  }
}
