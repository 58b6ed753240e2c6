/**
 * Replay throughput in quote events per second, one core, decoding included:
 *
 * - baseline: a bare loop that decodes every record of the same bytes into its wire
 *   object and sums the LTPs;
 * - pipeline: decode → fan-out to strategy streams → strategies/sma-crossover.ts
 *   (unchanged, on a virtual clock with the calendar's schedules) → simulated execution
 *   with the simulator's order engine against the recorded depth (FastReplay);
 * - kernel: `tiqs-runner backtest` on the sample day (bus polling, order tracking,
 *   calendar store: the fidelity path), for scale; its events are the quotes the replay
 *   served to the bus's polls.
 *
 * The data: one simulated session at 1 s, SBIN in full mode (depth for fills) plus 7
 * equities/indexes and 20 NIFTY options in ltp mode — about 630 000 records.
 *
 * Run: node --expose-gc --import tsx bench/backtest-replay.bench.ts
 */

import pino from 'pino';
import { loadBacktestSpec } from '../src/backtest/backtest-spec.ts';
import { FastReplay } from '../src/backtest/fast-replay.ts';
import type { Recording } from '../src/backtest/read-recording.ts';
import { RecordReader } from '../src/backtest/record-reader.ts';
import { RecordWriter } from '../src/backtest/record-writer.ts';
import { runBacktest } from '../src/backtest/run-backtest.ts';
import { VirtualClock } from '../src/clock/virtual-clock.ts';
import { SimExchange } from '../src/sim/sim-exchange.ts';
import { loadStrategy } from '../src/strategy/load-strategy.ts';

const OPEN = Date.parse('2026-11-20T09:14:00+05:30');
const CLOSE = Date.parse('2026-11-20T15:31:00+05:30');
const ROUNDS = 5;
const silent = pino({ level: 'silent' });

function record(): Recording {
  const clock = new VirtualClock(OPEN);
  const ex = new SimExchange({ clock, seed: 7 });
  const ltpTokens = [2885, 1333, 1594, 4963, 11536, 26000, 26009];
  const options = ex.market.universe
    .optionsOf(26000)
    .slice(0, 20)
    .map((o) => o.token);
  const w = new RecordWriter(OPEN);
  for (let t = OPEN; t <= CLOSE; t += 1_000) {
    clock.advanceTo(t);
    for (const q of ex.quotes('full', [3045])) w.quote('full', q, t);
    for (const q of ex.quotes('ltp', [...ltpTokens, ...options])) w.quote('ltp', q, t);
  }
  const bytes = w.bytes();
  return {
    dir: 'bench',
    bytes,
    meta: {
      format: 'tiqs-runner-recording',
      version: 1,
      quoteFile: 'quotes.bin',
      startMs: OPEN,
      endMs: CLOSE,
      start: '',
      end: '',
      records: w.records,
      holidays: ex.holidays(),
      chainSymbols: [],
      chains: [],
    },
  };
}

let sink = 0;

function baseline(rec: Recording): { ns: number; events: number } {
  const t0 = process.hrtime.bigint();
  const r = new RecordReader(rec.bytes);
  let events = 0;
  while (r.next()) {
    events += 1;
    if (r.kind === 'greeks') sink += r.greeks().delta;
    else sink += r.quote().ltp;
  }
  return { ns: Number(process.hrtime.bigint() - t0), events };
}

async function pipeline(rec: Recording): Promise<{ ns: number; events: number; fills: number }> {
  const sma = await loadStrategy(
    'sma',
    'strategies/sma-crossover.ts',
    { fast: 5, slow: 20, barSeconds: 60, quantity: 10 },
    process.cwd(),
  );
  const replay = new FastReplay(rec, [sma], silent);
  const t0 = process.hrtime.bigint();
  const stats = replay.run();
  return { ns: Number(process.hrtime.bigint() - t0), events: stats.events, fills: stats.fills };
}

const perSecond = (events: number, ns: number): number => (events / ns) * 1e9;
const fmt = (x: number): string => `${(x / 1e6).toFixed(2)} M/s`;

const rec = record();
console.log(
  `data: ${rec.meta.records} records, ${(rec.bytes.length / 1e6).toFixed(1)} MB, one session at 1 s`,
);
let bestBase = 0;
let bestPipe = 0;
let fills = 0;
for (let i = 0; i < ROUNDS; i++) {
  globalThis.gc?.();
  const b = baseline(rec);
  bestBase = Math.max(bestBase, perSecond(b.events, b.ns));
  globalThis.gc?.();
  const p = await pipeline(rec);
  bestPipe = Math.max(bestPipe, perSecond(p.events, p.ns));
  fills = p.fills;
}
const spec = await loadBacktestSpec('backtests/sma-crossover.yaml');
const k = await runBacktest(spec);
const kernelRate = k.summary.quoteEvents / (k.elapsedMs / 1_000);

console.log(`baseline  bare decode loop              ${fmt(bestBase)}`);
console.log(`pipeline  decode+fan-out+sma+execution  ${fmt(bestPipe)}  (${fills} fills)`);
console.log(`ratio     pipeline / baseline           ${(bestPipe / bestBase).toFixed(3)}`);
console.log(
  `kernel    tiqs-runner backtest, sample   ${(kernelRate / 1e3).toFixed(1)} k/s  (${k.summary.quoteEvents} polled events in ${k.elapsedMs} ms: ${Math.round((k.summary.endMs - k.summary.startMs) / k.elapsedMs)}× real time; poll-driven, see docs/backtests.md)`,
);
console.log(`target    ≥ 1 M events/s on one core: ${bestPipe >= 1e6 ? 'met' : 'NOT met'}`);
if (sink === 42) console.log('');
