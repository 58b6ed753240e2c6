import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { loadBacktestSpec } from '../../backtest/backtest-spec.ts';
import { describeMissing, MissingDataError } from '../../backtest/missing-data.ts';
import { ProgressBar } from '../../backtest/progress-bar.ts';
import { ConfigError } from '../../config/config-error.ts';
import { RecordingError } from '../../recording/recording-error.ts';
import { StrategyLoadError } from '../../strategy/load-strategy.ts';
import { EXIT } from '../exit-codes.ts';

/** `--workers`: a whole number of processes, at least 1 (0 or a typo must not pass unseen). */
function workerCount(text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || n < 1) {
    throw new InvalidArgumentError(
      '--workers must be a whole number of worker processes, 1 or more',
    );
  }
  return n;
}

/**
 * The exit code of a run whose strategies failed: 3 (missing data) when a strategy looked
 * up an instrument the backtest's master lacks (over candles, only `instruments.csv`
 * beside them), else 1; 0 when none failed. A failed strategy's zeros are not a result.
 */
function failedExit(failures: readonly string[]): number {
  if (failures.length === 0) return EXIT.ok;
  return failures.some((why) => /not in the instrument master/.test(why))
    ? EXIT.missingData
    : EXIT.failure;
}

/** Options of `backtest`. */
interface BacktestOptions {
  config: string;
  sweep?: boolean;
  workers?: number;
  out?: string;
  allowMissing?: boolean;
  /** `--queue URL`, or `--queue` alone (`true`): the URL is in $TIQS_QUEUE. */
  queue?: string | true;
  dataDir?: string;
  onInterrupt: 'ask' | 'leave' | 'remove';
}

/**
 * `tiqs-runner backtest --config backtests/NAME.yaml [--sweep [--workers N | --queue URL]]`:
 * replays the spec's recording through its strategies on the kernel, prints the summary,
 * and writes `report.json` and `report.html` to the output folder. `--sweep` runs the
 * spec's parameter grid in worker processes (`--workers`, else the spec's `sweep.workers`,
 * else one per core), or with `--queue` on `tiqs-runner worker` processes through a Redis
 * queue (backtest-queue.ts), and ranks the results.
 */
