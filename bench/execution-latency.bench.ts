/**
 * Tick-to-request latency: from a quote reaching the bus to the order's HTTP request
 * leaving, through a strategy, risk and execution, against the simulator over loopback
 * with no added latency. Baseline in the same run: the bare client call (pacer, ky)
 * from the same starting point. Reports p50 and p99 of both and the framework overhead
 * (the difference); target p99 overhead < 1 ms, with at least 1,000 orders already in the
 * day's book (the tracker reads the whole book every poll).
 *
 * Run: node --expose-gc --import tsx bench/execution-latency.bench.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { firstValueFrom, map, Subject } from 'rxjs';
import { TiqsClient } from '../src/api/tiqs-client.ts';
import { VirtualClock } from '../src/clock/virtual-clock.ts';
import type { PlaceIntent } from '../src/domain/intents.ts';
import { ExecutionEngine } from '../src/execution/execution-engine.ts';
import { MemoryJournal } from '../src/execution/journal.ts';
import { SqliteJournal } from '../src/execution/sqlite-journal.ts';
import { toPlaceRequest } from '../src/execution/wire-order.ts';
import { MarketDataBus } from '../src/market-data/market-data-bus.ts';
import { fakeQuoteSource } from '../src/market-data/testing/fake-quote-source.ts';

const TICKS = Number(process.env.BENCH_TICKS ?? 3_000);
const WARMUP = Math.min(300, Math.floor(TICKS / 10));
const logger = pino({ level: 'silent' });
// The simulator runs in its own process, as the service would: its work and garbage
// must not land in the measured process's heap.
const simProcess = spawn(
  process.execPath,
  ['bin/tiqs-runner.js', 'sim', '--port', '0', '--always-open', '--no-rate-limits', '--seed', '1'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const simUrl = await new Promise<string>((resolve, reject) => {
  let out = '';
  simProcess.stdout.on('data', (chunk) => {
    out += String(chunk);
    const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
    if (m) resolve(m[0]);
  });
  simProcess.on('exit', (code) => reject(new Error(`simulator exited (${code})`)));
});
const sim = { url: simUrl, close: async () => void simProcess.kill('SIGTERM') };

let sentAt = 0;
const timedFetch: typeof fetch = (input, init) => {
  sentAt = performance.now();
  return fetch(input, init);
};
const clock = new VirtualClock(Date.parse('2026-11-20T04:00:00Z'));
const unlimited = {
  quote: [{ limit: 1e9, intervalMs: 1_000 }],
  order: [{ limit: 1e9, intervalMs: 1_000 }],
  other: [{ limit: 1e9, intervalMs: 1_000 }],
  modificationsPerOrder: 25,
};
const client = new TiqsClient({
  baseUrl: sim.url,
  appId: 'sim-app',
  token: 'sim-token',
  clock,
  fetch: timedFetch,
  rateLimits: unlimited,
});

const intentFor = (i: number): PlaceIntent => ({
  kind: 'place',
  id: `p${i}`,
  instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
  side: i % 2 === 0 ? 'B' : 'S',
  quantity: 1,
  orderType: 'MKT',
  product: 'I',
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

// Baseline: the bare client call, from the call to the request leaving.
const baseline: number[] = [];
for (let i = 0; i < TICKS + WARMUP; i++) {
  const request = toPlaceRequest(intentFor(i), `b-${i}`, false);
  const t0 = performance.now();
  await client.placeOrder('regular', request);
  if (i >= WARMUP) baseline.push(sentAt - t0);
}

// The day's book holds at least 1,000 orders before the framework runs (the service
// allows 3,000 a day): every tracker poll reads the whole book, so a path whose cost grew
// with the day's orders would show here. The baseline's orders count; top up if short.
const PRIOR_ORDERS = 1_000;
for (let i = baseline.length + WARMUP; i < PRIOR_ORDERS; i++) {
  await client.placeOrder('regular', toPlaceRequest(intentFor(i), `b-${i}`, false));
}
const priorOrders = (await client.orderBook()).length;
if (priorOrders < PRIOR_ORDERS) throw new Error(`only ${priorOrders} orders in the day's book`);

// Framework: quote polled into the bus -> strategy -> risk -> execution -> client.
const source = fakeQuoteSource(clock, clock.now(), {
  ltp: (_token, at) => 80_000 + (Math.floor(at / 1_000) % 50) * 5,
  record: false,
});
const bus = new MarketDataBus({ source, clock, logger, intervalMs: 1_000 });
// The real journal: every placement is written to SQLite before it is sent.
const journal =
  process.env.BENCH_JOURNAL === 'memory'
    ? new MemoryJournal()
    : new SqliteJournal(join(mkdtempSync(join(tmpdir(), 'tr-bench-')), 'journal.sqlite'));
const engine = new ExecutionEngine({
  broker: client,
  journal,
  clock,
  logger,
  sessions: { isOpen: () => true, nextOpen: () => undefined, nextClose: () => undefined },
  risk: { maxOpenOrders: 1e9, maxOrdersPerDay: 1e9, maxPositionPerInstrument: 1e9 },
});
let tick = 0;
let t0 = 0;
const done = new Subject<void>();
const framework: number[] = [];
const polls: number[] = [];
/** This process's CPU time per poll (the simulator's serialising is not in it). */
const pollCpu: number[] = [];
bus
  .quote$(3045, 'ltp')
  .pipe(map(() => intentFor(tick++)))
  .subscribe((intent) => {
    void engine.submit({ ...intent, strategyId: 'bench' }).then(() => done.next());
  });
