import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TradingCalendar } from '../calendar/trading-calendar.ts';
import { INSTRUMENT_MASTER_FILE } from '../recording/recorder.ts';
import type { RecordingMeta } from '../recording/recording-meta.ts';
import { instrumentMasterFile } from '../sim/market/instrument-master-file.ts';
import { InstrumentUniverse } from '../sim/market/instrument-universe.ts';
import { istYear, simHolidaysFor } from '../sim/sim-holidays.ts';

/** A backtest's instrument master and where it came from. */
export interface RecordedMaster {
  csv: string;
  /** Set when the recording had none and the simulator's stands in: say so in the log. */
  note?: string;
}

/**
 * The instrument master of a backtest: the copy `record` saved beside the recording
 * (`instruments.csv`) of the latest part that started at or before `now`, else of any
 * part. A recording without one (made before masters were saved) gets the simulator's
 * master as of the recording's start: right for recordings of the simulator, such as the
 * shipped sample day, and a stand-in for others, which the `note` says.
 *
 * @example
 * ```ts
 * const { csv, note } = await recordedInstrumentMaster(set.parts, set.meta, clock.now());
 * ```
 */
export async function recordedInstrumentMaster(
  parts: ReadonlyArray<{ dir: string; meta: Pick<RecordingMeta, 'startMs'> }>,
  meta: Pick<RecordingMeta, 'startMs'>,
  now: number,
): Promise<RecordedMaster> {
  const started = parts.filter((p) => p.meta.startMs <= now).reverse();
  const rest = parts.filter((p) => p.meta.startMs > now);
  for (const part of [...started, ...rest]) {
    try {
      return { csv: await readFile(join(part.dir, INSTRUMENT_MASTER_FILE), 'utf8') };
    } catch {
      // Not saved with this part: try the next.
    }
  }
  const start = meta.startMs;
  const year = istYear(start);
  // The simulator's own calendar, as SimExchange builds it: the option expiries match.
  const hours = TradingCalendar.fromHolidays(simHolidaysFor([year - 1, year, year + 1]));
  return {
    csv: instrumentMasterFile(InstrumentUniverse.standard(start, hours)),
    note: `the recording has no ${INSTRUMENT_MASTER_FILE}: the simulator's instrument master as of ${new Date(start).toISOString()} stands in (right for recordings of the simulator)`,
  };
}
