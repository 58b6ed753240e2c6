import { readFileSync } from 'node:fs';
import type { Subscription } from 'rxjs';
import type { MarketFeed } from '../../market-data/market-feed.ts';
import type { Kernel } from '../../runtime/kernel.ts';
import type { BacktestSpec } from '../backtest-spec.ts';
import { type PriceBars, PriceSampler } from '../price-sampler.ts';
import { redactParams, redactSpec } from './redact-spec.ts';

/** One instrument's one-minute bars, named. */
export type InstrumentBars = PriceBars & { symbol: string };

/** What a run collects for its report beyond trades and equity. */
export interface ReportInputs {
  /** One-minute OHLC bars of every instrument followed or traded, and the benchmark's. */
  prices: InstrumentBars[];
  /** Token bought and held for comparison (`backtest.benchmark`, else the first traded). */
  benchmarkToken: number | undefined;
  /** Strategy id → the params it ran with (its schema's defaults, the spec's, the sweep's). */
  effectiveParams: Record<string, unknown>;
  /** Strategy id → the params the spec file writes (before a sweep point): the rest are defaults. */
  specParams: Record<string, Record<string, unknown>>;
  /** What was replayed: a tick recording (fills against its depth) or candles (the bar fill model). */
  dataKind: 'ticks' | 'candles';
  /** The spec file and its text as written, secrets masked (undefined if unreadable). */
  spec: { file: string; text: string | undefined };
}

/**
 * Collects a backtest's {@link ReportInputs} while it runs: a {@link PriceSampler} over
 * the replayed market joins each token as the run starts following it (checked at every
 * equity sample) or orders in it, and each fill splits its token's bar.
 *
 * @example
 * ```ts
 * const inputs = new ReportInputsCollector(spec, kernel, market);
 * await kernel.start();
 * inputs.attach();
 * // … replay, calling inputs.sample() at each equity sample …
 * return { ...result, ...inputs.finish() };
 * ```
 */
export class ReportInputsCollector {
  private readonly sampler: PriceSampler;
  private readonly subs: Subscription[] = [];
  private readonly waiting = new Set<number>();
  /** Order (strategy, intent) → token, until it ends: fills name only the intent. */
  private readonly orderTokens = new Map<string, number>();
  private known = 0;
  private firstTraded: number | undefined;

  constructor(
    private readonly spec: BacktestSpec,
    private readonly kernel: Kernel,
    private readonly market: MarketFeed,
    private readonly dataKind: 'ticks' | 'candles' = 'ticks',
  ) {
    this.sampler = new PriceSampler(market);
  }

  /** Starts sampling; call after the kernel started (its strategies subscribed). */
  attach(): void {
    const benchmark = this.spec.backtest.benchmark;
    if (benchmark !== undefined) this.sampler.follow(benchmark, true);
    this.sample();
    this.subs.push(
      this.kernel.engine.events$.subscribe((e) => {
        const key = `${e.strategyId}\u0000${e.intentId}`;
        if (e.type === 'OrderSubmitted') {
          const token = e.intent.instrument.token;
          this.orderTokens.set(key, token);
          if (!this.sampler.follow(token)) this.waiting.add(token);
        } else if (e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled') {
          const token = this.orderTokens.get(key);
          if (token !== undefined) {
            this.firstTraded ??= token;
            this.sampler.split(token);
          }
          if (e.type === 'OrderFilled') this.orderTokens.delete(key);
        } else if (e.type === 'OrderCancelled' || e.type === 'OrderRejected') {
          this.orderTokens.delete(key);
        }
      }),
    );
  }

  /** Joins tokens the run has started following since the last call. */
  sample(): void {
    const tokens = this.market.quoteTokenList();
    if (tokens.length !== this.known) {
      this.known = tokens.length;
      for (const t of tokens) if (!this.sampler.follow(t)) this.waiting.add(t);
    }
    for (const t of this.waiting) if (this.sampler.follow(t)) this.waiting.delete(t);
  }

  /** Stops sampling and returns what was collected. */
  finish(): ReportInputs {
    for (const s of this.subs.splice(0)) s.unsubscribe();
    this.sampler.stop();
    const symbolOf = (token: number): string =>
      this.kernel.instruments.byToken(token)?.symbol ?? String(token);
    return {
      prices: this.sampler.bars().map((b) => ({ ...b, symbol: symbolOf(b.token) })),
      benchmarkToken: this.spec.backtest.benchmark ?? this.firstTraded,
      // Secrets never reach the report: a strategy's `apiKey` string is masked like the spec's.
      effectiveParams: redactParams(this.kernel.strategyParams()) as Record<string, unknown>,
      specParams: redactParams(
        Object.fromEntries(this.spec.config.strategies.map((s) => [s.id, s.params])),
      ) as Record<string, Record<string, unknown>>,
      dataKind: this.dataKind,
      spec: { file: this.spec.file, text: specText(this.spec.file) },
    };
  }
}

function specText(file: string): string | undefined {
  try {
    return redactSpec(readFileSync(file, 'utf8'));
  } catch {
    // A spec built in code (tests, sweeps from a remote runner) has no file to show.
    return undefined;
  }
}