for (let i = 0; i < TICKS + WARMUP; i++) {
  const finished = firstValueFrom(done);
  t0 = performance.now();
  clock.advanceBy(1_000);
  await finished;
  if (i >= WARMUP) framework.push(sentAt - t0);
  // Order tracking, outside the timed window, so finished orders leave the active set.
  // Timed on its own: it reads the whole day's books, and runs beside ticks when live.
  if (i % 50 === 49) {
    const p0 = performance.now();
    const c0 = process.cpuUsage();
    await engine.poll();
    polls.push(performance.now() - p0);
    const cpu = process.cpuUsage(c0);
    pollCpu.push((cpu.user + cpu.system) / 1_000);
  }
}
bus.close();
await engine.stop();
engine.close();
await sim.close();

baseline.sort((a, b) => a - b);
framework.sort((a, b) => a - b);
const row = (name: string, xs: number[]) => ({
  path: name,
  'p50 µs': (percentile(xs, 50) * 1_000).toFixed(1),
  'p99 µs': (percentile(xs, 99) * 1_000).toFixed(1),
});
console.log(
  `ticks: ${framework.length} (after ${WARMUP} warm-up), ${priorOrders} orders already in the day's book, simulator on loopback, no added latency`,
);
console.table([
  row('bare client call (baseline)', baseline),
  row('tick -> bus -> strategy -> risk -> execution', framework),
]);
polls.sort((a, b) => a - b);
pollCpu.sort((a, b) => a - b);
console.log(
  `tracker poll (both books, ${priorOrders} to ${priorOrders + TICKS + WARMUP} orders): wall p50 ${percentile(polls, 50).toFixed(1)} ms, max ${percentile(polls, 100).toFixed(1)} ms; this process's CPU p50 ${percentile(pollCpu, 50).toFixed(1)} ms, max ${percentile(pollCpu, 100).toFixed(1)} ms`,
);
const overheadP50 = percentile(framework, 50) - percentile(baseline, 50);
const overheadP99 = percentile(framework, 99) - percentile(baseline, 99);
console.log(
  `framework overhead: p50 ${(overheadP50 * 1_000).toFixed(1)} µs, p99 ${(overheadP99 * 1_000).toFixed(1)} µs; ratio p99 ${(percentile(framework, 99) / percentile(baseline, 99)).toFixed(2)}x`,
);
if (overheadP99 >= 1) {
  console.error('target missed: p99 framework overhead must stay under 1 ms');
  process.exit(1);
}
