/**
 * Parsing the instrument master (`GET /all`, CSV): a bot parses it at every start (from
 * the day's cache after a restart) and again at a new day's reload, on its only thread,
 * so its time is a stall of polling and order tracking. The service's master covers NSE,
 * NFO, BSE and BFO, some 100 000 rows; the bench builds 120 000 rows from the
 * simulator's (its columns and values, each row a token and symbol of its own).
 *
 * - baseline: csv-parse (the parser it used before, with the same options), then the
 *   rows read into instruments, as `parseInstrumentMaster` did;
 * - now: `parseInstrumentMaster`, which splits a text without quotes natively
 *   (src/api/plain-csv-records.ts, tested equal to csv-parse) and reads the same rows.
 *
 * Both give the same instruments (checked here). Printed: the best of 5 rounds of each,
 * interleaved, and the ratio baseline / now. Target (this bench's own, not an issue's):
 * at least 2× faster, which keeps a 100 000-row master under about half a second.
 *
 * Run: npm run bench -- instrument-master
 */
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'csv-parse/sync';
import {
  DEFAULT_INSTRUMENT_MASTER_FORMAT,
  parseInstrumentMaster,
  readInstrumentMasterRecords,
} from '../src/api/instrument-master-csv.ts';
import { TradingCalendar } from '../src/calendar/trading-calendar.ts';
import { instrumentMasterFile } from '../src/sim/market/instrument-master-file.ts';
import { InstrumentUniverse } from '../src/sim/market/instrument-universe.ts';
import { simHolidaysFor } from '../src/sim/sim-holidays.ts';

const ROWS = 120_000;
const ROUNDS = 5;
const TARGET = 2;

const start = Date.parse('2026-11-20T03:45:00Z');
const hours = TradingCalendar.fromHolidays(simHolidaysFor([2025, 2026, 2027]));
const simMaster = instrumentMasterFile(InstrumentUniverse.standard(start, hours));
const [head, ...rows] = simMaster.trim().split('\n');
const lines: string[] = [head as string];
for (let k = 0; lines.length <= ROWS; k++) {
  for (const row of rows) {
    const cells = row.split(',');
    cells[1] = String(1_000_000 + lines.length);
    cells[2] = `${cells[2]}${k}`;
    lines.push(cells.join(','));
    if (lines.length > ROWS) break;
  }
}
const text = `${lines.join('\n')}\n`;
const format = DEFAULT_INSTRUMENT_MASTER_FORMAT;

function before(): ReturnType<typeof parseInstrumentMaster> {
  const parsed = parse(text, {
    bom: true,
    skip_empty_lines: true,
    trim: true,
    relax_column_count: true,
    info: true,
  }) as unknown as { record: string[]; info: { lines: number } }[];
  return readInstrumentMasterRecords(
    parsed.map(({ record, info }) => ({ record, line: info.lines })),
    format,
  );
}

const timed = <T>(run: () => T): { ms: number; out: T } => {
  const t = performance.now();
  const out = run();
  return { ms: performance.now() - t, out };
};

let bestBefore = Number.POSITIVE_INFINITY;
let bestNow = Number.POSITIVE_INFINITY;
for (let round = 0; round < ROUNDS; round++) {
  const a = timed(before);
  const b = timed(() => parseInstrumentMaster(text, format));
  if (!isDeepStrictEqual(a.out, b.out)) throw new Error('the two parses differ');
  if (b.out.instruments.length !== ROWS) throw new Error(`${b.out.instruments.length} rows read`);
  bestBefore = Math.min(bestBefore, a.ms);
  bestNow = Math.min(bestNow, b.ms);
}
const ratio = bestBefore / bestNow;
console.log(
  `instrument master, ${ROWS} rows (${(text.length / 2 ** 20).toFixed(1)} MiB): csv-parse ${bestBefore.toFixed(0)} ms, now ${bestNow.toFixed(0)} ms: ${ratio.toFixed(2)}× faster (target ≥ ${TARGET}×)`,
);
if (ratio < TARGET) {
  console.log('target missed');
  process.exit(1);
}
