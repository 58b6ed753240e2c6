import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RedisBlobStore } from '../../backtest/queue/blob-store.ts';
import {
  CodeVersionError,
  codeVersion,
  frameworkVersion,
} from '../../backtest/queue/code-version.ts';
import { DataDirStore } from '../../backtest/queue/data-dir-store.ts';
import { projectRoot } from '../../backtest/queue/project-root.ts';
import {
  checkQueueReachable,
  QueueUnavailableError,
} from '../../backtest/queue/queue-reachable.ts';
import { QueueWorker, type QueueWorkerStop } from '../../backtest/queue/queue-worker.ts';
import {
  parseQueueUrl,
  type QueueConnection,
  QueueUrlError,
  redactQueueUrl,
} from '../../backtest/queue/redis-url.ts';
import { createLogger, type LogLevel } from '../../logging/create-logger.ts';
import { EXIT } from '../exit-codes.ts';
import { AUTH_ERROR, isRedisError } from './redis-error.ts';

/** Slack past the drain for releasing jobs and closing connections before a hard exit. */
const HARD_STOP_SLACK_MS = 15_000;
/** The environment variable read for the queue's URL when `--queue` is absent. */
const QUEUE_ENV = 'TIQS_QUEUE';

/** A whole number from `min`, for a flag or an environment variable named `name`. */
function whole(name: string, min: number) {
  return (text: string): number => {
    const n = Number(text);
    if (text.trim() === '' || !Number.isInteger(n) || n < min)
      throw new InvalidArgumentError(`${name} must be a whole number, ${min} or more`);
    return n;
  };
}

/** `--cache-max-gb`: a positive number of GiB (fractions allowed). */
function gigabytes(text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError('--cache-max-gb must be a number of GiB above 0');
  return n;
}

/** Options of `worker`. */
interface WorkerFlags {
  queue?: string;
  concurrency?: number;
  dataDir?: string;
  cacheDir?: string;
  cacheMaxGb?: number;
  drainSeconds: number;
  lockMs?: number;
  stalledMs?: number;
  maxStalled?: number;
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
    .option(
      '--queue <url>',
      `the queue’s Redis, redis://HOST:PORT[/DB] (default: $${QUEUE_ENV}, which keeps a password off the command line)`,
    )
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
      '--cache-max-gb <n>',
      'the cache’s budget: past it, the recordings used longest ago are removed, never one in use (default 20)',
      gigabytes,
    )
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
    .option(
      '--max-stalled <n>',
      'stalls a job lives through before it fails (default: $TIQS_QUEUE_MAX_STALLED, else 2)',
      whole('--max-stalled', 0),
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
      let lockMs: number | undefined;
      let stalledMs: number | undefined;
      let maxStalled: number | undefined;
      let where: QueueConnection;
      let queueUrl: string;
      try {
        const fromEnv = process.env[QUEUE_ENV];
        if (flags.queue === undefined && (fromEnv === undefined || fromEnv.trim() === ''))
          throw new InvalidArgumentError(`--queue URL (or $${QUEUE_ENV}) is required`);
        queueUrl = flags.queue ?? String(fromEnv);
        // A shared folder that is not mounted here would fail every job it serves: say so now.
        if (
          flags.dataDir !== undefined &&
          !statSync(flags.dataDir, { throwIfNoEntry: false })?.isDirectory()
        )
          throw new InvalidArgumentError(`--data-dir ${flags.dataDir}: no such folder here`);
        lockMs = stallSetting(flags.lockMs, 'TIQS_QUEUE_LOCK_MS');
        stalledMs = stallSetting(flags.stalledMs, 'TIQS_QUEUE_STALLED_MS');
        maxStalled = stallSetting(flags.maxStalled, 'TIQS_QUEUE_MAX_STALLED');
        where = parseQueueUrl(queueUrl, flags.queue === undefined ? `$${QUEUE_ENV}` : '--queue');
      } catch (err) {
        if (!(err instanceof QueueUrlError || err instanceof InvalidArgumentError)) throw err;
        process.stderr.write(`worker: ${err.message}\n`);
        process.exitCode = EXIT.usage;
        return;
      }
      const redacted = redactQueueUrl(queueUrl);
      const refused = await startChecks(where, redacted);
      if (refused !== undefined) {
        process.stderr.write(`worker: ${refused.message}\n`);
        process.exitCode = refused.code;
        return;
      }
      // BullMQ's workers need `maxRetriesPerRequest: null`: a command waits out an outage.
      const connection = new Redis({ ...where, maxRetriesPerRequest: null });
      const log = createLogger({ level: flags.logLevel, format: flags.logFormat }).child({
        component: 'worker',
      });
      guardStrayErrors(log);
      const projectDir = projectRoot(process.cwd());
      const concurrency = flags.concurrency ?? availableParallelism();
      const worker = QueueWorker.start({
        connection,
        concurrency,
        log,
        projectDir,
        cacheDir: resolve(flags.cacheDir ?? join(projectDir, 'var', 'sweep-cache')),
        ...(flags.cacheMaxGb === undefined ? {} : { cacheMaxBytes: flags.cacheMaxGb * 2 ** 30 }),
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
        ...(maxStalled === undefined ? {} : { maxStalled }),
      });
      // Said once the signals are heard: a supervisor stopping the worker on this line
      // must not kill it by the default action.
      const outcome = await untilStopped(worker, flags.drainSeconds * 1000, () =>
        log.info(
          { queue: redacted, project: projectDir, pid: process.pid },
          `worker ${worker.name} started`,
        ),
      );
      // A clean quit sends what is queued; an outage would hold it forever: bounded.
      await Promise.race([connection.quit().catch(() => undefined), delay(2_000)]);
      connection.disconnect();
      process.exitCode = outcome === 'abandoned' ? EXIT.incomplete : EXIT.ok;
      // Nothing should hold the process now; if a socket or timer still does, leave anyway.
      setTimeout(() => process.exit(process.exitCode), 3_000).unref();
    });
}

