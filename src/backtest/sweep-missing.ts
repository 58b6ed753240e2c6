import type { SweepMissingToken, SweepResult } from './sweep-protocol.ts';

/** A failed sweep result that stopped because the data lacks tokens its strategies follow. */
type MissingFailure = Extract<SweepResult, { ok: false }> & { reason: 'missing-data' };

const named = (t: SweepMissingToken): string =>
  t.symbol === undefined ? String(t.token) : `${t.token} (${t.symbol})`;

/**
 * Thrown by `runSweep`, before it writes anything, when runs stopped because their
 * strategies subscribe to tokens the data lacks (exit 3 from the CLI): a sweep over
 * `symbol` can lack different tokens in different runs, so the message names the union of
 * the missing tokens, then each failing run's params and tokens, then what the data holds.
 */
export class SweepMissingDataError extends Error {
  override readonly name = 'SweepMissingDataError';

  /**
   * @param failures the runs that stopped for missing data, in job order
   * @param runs how many runs the sweep had
   */
  constructor(
    readonly failures: readonly MissingFailure[],
    readonly runs: number,
  ) {
    super(describe(failures, runs));
  }

  /** The runs of `results` that stopped for missing data, or undefined when none did. */
  static of(results: readonly SweepResult[]): SweepMissingDataError | undefined {
    const failures = results
      .filter((r): r is MissingFailure => !r.ok && r.reason === 'missing-data')
      .sort((a, b) => a.id - b.id);
    return failures.length === 0 ? undefined : new SweepMissingDataError(failures, results.length);
  }
}

function describe(failures: readonly MissingFailure[], runs: number): string {
  const union = new Map<number, SweepMissingToken>();
  for (const f of failures) for (const t of f.missing ?? []) union.set(t.token, t);
  const tokens = [...union.values()].sort((a, b) => a.token - b.token);
  const perRun = failures.map((f) => {
    const params = Object.entries(f.params)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(' ');
    return `  #${f.id} ${params}: ${(f.missing ?? []).map(named).join(', ')}`;
  });
  // What the data holds: the same for every run (one data folder), as the run's error says it.
  const holds = failures[0]?.error.split('\n').find((l) => l.startsWith('the data ('));
  return [
    `${failures.length} of ${runs} sweep run(s) stopped: strategies subscribe to ${tokens.length} token(s) the backtest data does not hold: ${tokens.map(named).join(', ')}`,
    ...perRun,
    ...(holds === undefined ? [] : [holds]),
    'nothing was written',
  ].join('\n');
}
