import type { Recording } from '../../src/recording/read-recording.ts';
import type { RecordWriter } from '../../src/recording/record-writer.ts';

/**
 * A recording held in memory for replay tests: `writer`'s records under a meta spanning
 * `startMs`–`endMs`, with no holidays and no option chains.
 *
 * @example
 * ```ts
 * const w = new RecordWriter(T0);
 * w.quote('ltp', { token: 1, ltp: 100, close: 90 }, T0);
 * const rec = memoryRecording(w, { startMs: T0, endMs: T0, records: 1 });
 * ```
 */
export function memoryRecording(
  writer: RecordWriter,
  span: { readonly startMs: number; readonly endMs: number; readonly records: number },
): Recording {
  const meta = {
    format: 'tiqs-runner-recording' as const,
    version: 1 as const,
    quoteFile: 'quotes.bin',
    startMs: span.startMs,
    endMs: span.endMs,
    start: '',
    end: '',
    records: span.records,
    holidays: { holidays: {}, specialTradingDays: {} },
    chainSymbols: [],
    chains: [],
  };
  return { dir: 'mem', meta, bytes: writer.bytes() };
}
