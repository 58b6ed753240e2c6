import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { Redis } from 'ioredis';
import { RedisBlobStore } from '../../backtest/queue/blob-store.ts';
import { codeVersion } from '../../backtest/queue/code-version.ts';
import { DataDirStore } from '../../backtest/queue/data-dir-store.ts';
import { projectRoot } from '../../backtest/queue/project-root.ts';
import { QueueWorker, type QueueWorkerStop } from '../../backtest/queue/queue-worker.ts';
import { parseQueueUrl, QueueUrlError, redactQueueUrl } from '../../backtest/queue/redis-url.ts';
import { createLogger, type LogLevel } from '../../logging/create-logger.ts';
import { EXIT } from '../exit-codes.ts';

/** Slack past the drain for releasing jobs and closing connections before a hard exit. */
const HARD_STOP_SLACK_MS = 15_000;

/** A whole number from `min`, for a flag or an environment variable named `name`. */
function whole(name: string, min: number) {
  return (text: string): number => {
    const n = Number(text);
    if (text.trim() === '' || !Number.isInteger(n) || n < min)
      throw new InvalidArgumentError(`${name} must be a whole number, ${min} or more`);
    return n;
  };
}

/** Options of `worker`. */
interface WorkerFlags {
  queue: string;
  concurrency?: number;
  dataDir?: string;
  cacheDir?: string;
  drainSeconds: number;
  lockMs?: number;
  stalledMs?: number;
  logLevel: LogLevel;
  logFormat: 'auto' | 'json' | 'pretty';
}

/** A stall setting: the flag, else the environment variable, else BullMQ's default. */
function stallSetting(flag: number | undefined, env: string): number | undefined {
  if (flag !== undefined) return flag;
  const text = process.env[env];
  return text === undefined || text === '' ? undefined : whole(env, 1)(text);
}

/**
 * `tiqs-runner worker --queue redis://HOST:PORT[/DB]`: runs queued sweep jobs (from
 * `backtest --sweep --queue`) on this machine's thread pool until SIGTERM or Ctrl-C, from
 * the project checkout it is started in. A signal lets running jobs finish for up to
 * `--drain-seconds`, then releases them to the queue; a second signal releases them at
 * once. Exit 0 on a clean stop; 5 when jobs were left for the stall check.
 */
export function workerCommand(): Command {
  return new Command('worker')
    .description('Run queued sweep jobs on this machine’s worker threads until stopped')
    .requiredOption('--queue <url>', 'the queue’s Redis, redis://HOST:PORT[/DB]')
    .option(
      '--concurrency <n>',
      'jobs at once, one thread each (default: one per core)',
      whole('--concurrency', 1),
    )
    .option(
      '--data-dir <dir>',
      'shared folder of data files by digest (the submitter’s --data-dir), mounted here',
    )
    .option('--cache-dir <dir>', 'local cache of fetched data (default: var/sweep-cache)')
    .option(
      '--drain-seconds <s>',
      'on a signal, let running jobs finish this long before releasing them',
      whole('--drain-seconds', 0),
      60,
    )
    .option(
      '--lock-ms <ms>',
      'job lock; a dead worker’s jobs are retaken after it (default: $TIQS_QUEUE_LOCK_MS, else 30000)',
      whole('--lock-ms', 1),
    )
    .option(
      '--stalled-ms <ms>',
      'between checks for stalled jobs (default: $TIQS_QUEUE_STALLED_MS, else 30000)',
      whole('--stalled-ms', 1),
    )
    .addOption(
      new Option('--log-level <level>', 'log level')
        .choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace'])
        .default('info'),
    )
    .addOption(
      new Option('--log-format <format>', 'pretty on a terminal by default')
        .choices(['auto', 'json', 'pretty'])
        .default('auto'),
    )
    .action(async (flags: WorkerFlags) => {
      let connection: Redis;
      let lockMs: number | undefined;
      let stalledMs: number | undefined;
      try {
        // A shared folder that is not mounted here would fail every job it serves: say so now.
        if (
          flags.dataDir !== undefined &&
          !statSync(flags.dataDir, { throwIfNoEntry: false })?.isDirectory()
        )
          throw new InvalidArgumentError(`--data-dir ${flags.dataDir}: no such folder here`);
        lockMs = stallSetting(flags.lockMs, 'TIQS_QUEUE_LOCK_MS');
        stalledMs = stallSetting(flags.stalledMs, 'TIQS_QUEUE_STALLED_MS');
        // BullMQ's workers need `maxRetriesPerRequest: null`: a command waits out an outage.
        connection = new Redis({
          ...parseQueueUrl(flags.queue, '--queue'),
          maxRetriesPerRequest: null,
        });
      } catch (err) {
        if (!(err instanceof QueueUrlError || err instanceof InvalidArgumentError)) throw err;
        process.stderr.write(`worker: ${err.message}\n`);
        process.exitCode = EXIT.usage;
        return;
      }
      const log = createLogger({ level: flags.logLevel, format: flags.logFormat }).child({
        component: 'worker',
      });
      const projectDir = projectRoot(process.cwd());
      const concurrency = flags.concurrency ?? availableParallelism();
      const worker = QueueWorker.start({
        connection,
        concurrency,
        log,
        projectDir,
        cacheDir: resolve(flags.cacheDir ?? join(projectDir, 'var', 'sweep-cache')),
        blobs: new RedisBlobStore(connection),
        codeVersionOf: codeVersion,
        // The runs' lines read like the worker's own: pretty when the worker's are.
        runLogTTY:
          flags.logFormat === 'pretty' ||
          (flags.logFormat === 'auto' && process.stdout.isTTY === true),
        ...(flags.dataDir === undefined
          ? {}
          : { dataDir: new DataDirStore(resolve(flags.dataDir)) }),
        ...(lockMs === undefined ? {} : { lockMs }),
        ...(stalledMs === undefined ? {} : { stalledMs }),
      });
      log.info(
        { queue: redactQueueUrl(flags.queue), project: projectDir, pid: process.pid },
        `worker ${worker.name} started`,
      );
      const outcome = await untilStopped(worker, flags.drainSeconds * 1000);
      // A clean quit sends what is queued; an outage would hold it forever: bounded.
      await Promise.race([connection.quit().catch(() => undefined), delay(2_000)]);
      connection.disconnect();
      process.exitCode = outcome === 'abandoned' ? EXIT.incomplete : EXIT.ok;
      // Nothing should hold the process now; if a socket or timer still does, leave anyway.
      setTimeout(() => process.exit(process.exitCode), 3_000).unref();
    });
}

/**
 * Waits for SIGTERM or SIGINT, then stops the worker: a second signal cuts the drain
 * short; past the drain and a slack, the process exits whatever is still pending.
 */
async function untilStopped(worker: QueueWorker, drainMs: number): Promise<QueueWorkerStop> {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  let signalled = 0;
  let onFirst: () => void = () => undefined;
  const first = new Promise<void>((resolve) => {
    onFirst = resolve;
  });
  const onSignal = (): void => {
    signalled += 1;
    if (signalled === 1) onFirst();
    else worker.force();
  };
  for (const sig of signals) process.on(sig, onSignal);
  try {
    await first;
    setTimeout(() => process.exit(EXIT.incomplete), drainMs + HARD_STOP_SLACK_MS).unref();
    return await worker.stop(drainMs);
  } finally {
    for (const sig of signals) process.off(sig, onSignal);
  }
}

const delay = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms).unref());
