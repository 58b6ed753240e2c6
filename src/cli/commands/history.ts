import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { InstrumentMasterFormatError } from '../../api/instrument-master-csv.ts';
import { ProgressBar } from '../../backtest/progress-bar.ts';
import { CANDLE_INTERVALS, type CandleInterval } from '../../domain/candle.ts';
import { createLogger } from '../../logging/create-logger.ts';
import { dateDay } from '../../recording/candle-chunk-plan.ts';
import { CandleDownloadError } from '../../recording/candle-download-error.ts';
import { CandleRecordingMismatch } from '../../recording/candle-recording-mismatch.ts';
import { downloadCandles } from '../../recording/download-candles.ts';
import { RecordingError } from '../../recording/recording-error.ts';
import { EXIT } from '../exit-codes.ts';
import { loadConfigOrReport } from '../load-config-or-report.ts';
import { historyClient } from './history-client.ts';

interface HistoryFlags {
  config: string;
  tokens: number[];
  interval: CandleInterval;
  from: string;
  to: string;
  out: string;
  chunkDays?: number;
}

function tokenList(text: string): number[] {
  const tokens = text.split(',').map((t) => Number(t.trim()));
  if (tokens.length === 0 || tokens.some((t) => !Number.isInteger(t) || t <= 0))
    throw new InvalidArgumentError('--tokens must be positive integers separated by commas');
  return [...new Set(tokens)];
}

function istDate(name: string) {
  return (text: string): string => {
    if (Number.isNaN(dateDay(text)))
      throw new InvalidArgumentError(`${name} must be an IST date YYYY-MM-DD`);
    return text;
  };
}

function interval(text: string): CandleInterval {
  if (!(CANDLE_INTERVALS as readonly string[]).includes(text))
    throw new InvalidArgumentError(`--interval must be one of ${CANDLE_INTERVALS.join(', ')}`);
  return text as CandleInterval;
}

function chunkDays(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 3_660)
    throw new InvalidArgumentError('--chunk-days must be an integer from 1 to 3660');
  return n;
}

/** The exit code of a download that stopped, and its message. */
function failure(err: unknown): { code: number; message: string } | undefined {
  if (err instanceof CandleRecordingMismatch) return { code: EXIT.usage, message: err.message };
  if (err instanceof InstrumentMasterFormatError)
    return { code: EXIT.config, message: err.message };
  // A chunk file in --out that cannot be read (edited by hand, say): named, no stack.
  if (err instanceof RecordingError) return { code: EXIT.failure, message: err.message };
  if (!(err instanceof CandleDownloadError)) return undefined;
  const unavailable = err.problem !== 'unknown-token' && err.problem !== 'bad-range';
  const cause =
    (err.problem === 'no-master' || err.problem === 'no-holidays') && err.cause instanceof Error
      ? `: ${err.cause.message}`
      : '';
  return { code: unavailable ? EXIT.unavailable : EXIT.usage, message: `${err.message}${cause}` };
}

/**
 * `tiqs-runner history --config F --tokens 3045,2885 --interval 1m --from D --to D --out DIR`:
 * downloads candles through the service's candle endpoint (or the embedded simulator's
 * past) into a candle recording, a chunk per file, resuming when rerun into the same DIR.
 */
export function historyCommand(): Command {
  return new Command('history')
    .description('Download candles from the service into a recording for backtests (resumes)')
    .requiredOption('-c, --config <file>', 'YAML config file (broker URL and credentials)')
    .requiredOption('--tokens <list>', 'instrument tokens, comma-separated', tokenList)
    .requiredOption('--interval <interval>', `one of ${CANDLE_INTERVALS.join(', ')}`, interval)
    .requiredOption('--from <date>', 'first IST date, YYYY-MM-DD (inclusive)', istDate('--from'))
    .requiredOption('--to <date>', 'last IST date, YYYY-MM-DD (inclusive)', istDate('--to'))
    .requiredOption('-o, --out <dir>', 'recording folder, e.g. backtests/data/NAME')
    .option('--chunk-days <n>', 'days per request (default: a month; a year for 1d)', chunkDays)
    .action(async (flags: HistoryFlags) => {
      if (flags.to < flags.from) {
        process.stderr.write(`--to ${flags.to} is before --from ${flags.from}\n`);
        process.exitCode = EXIT.usage;
        return;
      }
      const config = await loadConfigOrReport(flags.config);
      if (config === undefined) return;
      const bar = new ProgressBar(process.stderr, 'history');
      // The config's level; lines (the client's retries, say) print above the bar, not through it.
      const logger = createLogger({
        level: config.logging.level,
        format: config.logging.format,
        destination: {
          write: (text: string) => bar.print(process.stderr, text),
          isTTY: process.stderr.isTTY === true,
        },
      });
      const source = await historyClient(config, logger);
      // Ctrl-C (or a TERM) stops between chunks and says how to resume; a second one kills.
      const interrupt = new AbortController();
      const signals = ['SIGINT', 'SIGTERM'] as const;
      const onSignal = (signal: NodeJS.Signals) => interrupt.abort(signal);
      for (const sig of signals) process.once(sig, onSignal);
      const progress = { done: 0, total: 0 };
      try {
        const report = await downloadCandles({
          client: source.client,
          out: resolve(flags.out),
          tokens: flags.tokens,
          interval: flags.interval,
          from: flags.from,
          to: flags.to,
          ...(flags.chunkDays === undefined ? {} : { chunkDays: flags.chunkDays }),
          source: source.source,
          masterFormat: config.instruments,
          now: source.marketClock.now(),
          onProgress: (done, total) => {
            Object.assign(progress, { done, total });
            bar.update(done / total, `${done}/${total} chunks`);
          },
          signal: interrupt.signal,
        });
        bar.done();
        const { meta } = report;
        process.stdout.write(
          `history: ${report.fetched} chunks fetched, ${report.kept} already present; ${meta.bars} ${meta.interval} bars of ${meta.instruments.length} tokens, ${meta.from}..${meta.to}, into ${flags.out}\n`,
        );
        const empty = meta.instruments.filter((i) => meta.barsByToken?.[String(i.token)] === 0);
        if (empty.length > 0)
          process.stderr.write(
            `history: WARNING: no bars at all for ${empty.map((i) => `${i.token} (${i.symbol})`).join(', ')} in ${meta.from}..${meta.to}; a backtest subscribing to them stops with exit 3 (the simulator has no past for options)\n`,
          );
        process.exitCode = EXIT.ok;
      } catch (err) {
        bar.done();
        if (interrupt.signal.aborted) {
          process.stderr.write(
            `history: interrupted: ${progress.done} of ${progress.total || '?'} chunks saved; rerun the same command to resume\n`,
          );
          process.exitCode = interrupt.signal.reason === 'SIGINT' ? 130 : 143;
          return;
        }
        const known = failure(err);
        if (known === undefined) throw err;
        process.stderr.write(`history: ${known.message}\n`);
        process.exitCode = known.code;
      } finally {
        for (const sig of signals) process.off(sig, onSignal);
        await source.close();
      }
    });
}
