/**
 * Replay throughput in quote events per second, one core, decoding included, of the
 * path `tiqs-runner backtest` runs, against a bare decode loop over the same bytes in
 * the same run:
 *
 * - baseline: a bare loop that decodes every record of the file into its wire object
 *   and sums the LTPs;
 * - backtest: `runBacktest` (what the command calls) with strategies/sma-crossover.ts
 *   unchanged: the kernel with a virtual clock, the `ReplayMarket` pushing every record
 *   at its instant, the calendar and its schedules, risk checks, the execution engine
 *   and its order tracker, the paper broker's order engine filling against the recorded
 *   depth, the trade ledger and the metrics. Timed from the call to the result, so the
 *   recording's load, the kernel's build and start-up and the report's numbers count.
 *
 * Best of 5 rounds each; the first backtest round, which also imports the strategy
 * module, is printed too.
 *
 * The data: one simulated session at 1 s, SBIN in full mode (depth for fills) plus 7
 * equities/indexes and 20 NIFTY options in ltp mode — about 630 000 records. Exits
 * non-zero when the backtest path is under 1 M events/s.
 *
 * Run: npm run bench -- backtest-replay
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { backtestSectionSchema } from '../src/backtest/backtest-spec.ts';
import { runBacktest } from '../src/backtest/run-backtest.ts';
import { VirtualClock } from '../src/clock/virtual-clock.ts';
import { parseConfig } from '../src/config/load-config.ts';
import { RecordReader } from '../src/recording/record-reader.ts';
import { RecordWriter } from '../src/recording/record-writer.ts';
import type { RecordingMeta } from '../src/recording/recording-meta.ts';
import { SimExchange } from '../src/sim/sim-exchange.ts';

const OPEN = Date.parse('2026-11-20T09:14:00+05:30');
const CLOSE = Date.parse('2026-11-20T15:31:00+05:30');
const ROUNDS = 5;
const TARGET = 1_000_000;

/** Records the bench day into a recording folder; returns its bytes too. */
function record(dir: string): { bytes: Uint8Array; records: number } {
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
  const meta: RecordingMeta = {
    format: 'tiqs-runner-recording',
    version: 1,
    quoteFile: 'quotes.bin',
    startMs: OPEN,
    endMs: CLOSE,
    start: new Date(OPEN).toISOString(),
    end: new Date(CLOSE).toISOString(),
    records: w.records,
    holidays: ex.holidays(),
    chainSymbols: [],
    chains: [],
  };
  writeFileSync(join(dir, 'quotes.bin'), bytes);
  writeFileSync(join(dir, 'meta.json'), JSON.stringify(meta));
  return { bytes, records: w.records };
}

let sink = 0;

function baseline(bytes: Uint8Array): { ns: number; events: number } {
  const t0 = process.hrtime.bigint();
  const r = new RecordReader(bytes);
  let events = 0;
  while (r.next()) {
    events += 1;
    if (r.kind === 'greeks') sink += r.greeks().delta;
    else sink += r.quote().ltp;
  }
  return { ns: Number(process.hrtime.bigint() - t0), events };
}

const dir = mkdtempSync(join(tmpdir(), 'tr-bench-replay-'));
const data = record(dir);
const config = parseConfig(
  `
mode: paper
strategies:
  - id: sma
    module: ../test/fixtures/strategies/legacy-sma-crossover.ts
    params: { fast: 5, slow: 20, barSeconds: 60, quantity: 10 }
paper: { latencyMs: 250, slippageTicks: 0 }
state: { dir: ${join(dir, 'state')} }
logging: { level: silent, summaryIntervalSeconds: 0 }
`,
  'backtests/bench.yaml',
  {},
);
const spec = {
  file: resolve('backtests/bench.yaml'),
  name: 'bench',
  projectDir: process.cwd(),
  config,
  backtest: backtestSectionSchema.parse({ data: dir, logLevel: 'silent' }),
};

async function backtest(): Promise<{ ns: number; events: number; fills: number }> {
  const t0 = process.hrtime.bigint();
  const result = await runBacktest(spec);
  const ns = Number(process.hrtime.bigint() - t0);
  return { ns, events: result.summary.quoteEvents, fills: result.fills.length };
}

const perSecond = (events: number, ns: number): number => (events / ns) * 1e9;
const fmt = (x: number): string => `${(x / 1e6).toFixed(2)} M/s`;

console.log(
  `data: ${data.records} records, ${(data.bytes.length / 1e6).toFixed(1)} MB, one session at 1 s`,
);
let bestBase = 0;
let bestPath = 0;
let coldPath = 0;
let fills = 0;
let events = 0;
try {
  for (let i = 0; i < ROUNDS; i++) {
    globalThis.gc?.();
    const b = baseline(data.bytes);
    bestBase = Math.max(bestBase, perSecond(b.events, b.ns));
    globalThis.gc?.();
    const p = await backtest();
    bestPath = Math.max(bestPath, perSecond(p.events, p.ns));
    if (i === 0) coldPath = perSecond(p.events, p.ns);
    fills = p.fills;
    events = p.events;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (events !== data.records) throw new Error(`backtest saw ${events} of ${data.records} records`);

console.log(`baseline  bare decode loop                      ${fmt(bestBase)}`);
console.log(`backtest  runBacktest: kernel+sma+risk+paper    ${fmt(bestPath)}  (${fills} fills)`);
console.log(`cold      first round (imports the strategy)    ${fmt(coldPath)}`);
console.log(`ratio     backtest / baseline                   ${(bestPath / bestBase).toFixed(3)}`);
const met = bestPath >= TARGET;
console.log(`target    ≥ 1 M events/s on one core: ${met ? 'met' : 'NOT met'}`);
if (sink === 42) console.log('');
if (!met) process.exitCode = 1;