export function backtestCommand(): Command {
  return new Command('backtest')
    .description('Replay recorded data through strategies; print and write the report')
    .requiredOption('-c, --config <file>', 'backtest spec, e.g. backtests/sma-crossover.yaml')
    .option('--sweep', 'run the spec’s backtest.sweep grid in parallel and rank the results')
    .option(
      '--workers <n>',
      'worker processes for --sweep (default: the spec’s sweep.workers, else one per core)',
      workerCount,
    )
    .option('--out <dir>', 'report folder (default: the spec’s backtest.out)')
    .option(
      '--allow-missing',
      'run on when strategies subscribe to tokens the data lacks (a warning in the summary; default: exit 3)',
    )
    .option(
      '--queue [url]',
      'with --sweep: queue the runs on Redis (redis://HOST:PORT[/DB]) for `tiqs-runner worker` processes; without a URL, $TIQS_QUEUE (keeps a password off the command line)',
    )
    .option(
      '--data-dir <dir>',
      'with --queue: share the recording through this folder (mounted by the workers too) instead of Redis',
    )
    .addOption(
      new Option(
        '--on-interrupt <choice>',
        'with --queue, on Ctrl-C: ask (on a terminal; default LEAVE), leave the jobs queued, or remove them',
      )
        .choices(['ask', 'leave', 'remove'])
        .default('ask'),
    )
    .action(async (opts: BacktestOptions) => {
      try {
        if (opts.queue !== undefined && (opts.sweep !== true || opts.workers !== undefined)) {
          process.stderr.write(
            '--queue needs --sweep, and takes no --workers (start workers with `tiqs-runner worker --concurrency N`)\n',
          );
          process.exitCode = EXIT.usage;
          return;
        }
        const spec = await loadBacktestSpec(opts.config);
        // A command-line path is relative to where the command runs; the spec's own
        // `backtest.out` (default `out/<name>`) is already absolute against the spec's folder.
        const out =
          opts.out === undefined
            ? resolve(spec.projectDir, spec.backtest.out ?? `out/${spec.name}`)
            : resolve(opts.out);
        if (opts.queue !== undefined) {
          // `--queue` alone reads the URL from the environment, as `worker` without --queue.
          const queue = opts.queue === true ? process.env.TIQS_QUEUE?.trim() : opts.queue;
          if (queue === undefined || queue === '') {
            process.stderr.write('--queue without a URL reads $TIQS_QUEUE, which is not set\n');
            process.exitCode = EXIT.usage;
            return;
          }
          const { runQueueSweep } = await import('./backtest-queue.ts');
          await runQueueSweep(spec, {
            queue,
            queueFrom: opts.queue === true ? '$TIQS_QUEUE' : '--queue',
            ...(opts.dataDir === undefined ? {} : { dataDir: resolve(opts.dataDir) }),
            onInterrupt: opts.onInterrupt,
            out,
            allowMissing: opts.allowMissing === true,
          });
          return;
        }
        const bar = new ProgressBar(process.stderr, opts.sweep === true ? 'sweep' : 'backtest');
        if (opts.sweep === true) {
          const workers = opts.workers ?? spec.backtest.sweep?.workers ?? availableParallelism();
          const started = performance.now();
          // Only the sweep's runner here: the backtest itself runs in the workers, so this
          // process does not load the kernel and the workers start that much sooner.
          const [{ runSweep }, { SweepMissingDataError }] = await Promise.all([
            import('../../backtest/sweep-runner.ts'),
            import('../../backtest/sweep-missing.ts'),
          ]);
          // Runs that lacked data throw before anything is written: exit 3, every run named.
          const ranked = await runSweep(spec, {
            workers,
            out,
            allowMissing: opts.allowMissing === true,
            onProgress: (done) => bar.update(done),
            // The runs' log lines come from the workers and print above the bar.
            onLog: (text) => bar.print(process.stdout, text),
            logTTY: process.stdout.isTTY === true,
          }).catch((err: unknown) => {
            bar.done();
            if (!(err instanceof SweepMissingDataError)) throw err;
            process.stderr.write(`${err.message}\n(--allow-missing runs on with a warning)\n`);
            process.exitCode = EXIT.missingData;
            return undefined;
          });
          if (ranked === undefined) return;
          bar.done();
          const runs = ranked.results.length;
          // The workers that actually ran a job, as the results say.
          const used = new Set(ranked.results.flatMap((r) => r.worker ?? [])).size;
          process.stdout.write(ranked.table);
          process.stdout.write(
            `\n${runs} runs on ${used} worker${used === 1 ? '' : 's'} in ${((performance.now() - started) / 1_000).toFixed(1)} s\n`,
          );
          process.stdout.write(`wrote ${ranked.file}\nwrote ${ranked.html}\n`);
          process.exitCode = EXIT.ok;
          return;
        }
        const [{ runBacktest }, { writeReport }, { formatSummary }] = await Promise.all([
          import('../../backtest/run-backtest.ts'),
          import('../../backtest/write-report.ts'),
          import('../../backtest/format-summary.ts'),
        ]);
        const result = await runBacktest(spec, {
          onProgress: (done) => bar.update(done),
          // Log lines go out through the bar, which clears its line and draws itself again.
          logSink: {
            write: (text: string) => bar.print(process.stdout, text),
            isTTY: process.stdout.isTTY === true,
          },
          allowMissing: opts.allowMissing === true,
        });
        bar.done();
        const files = await writeReport(result, out);
        process.stdout.write(
          `backtest ${spec.name}: ${result.summary.quoteEvents} quote events in ${(result.elapsedMs / 1_000).toFixed(1)} s\n`,
        );
        const failures = Object.entries(result.failures ?? {});
        const warnings = [
          ...(result.missingData === undefined
            ? []
            : [`${describeMissing(result.missingData)}\n(run on: --allow-missing)`]),
          ...(result.warnings ?? []),
          ...failures.map(([id, why]) => `strategy ${id} failed: ${why}`),
        ];
        process.stdout.write(formatSummary(result.summary, { warnings }));
        process.stdout.write(`wrote ${files.json}\nwrote ${files.html}\n`);
        process.exitCode = failedExit(failures.map(([, why]) => why));
      } catch (err) {
        if (err instanceof MissingDataError) {
          process.stderr.write(`${err.message}\n(--allow-missing runs on with a warning)\n`);
          process.exitCode = EXIT.missingData;
          return;
        }
        if (err instanceof ConfigError || err instanceof StrategyLoadError) {
          process.stderr.write(`${err.message}\n`);
          process.exitCode = EXIT.config;
          return;
        }
        if (err instanceof RecordingError) {
          process.stderr.write(`${err.message}\n`);
          process.exitCode = EXIT.unavailable;
          return;
        }
        throw err;
      }
    });
}
