import { readFile } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { Redis } from 'ioredis';
import type { BacktestSpec } from '../../backtest/backtest-spec.ts';
import { ProgressBar } from '../../backtest/progress-bar.ts';
import { BlobTooLargeError, RedisBlobStore } from '../../backtest/queue/blob-store.ts';
import { CodeVersionError, codeVersion } from '../../backtest/queue/code-version.ts';
import { DataDirStore } from '../../backtest/queue/data-dir-store.ts';
import { DataFolderError } from '../../backtest/queue/data-manifest.ts';
import { DigestCache } from '../../backtest/queue/digest-cache.ts';
import { ProjectRootError, projectRoot } from '../../backtest/queue/project-root.ts';
import { publishData } from '../../backtest/queue/publish-data.ts';
import {
  type QueueExecutor,
  QueueInterruptedError,
  type QueueProgress,
} from '../../backtest/queue/queue-executor.ts';
import {
  checkQueueReachable,
  QueueUnavailableError,
} from '../../backtest/queue/queue-reachable.ts';
import { parseQueueUrl, QueueUrlError, redactQueueUrl } from '../../backtest/queue/redis-url.ts';
import { SweepMissingDataError } from '../../backtest/sweep-missing.ts';
import { runSweep } from '../../backtest/sweep-runner.ts';
import { untilAborted } from '../../execution/until-aborted.ts';
import { EXIT } from '../exit-codes.ts';
import { queueFailureSummary } from './queue-failure-summary.ts';
import { type InterruptChoice, settleInterrupt } from './queue-interrupt.ts';
import { type SilenceWatch, silenceNote, watchRedisSilence } from './queue-silence-notice.ts';

/** Options of a sweep on the queue. */
export interface QueueSweepOptions {
  /** `--queue`: `redis://HOST:PORT[/DB]`. */
  readonly queue: string;
  /** Where the URL came from, for its errors: `--queue` (default) or `$TIQS_QUEUE`. */
  readonly queueFrom?: string;
  /** `--data-dir`: a folder the workers mount too, instead of the blob store in Redis. */
  readonly dataDir?: string;
  readonly onInterrupt: InterruptChoice;
  readonly out: string;
  readonly allowMissing: boolean;
}

/** Exit code of a sweep interrupted by Ctrl-C (128 + SIGINT, as a shell reports it). */
const EXIT_INTERRUPTED = 130;

/**
 * The progress bar's note: results, failures, running jobs and the workers seen; while
 * Redis does not answer, that instead of the workers (they may be there: Redis went).
 */
function progressNote(p: QueueProgress, silentMs: number): string {
  const workers =
    silenceNote(silentMs) ??
    (p.workers.length === 0
      ? 'no worker connected'
      : `${p.workers.length} worker${p.workers.length === 1 ? '' : 's'}`);
  return `${p.done}/${p.total} done · ${p.failed} failed · ${p.active} running · ${workers}`;
}

/** `work`, or {@link QueueInterruptedError} as soon as `signal` aborts (work left behind). */
async function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  const r = await untilAborted(work, signal);
  if (!r.done)
    throw new QueueInterruptedError('the sweep was interrupted before its jobs were queued');
  return r.value;
}

/**
 * `tiqs-runner backtest --config SPEC --sweep --queue URL`: publishes the spec's recording
 * (blob store in the queue's Redis, or `--data-dir`), queues one job per grid point for
 * `tiqs-runner worker` processes, shows their progress, and writes the same `sweep.json`,
 * `sweep.html` and ranked table as a local sweep. Sets `process.exitCode`; throws only
 * what the local sweep's caller handles too (a bad spec, a strategy that does not load).
 */
