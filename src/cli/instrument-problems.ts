import type { RunnerConfig } from '../config/config-schema.ts';
import { EXCHANGES, type Exchange } from '../domain/order-params.ts';
import type { InstrumentLookup } from '../market-data/instruments/instrument-master.ts';

/** One config value that does not match the instrument master. */
export interface InstrumentProblem {
  /** Field path in the config, e.g. `strategies[1].params.token`. */
  path: string;
  message: string;
}

type Params = Readonly<Record<string, unknown>>;

const isRecord = (v: unknown): v is Params =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A token-like value: a positive integer, or its digits as text. */
function tokenOf(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

const exchangeOf = (v: unknown): Exchange | undefined =>
  EXCHANGES.find((e) => typeof v === 'string' && e === v.toUpperCase());

/** Keys that name a token: `token`, and `…Token` (`underlyingToken`). */
const isTokenKey = (key: string): boolean => key === 'token' || /[a-z]Token$/.test(key);

/**
 * Checks what a config names against the instrument master, by the names configs use:
 * in each strategy's params (defaults applied) and at any depth, a `token` with a
 * `symbol` beside it must be that symbol's token (on the sibling `exchange`, if any);
 * a `token`, `…Token` or `tokens` entry must exist; a `symbol` alone must exist on its
 * `exchange` (or any). `recording.instruments` tokens must exist too.
 *
 * @example
 * ```ts
 * instrumentProblems(config, [{ index: 0, params }], master);
 * // [{ path: 'strategies[0].params.token', message: '2885 is RELIANCE-EQ on NSE, not "SBIN-EQ"' }]
 * ```
 */
export function instrumentProblems(
  config: Pick<RunnerConfig, 'recording'>,
  strategies: ReadonlyArray<{ index: number; params: unknown }>,
  master: InstrumentLookup,
): InstrumentProblem[] {
  const problems: InstrumentProblem[] = [];
  const report = (path: string, message: string): void => {
    problems.push({ path, message });
  };
  const mustExist = (path: string, token: number, exchange?: Exchange) => {
    if (master.byToken(token, exchange) === undefined) {
      report(
        path,
        `token ${token} is not in the instrument master${exchange ? ` on ${exchange}` : ''}`,
      );
    }
  };

  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) walk(v, `${path}[${i}]`);
      return;
    }
    if (!isRecord(value)) return;
    const exchange = exchangeOf(value.exchange);
    const token = tokenOf(value.token);
    const symbol = typeof value.symbol === 'string' ? value.symbol : undefined;
    if (token !== undefined && symbol !== undefined) {
      const inst = master.byToken(token, exchange);
      if (inst === undefined) mustExist(`${path}.token`, token, exchange);
      else if (inst.symbol.toUpperCase() !== symbol.toUpperCase()) {
        report(
          `${path}.symbol`,
          `token ${token} is ${inst.symbol} on ${inst.exchange} in the instrument master, not "${symbol}"`,
        );
      }
    } else if (symbol !== undefined) {
      const on = exchange === undefined ? EXCHANGES : [exchange];
      if (on.every((e) => master.lookup({ exchange: e, symbol }) === undefined)) {
        report(
          `${path}.symbol`,
          `symbol "${symbol}" is not in the instrument master${exchange ? ` on ${exchange}` : ''}`,
        );
      }
    }
    for (const [key, v] of Object.entries(value)) {
      const at = `${path}.${key}`;
      if (key === 'token' && symbol !== undefined) continue;
      const t = isTokenKey(key) ? tokenOf(v) : undefined;
      if (t !== undefined) mustExist(at, t, key === 'token' ? exchange : undefined);
      else if (key === 'tokens' && Array.isArray(v)) {
        for (const [i, x] of v.entries()) {
          const tt = tokenOf(x);
          if (tt !== undefined) mustExist(`${at}[${i}]`, tt);
        }
      } else walk(v, at);
    }
  };

  for (const s of strategies) walk(s.params, `strategies[${s.index}].params`);
  for (const [i, r] of config.recording.instruments.entries()) {
    mustExist(`recording.instruments[${i}].token`, r.token);
  }
  return problems;
}
