import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, it } from 'vitest';

/** A real `redis-server` started for a test, on a loopback port, persisting to `dir`. */
export interface RedisServer {
  /** `redis://127.0.0.1:PORT`: what `--queue` takes. */
  readonly url: string;
  readonly port: number;
  /** Its working folder: the append-only file lives here, so a restart keeps the data. */
  readonly dir: string;
  /** SIGTERM, a bounded wait, then SIGKILL. Safe to call twice. */
  stop(): Promise<void>;
  /** Stop, then start again on the same port and folder (the data comes back from the AOF). */
  restart(): Promise<void>;
}

/** Options of {@link startRedis}. */
export interface StartRedisOptions {
  /** Working folder (created when missing); by default a fresh temp folder. */
  readonly dir?: string;
  /** A fixed port; by default a free one is picked. */
  readonly port?: number;
}

const BINARY = 'redis-server';
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;
/** Attempts with a freshly picked port when another process took ours in between. */
const PORT_ATTEMPTS = 5;

let present: boolean | undefined;

/** Whether the `redis-server` binary (Debian package `redis-server`) is on the PATH. */
export function hasRedisServer(): boolean {
  present ??= spawnSync(BINARY, ['--version'], { stdio: 'ignore' }).status === 0;
  return present;
}

/** What a suite that needs Redis does: run, skip with a warning, or fail (in CI). */
export function redisSuiteMode(
  hasServer: boolean,
  ci: string | undefined,
): 'run' | 'skip' | 'fail' {
  if (hasServer) return 'run';
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0' ? 'fail' : 'skip';
}

const MISSING =
  'redis-server is not installed (Debian: apt-get install redis-server; listed in .ci/apt-packages)';

/**
 * `describe` for a suite that needs a real `redis-server`. Without the binary it prints a
 * loud warning and skips the suite, except in CI (`CI` set), where the suite fails: the
 * queue tests must never be skipped silently there.
 */
export function describeWithRedis(name: string, fn: () => void): void {
  const mode = redisSuiteMode(hasRedisServer(), process.env.CI);
  if (mode === 'run') {
    describe(name, () => {
      // Registered first: vitest runs a suite's afterAll hooks last-registered first, so
      // this runs after the suite's own hooks have stopped its servers.
      afterAll(removeStoppedDirs);
      fn();
    });
    return;
  }
  if (mode === 'fail') {
    describe(name, () => {
      it('needs redis-server', () => {
        throw new Error(`${MISSING}; CI is set, so the suite fails instead of skipping`);
      });
    });
    return;
  }
  const bar = '!'.repeat(78);
  console.warn(`\n${bar}\n!! SKIPPED "${name}": ${MISSING}.\n${bar}\n`);
  describe.skip(name, fn);
}

/** A free loopback port (the OS picks it; closed again at once): nobody listens on it. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const live = new Set<ChildProcess>();
/** Temp folders this helper made (not the callers'), each with its server's current process. */
const madeDirs = new Map<string, () => ChildProcess>();
let exitHook = false;

const stopped = (child: ChildProcess): boolean =>
  child.exitCode !== null || child.signalCode !== null;

/**
 * Removes the temp folders of servers that are stopped, after a {@link describeWithRedis}
 * suite (vitest ends its worker processes without an `exit` event, so the hook below does
 * not run there). A server still running may yet be restarted: its folder stays.
 */
function removeStoppedDirs(): void {
  for (const [dir, current] of madeDirs)
    if (stopped(current())) {
      rmSync(dir, { recursive: true, force: true });
      madeDirs.delete(dir);
    }
}

/** Outside vitest (a bench), a process that exits leaves no server and no folder of ours. */
function killOnExit(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const c of live) c.kill('SIGKILL');
    for (const dir of madeDirs.keys()) rmSync(dir, { recursive: true, force: true });
  });
}

class PortInUseError extends Error {}

/** Spawns the server and resolves once it accepts connections and answers PING. */
async function spawnServer(port: number, dir: string): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir];
  args.push('--appendonly', 'yes', '--save', '', '--daemonize', 'no', '--protected-mode', 'no');
  const child = spawn(BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  killOnExit(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`redis-server on port ${port} not ready in ${START_TIMEOUT_MS} ms:\n${output}`),
      );
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-4000);
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`redis-server did not start: ${err.message}`, { cause: err }));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const why = `redis-server on port ${port} exited (${code ?? signal}) at start:\n${output}`;
      reject(output.includes('Address already in use') ? new PortInUseError(why) : new Error(why));
    });
  });
  child.stdout?.resume();
  child.stderr?.resume();
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    retryStrategy: () => null,
  });
  try {
    await client.connect();
    const pong = await client.ping();
    if (pong !== 'PONG') throw new Error(`redis-server on port ${port} answered PING with ${pong}`);
  } finally {
    client.disconnect();
  }
  return child;
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (stopped(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), STOP_TIMEOUT_MS);
  });
  const outcome = await Promise.race([exited, late]);
  clearTimeout(timer);
  if (outcome === 'late') {
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * Starts a real `redis-server` on a free loopback port (or `port`) in `dir` (or a fresh
 * temp folder) with `--appendonly yes --save ''`, so a {@link RedisServer.restart} keeps
 * every key, as a production Redis with persistence would. Resolves once it answers PING.
 */
export async function startRedis(options: StartRedisOptions = {}): Promise<RedisServer> {
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'tiqs-redis-')));
  await mkdir(dir, { recursive: true });
  let port = options.port ?? (await freePort());
  let child: ChildProcess | undefined;
  for (let attempt = 1; child === undefined; attempt += 1) {
    try {
      child = await spawnServer(port, dir);
    } catch (err) {
      // Another process may take a picked port between freePort() and the bind: pick again.
      if (!(err instanceof PortInUseError) || options.port !== undefined) throw err;
      if (attempt >= PORT_ATTEMPTS) throw err;
      port = await freePort();
    }
  }
  let current: ChildProcess = child;
  if (options.dir === undefined) madeDirs.set(dir, () => current);
  const fixedPort = port;
  return {
    url: `redis://127.0.0.1:${fixedPort}`,
    port: fixedPort,
    dir,
    stop: () => stopServer(current),
    restart: async () => {
      await stopServer(current);
      current = await spawnServer(fixedPort, dir);
    },
  };
}