export async function runQueueSweep(spec: BacktestSpec, opts: QueueSweepOptions): Promise<void> {
  // As runSweep says it, before anything is published or queued.
  if (spec.backtest.sweep === undefined) throw new Error(`${spec.file}: no backtest.sweep section`);
  const url = redactQueueUrl(opts.queue);
  let connection: ReturnType<typeof parseQueueUrl>;
  try {
    connection = parseQueueUrl(opts.queue, opts.queueFrom ?? '--queue');
    await checkQueueReachable(connection, url);
  } catch (err) {
    if (!(err instanceof QueueUrlError || err instanceof QueueUnavailableError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exitCode = err instanceof QueueUrlError ? EXIT.usage : EXIT.unavailable;
    return;
  }
  // Reconnects for ever, as BullMQ's own connections do: a Redis restart is ridden out.
  const redis = new Redis({ ...connection, maxRetriesPerRequest: null });
  redis.on('error', () => undefined);
  const started = performance.now();
  const bar = new ProgressBar(process.stderr, 'sweep');
  let last: QueueProgress | undefined;
  // Said from here to the end (upload, submission, wait): a hung Redis is never silent.
  const silence: SilenceWatch = watchRedisSilence(
    connection,
    url,
    (line) => bar.print(process.stderr, `${line}\n`),
    (silent) => {
      if (last !== undefined && silent > 0)
        bar.show(last.total === 0 ? 1 : last.done / last.total, progressNote(last, silent));
    },
  );
  let executor: QueueExecutor | undefined;
  const interrupt = new AbortController();
  let signals = 0;
  const onSigint = (): void => {
    signals += 1;
    // A second Ctrl-C: out at once, whatever is under way.
    if (signals > 1) process.exit(EXIT_INTERRUPTED);
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const store =
      opts.dataDir === undefined ? new RedisBlobStore(redis) : new DataDirStore(opts.dataDir);
    // Ctrl-C is taken at once here too: an upload to a hung Redis waits for ever.
    const [published, version, specText] = await unlessAborted(
      Promise.all([
        publishData(spec.backtest.data, store, DigestCache.for(projectRoot(spec.file))),
        codeVersion(spec),
        readFile(spec.file, 'utf8'),
      ]),
      interrupt.signal,
    );
    const file = resolve(spec.file);
    const specPath = relative(projectRoot(file), file).split(sep).join('/');
    const { QueueExecutor } = await import('../../backtest/queue/queue-executor.ts');
    let warned = false;
    executor = new QueueExecutor({
      connection,
      submission: {
        spec: spec.name,
        specText,
        specPath,
        data: published.files,
        dataSource: opts.dataDir === undefined ? 'redis' : 'data-dir',
        codeVersion: version,
      },
      signal: interrupt.signal,
      onSubmitted: (s) => {
        const where = opts.dataDir === undefined ? 'to Redis' : `to ${opts.dataDir}`;
        const again = s.retried === 0 ? '' : `, ${s.retried} failed before: queued again`;
        process.stdout.write(
          `sweep ${spec.name}: ${s.jobs} jobs (${s.alreadyDone} already done, ${s.attached} queued already${again}); ` +
            `data: ${published.uploaded} file(s) published ${where}, ${published.reused} reused; queue ${url} (code ${version})\n`,
        );
      },
      onProgress: (p) => {
        last = p;
        const silent = silence.silentMs();
        // Said once in words too: a log file gets no bar, and nothing moves without a
        // worker. Not while Redis is silent: then it is Redis that went, not the workers.
        if (p.workers.length === 0 && p.done < p.total && !warned && silent === 0) {
          warned = true;
          bar.print(
            process.stderr,
            `no worker is connected to ${url} yet: start one with \`tiqs-runner worker --queue ${url}\`\n`,
          );
        }
        bar.show(p.total === 0 ? 1 : p.done / p.total, progressNote(p, silent));
      },
    });
    const ranked = await runSweep(spec, {
      executor,
      out: opts.out,
      allowMissing: opts.allowMissing,
    }).finally(() => bar.done());
    const runners = new Set(ranked.results.flatMap((r) => ('runner' in r ? [r.runner] : []))).size;
    process.stdout.write(ranked.table);
    process.stdout.write(
      `\n${ranked.results.length} runs on ${runners} worker${runners === 1 ? '' : 's'} in ${((performance.now() - started) / 1_000).toFixed(1)} s\n`,
    );
    process.stdout.write(`wrote ${ranked.file}\nwrote ${ranked.html}\n`);
    // Runs the queue failed (not their strategy) are a sweep not done: exit 1, said why.
    const queueFailures = queueFailureSummary(ranked.results);
    if (queueFailures !== undefined) process.stderr.write(`${queueFailures}\n`);
    process.exitCode = queueFailures === undefined ? EXIT.ok : EXIT.failure;
  } catch (err) {
    process.exitCode = await failed(err, executor, opts, url);
  } finally {
    process.off('SIGINT', onSigint);
    silence.stop();
    redis.disconnect();
    // Redis gone: BullMQ's clients reconnect for ever and would hold the process open.
    if ((await executor?.close()) === 'stuck') process.exit(process.exitCode ?? EXIT.failure);
  }
}

/** The exit code for what stopped a queued sweep (after Ctrl-C's choice is carried out). */
async function failed(
  err: unknown,
  executor: QueueExecutor | undefined,
  opts: QueueSweepOptions,
  url: string,
): Promise<number> {
  if (err instanceof QueueInterruptedError) {
    if (executor === undefined)
      process.stderr.write('interrupted before the jobs were queued: nothing queued\n');
    else await settleInterrupt(executor, opts.onInterrupt, url);
    return EXIT_INTERRUPTED;
  }
  if (err instanceof SweepMissingDataError) {
    process.stderr.write(`${err.message}\n(--allow-missing runs on with a warning)\n`);
    return EXIT.missingData;
  }
  if (
    err instanceof CodeVersionError ||
    err instanceof ProjectRootError ||
    err instanceof BlobTooLargeError
  ) {
    process.stderr.write(`${err.message}\n`);
    return EXIT.config;
  }
  if (err instanceof DataFolderError) {
    process.stderr.write(`${err.message}\n`);
    return EXIT.unavailable;
  }
  throw err;
}
