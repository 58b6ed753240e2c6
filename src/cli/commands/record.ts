import { resolve } from 'node:path';
import { Command } from 'commander';
import { ProgressBar } from '../../backtest/progress-bar.ts';
import { recordSession } from '../../backtest/record-session.ts';
import { toIstIso } from '../../domain/ist.ts';
import { createLogger } from '../../logging/create-logger.ts';
import type { LogContext } from '../../logging/log-context.ts';
import { StrategyLoadError } from '../../strategy/load-strategy.ts';
import { EXIT } from '../exit-codes.ts';
import { loadConfigOrReport } from '../load-config-or-report.ts';

/**
 * `tiqs-runner record --config F --out DIR`: records what the config's bot polls (every
 * quote mode in use, greeks, holidays, option chains) into DIR for backtests. On the
 * embedded simulator it records one session in virtual time, in seconds; against the
 * service it records until `--until` or Ctrl-C.
 */
export function recordCommand(): Command {
  return new Command('record')
    .description('Record polled quotes and greeks into a folder for backtests')
    .requiredOption('-c, --config <file>', 'YAML config file (its strategies set the demand)')
    .requiredOption('-o, --out <dir>', 'recording folder, e.g. backtests/data/NAME')
    .option('--until <iso>', 'stop at this instant (ISO 8601 with offset)')
    .option('--gzip', 'gzip the quote file at the end')
    .action(async (opts: { config: string; out: string; until?: string; gzip?: boolean }) => {
      const loaded = await loadConfigOrReport(opts.config);
      if (loaded === undefined) return;
      let config = loaded;
      const until = opts.until === undefined ? undefined : Date.parse(opts.until);
      if (until !== undefined && Number.isNaN(until)) {
        process.stderr.write(`--until: not an ISO instant: ${opts.until}\n`);
        process.exitCode = EXIT.usage;
        return;
      }
      if (opts.gzip === true)
        config = { ...config, recording: { ...config.recording, gzip: true } };
      const bar = new ProgressBar(process.stderr, 'recording');
      // Bound to the recording bot by recordSession: its lines carry market time and symbols.
      const logContext: LogContext = {};
      const logger = createLogger({
        level: 'warn',
        format: config.logging.format,
        context: logContext,
        // Lines print above the progress bar, which draws itself again below them.
        destination: {
          write: (text: string) => bar.print(process.stdout, text),
          isTTY: process.stdout.isTTY === true,
        },
      });
      const stopSignal = new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
      try {
        const meta = await recordSession({
          config,
          configFile: opts.config,
          out: resolve(opts.out),
          logger,
          logContext,
          ...(until === undefined ? {} : { until }),
          stopSignal,
          // IST like every other time the CLI prints.
          onProgress: (done, at) => bar.update(done, `${toIstIso(at).slice(0, 19)} IST`),
        });
        bar.done();
        process.stdout.write(
          `recorded ${meta.records} records, ${ist(meta.startMs)} → ${ist(meta.endMs)} IST, into ${opts.out}/${meta.quoteFile}\n`,
        );
        process.exitCode = EXIT.ok;
      } catch (err) {
        bar.done();
        if (err instanceof StrategyLoadError) {
          process.stderr.write(`${err.message}\n`);
          process.exitCode = EXIT.config;
          return;
        }
        throw err;
      }
    });
}

/** An instant as the CLI prints it: `2026-11-20 09:13:00` (IST; the caller says so once). */
function ist(ms: number): string {
  return toIstIso(ms).slice(0, 19).replace('T', ' ');
}
