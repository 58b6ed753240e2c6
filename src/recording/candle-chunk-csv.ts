import { CANDLE_INTERVAL_MS, type Candle, type CandleInterval } from '../domain/candle.ts';
import { toIstIso } from '../domain/ist.ts';
import { RecordingError } from './recording-error.ts';

/** Header line of every chunk file. */
export const CANDLE_CHUNK_HEADER = 'time,open,high,low,close,volume,oi';

/** The parts of a bar a chunk row holds (no token, interval or end: the file's place says those). */
export type CandleBar = Pick<Candle, 'start' | 'open' | 'high' | 'low' | 'close' | 'volume' | 'oi'>;

/** One chunk row: the bar's start in IST ISO, integer paise, volume, oi or empty. */
export function formatCandleRow(bar: CandleBar): string {
  // Whole-second bar starts print without milliseconds, as the format shows them.
  return `${toIstIso(bar.start).replace('.000+', '+')},${bar.open},${bar.high},${bar.low},${bar.close},${bar.volume},${bar.oi ?? ''}`;
}

const INTEGER = /^-?\d+$/;
// The writer's own shape: ISO with an explicit offset, so Date.parse never guesses a zone.
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

function integerField(text: string | undefined, what: string, where: string): number {
  if (text === undefined || !INTEGER.test(text))
    throw new RecordingError(
      'bad-format',
      `${where}: ${what} is not an integer: ${JSON.stringify(text ?? '')}`,
    );
  const n = Number(text);
  if (!Number.isSafeInteger(n))
    throw new RecordingError('bad-format', `${where}: ${what} out of range: ${text}`);
  return n;
}

/**
 * Parses one chunk row back into a domain candle (`end` = start + interval; the reader
 * does not know session closes). `where` (`file:line`) prefixes any error.
 */
export function parseCandleRow(
  line: string,
  token: number,
  interval: CandleInterval,
  where: string,
): Candle {
  const f = line.split(',');
  if (f.length !== 7)
    throw new RecordingError('bad-format', `${where}: expected 7 fields, found ${f.length}`);
  const time = f[0] as string;
  const start = ISO_WITH_OFFSET.test(time) ? Date.parse(time) : Number.NaN;
  if (!Number.isFinite(start))
    throw new RecordingError(
      'bad-format',
      `${where}: time is not ISO 8601 with an offset: ${JSON.stringify(time)}`,
    );
  const oiText = f[6] as string;
  const candle: Candle = {
    token,
    interval,
    start,
    end: start + CANDLE_INTERVAL_MS[interval],
    open: integerField(f[1], 'open', where),
    high: integerField(f[2], 'high', where),
    low: integerField(f[3], 'low', where),
    close: integerField(f[4], 'close', where),
    volume: integerField(f[5], 'volume', where),
    historical: false,
  };
  return oiText === '' ? candle : { ...candle, oi: integerField(oiText, 'oi', where) };
}