/**
 * What must hold before the worker takes a job, each bounded: the compiled framework is
 * built from the sources on disk (the code version names them; taken now, at start, for
 * every job of this process), and the queue's Redis answers with these credentials (a
 * wrong password never heals; an unreachable Redis at start is most likely a wrong URL).
 * Returns why not, with the exit code, or undefined.
 */
async function startChecks(
  where: QueueConnection,
  redacted: string,
): Promise<{ message: string; code: number } | undefined> {
  try {
    await frameworkVersion();
  } catch (err) {
    if (!(err instanceof CodeVersionError)) throw err;
    return { message: err.message, code: EXIT.config };
  }
  try {
    await checkQueueReachable(where, redacted);
  } catch (err) {
    if (!(err instanceof QueueUnavailableError)) throw err;
    const auth = AUTH_ERROR.exec(err.message);
    return {
      message:
        auth === null
          ? err.message
          : `the queue's Redis at ${redacted} refused this worker's credentials (${auth[0]}): fix the password in --queue or $${QUEUE_ENV}; a wrong password does not heal, so the worker stops`,
      code: EXIT.unavailable,
    };
  }
  return undefined;
}

/**
 * Errors nobody awaits (BullMQ's connections report a late failure, e.g. a refused AUTH
 * after the worker closed them, as an 'error' event with no listener left): logged by
 * their message only, never Node's crash dump, which prints the failed command with its
 * arguments (AUTH's is the password). Redis's own errors leave the worker running; any
 * other is a bug: the process exits 1.
 */
function guardStrayErrors(log: Logger): void {
  const stray = (err: unknown): void => {
    const error = err instanceof Error ? err.message : String(err);
    if (isRedisError(err)) {
      log.warn({ error }, 'redis error (ignored)');
      return;
    }
    log.error({ error }, 'unexpected error; exiting');
    process.exit(EXIT.failure);
  };
  process.on('uncaughtException', stray);
  process.on('unhandledRejection', stray);
}

/**
 * Waits for SIGTERM or SIGINT, then stops the worker: a second signal cuts the drain
 * short; past the drain and a slack, the process exits whatever is still pending.
 */
async function untilStopped(
  worker: QueueWorker,
  drainMs: number,
  listening: () => void,
): Promise<QueueWorkerStop> {
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
  listening();
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
