import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/**
 * The checkpointer thread: its own connection to the same file, so a checkpoint's page
 * copying and fsync (tens of ms once the day's WAL has grown) never stall the event loop
 * that places orders. WAL lets a PASSIVE checkpoint run beside the writer.
 */
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
parentPort.on('message', () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true });
  } catch (err) {
    parentPort.postMessage({ ok: false, message: String(err && err.message) });
  }
});
`;

/**
 * The journal's checkpoints on their own thread: bookkeeping, so they follow the orders
 * instead of holding them up. One at a time; a request while one runs is dropped (the
 * next poll asks again). If the thread fails (cannot start, or a checkpoint throws),
 * checkpoints go back to the journal's own connection (`onConnection`), as before the
 * thread, so a failure surfaces to the caller instead of the WAL growing all session
 * unseen, and no thread is restarted every poll.
 *
 * @example
 * ```ts
 * const checkpointer = new JournalCheckpointer(path, () => db.pragma('wal_checkpoint(PASSIVE)'));
 * checkpointer.request(); // after a poll
 * checkpointer.stop(); // at close
 * ```
 */
export class JournalCheckpointer {
  /** Started by the first {@link request}. */
  private worker: Worker | undefined;
  private running = false;
  private onThread = true;

  constructor(
    readonly path: string,
    private readonly onConnection: () => void,
  ) {}

  /** Checkpoints now: on the thread (started at the first request), or on the connection. */
  request(): void {
    if (!this.onThread) {
      this.onConnection();
      return;
    }
    if (this.running) return;
    if (this.worker === undefined) {
      const worker = new Worker(CHECKPOINTER, {
        eval: true,
        workerData: { path: this.path, driver: require.resolve('better-sqlite3') },
      });
      worker.on('message', (answer: { ok: boolean }) => {
        this.running = false;
        if (!answer.ok) this.dropThread();
      });
      worker.on('error', () => this.dropThread());
      // Never what keeps the process alive.
      worker.unref();
      this.worker = worker;
    }
    this.running = true;
    this.worker.postMessage('checkpoint');
  }

  /** Gives up the thread for good: later checkpoints run on the connection. */
  private dropThread(): void {
    void this.worker?.terminate();
    this.worker = undefined;
    this.running = false;
    this.onThread = false;
  }

  /** Ends the thread (at the journal's close). */
  stop(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }
}
