// Cold start: wall time from spawning a process to (a) its exit for a bare `node -e 0`
// (the baseline) and for `tiqs-runner --help`, and (b) the first answered quote poll of
// the paper bot (`npm start`'s config: the three shipped strategies on the embedded
// simulator, whose market is set inside a session so polling starts at once). The
// first poll is the bot's first `quotes:*` response log line (debug level, JSON).
// The CLI runs from its bundle (dist/bundle/, scripts/build-bundle.mjs) and the
// strategies come from the strategy cache (a folder of the bench's, filled by the
// warm-up round). For comparison, the bot also starts from the unbundled dist/ modules
// (TIQS_RUNNER_BUNDLE=off), with the cache off (strategies compiled by tsx at start) and
// the way it did before issue 13 (the framework's sources compiled by tsx at start too).
// It also restarts on the state folder the round before left (the stored calendar,
// instrument master and journal: a bot restarted during the day; not the target's
// measure, which starts from an empty one).
// Rounds are interleaved so machine load hits all alike; medians are compared. Beside
// wall time, the bot's CPU time to its first poll (user + system, all threads, from
// /proc) is less sensitive to the machine's load, and its main thread's alone (the
// JavaScript; V8's and libuv's helper threads left out) is the steadiest figure for
// comparing two builds. COLD_START_ONLY=bundle runs only the baseline, `--help` and the
// bundled bot (quicker A/B runs).
// Targets (issue 13): first poll <= 6x the baseline, --help <= 4x.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROUNDS = Number(process.env.COLD_START_ROUNDS ?? 11);
/** Only the bundled bot beside the baseline and `--help` (A/B runs of a change). */
const BUNDLE_ONLY = process.env.COLD_START_ONLY === 'bundle';
const FIRST_POLL_TIMEOUT_MS = 30_000;
const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'bin/tiqs-runner.js');

const build = spawnSync(process.execPath, [join(root, 'scripts/ensure-build.mjs')], {
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(1);

const work = mkdtempSync(join(tmpdir(), 'tr-cold-start-'));
const config = join(work, 'paper.yaml');
writeFileSync(
  config,
  readFileSync(join(root, 'config/paper.yaml'), 'utf8')
    .replaceAll('../strategies/', `${join(root, 'strategies')}/`)
    .replace('speed: 10', 'speed: 1\n    start: "2026-11-20T10:00:00+05:30"')
    .replace('dir: ../var/state', `dir: ${join(work, 'state')}`)
    .replace('level: info', 'level: debug')
    .replace('format: auto', 'format: json'),
);

/** Milliseconds from spawn to exit. */
function untilExit(args: string[]): Promise<number> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { stdio: 'ignore' });
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0
        ? done(performance.now() - started)
        : fail(new Error(`${args.join(' ')}: exit ${code}`)),
    );
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.on('exit', () => {
      clearTimeout(kill);
      done();
    });
    child.kill('SIGINT');
  });
}

// How the CLI ran before issue 13: the framework's own sources compiled by tsx at start.
const viaTsx = [
  '--input-type=module',
  '-e',
  `import { register } from 'tsx/esm/api'; register();
const { main } = await import(${JSON.stringify(join(root, 'src/cli/main.ts'))});
process.exitCode = await main(['node', 'tiqs-runner', ...process.argv.slice(1)]);`,
];

/**
 * CPU milliseconds (user + system) a running process has used so far: all its threads,
 * or with `mainThread` its main thread's alone.
 */
function cpuMs(pid: number | undefined, mainThread = false): number {
  try {
    const stat = mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`;
    const fields = readFileSync(stat, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command's name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** One bot's start: wall ms to its first poll, CPU ms then (all threads, main thread). */
type Run = { wall: number; cpu: number; main: number };

/** Milliseconds from spawn to the paper bot's first answered quote poll, wall and CPU. */
async function untilFirstPoll(
  round: number,
  launcher: string[] = [bin],
  env: NodeJS.ProcessEnv = process.env,
  keepState = false,
): Promise<Run> {
  if (!keepState) rmSync(join(work, 'state'), { recursive: true, force: true });
  const started = performance.now();
  const child = spawn(process.execPath, [...launcher, 'run', '--config', config], {
    cwd: root,
    // stderr kept, not shown: every round's bot prints its dashboard URL there.
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderr = (stderr + text).slice(-64_000);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), FIRST_POLL_TIMEOUT_MS);
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      if (line.includes('"operation":"quotes:') && line.includes('"msg":"response"'))
        return {
          wall: performance.now() - started,
          cpu: cpuMs(child.pid),
          main: cpuMs(child.pid, true),
        };
    }
    // The dashboard's URL carries its token: not repeated.
    const said = stderr.replace(/token=[^\s&]+/g, 'token=…').slice(-4_000);
    throw new Error(`round ${round}: the bot ended without a quote poll; stderr: ${said}`);
  } finally {
    clearTimeout(timer);
    await stop(child);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

const bare: number[] = [];
const help: number[] = [];
type Runs = { wall: number[]; cpu: number[]; main: number[] };
const runs = (): Runs => ({ wall: [], cpu: [], main: [] });
const firstPoll = runs();
const firstPollUnbundled = runs();
const firstPollViaTsx = runs();
const firstPollNoCache = runs();
const restart = runs();
const add = (to: Runs, run: Run) => {
  to.wall.push(run.wall);
  to.cpu.push(run.cpu);
  to.main.push(run.main);
};
// The strategy cache in a folder of the bench's own: the warm-up rounds fill it (the
// bundle and dist/ each have their entries: compiled strategies import their modules).
const cacheDir = join(work, 'strategy-cache');
const cached = { ...process.env, TIQS_RUNNER_CACHE_DIR: cacheDir };
const unbundled = { ...cached, TIQS_RUNNER_BUNDLE: 'off' };
const uncached = { ...process.env, TIQS_RUNNER_CACHE_DIR: 'off' };
const unbundledCacheDir = { ...unbundled, TIQS_RUNNER_CACHE_DIR: `${cacheDir}-dist` };
try {
  // Warm the OS file cache, fill the strategy caches.
  await untilFirstPoll(-1, [bin], cached);
  if (!BUNDLE_ONLY) await untilFirstPoll(-1, [bin], unbundledCacheDir);
  for (let round = 0; round < ROUNDS; round++) {
    bare.push(await untilExit(['-e', '0']));
    help.push(await untilExit([bin, '--help']));
    add(firstPoll, await untilFirstPoll(round, [bin], cached));
    if (BUNDLE_ONLY) continue;
    // The state the round before left (calendar, instrument master, journal) kept.
    add(restart, await untilFirstPoll(round, [bin], cached, true));
    add(firstPollUnbundled, await untilFirstPoll(round, [bin], unbundledCacheDir));
    add(firstPollNoCache, await untilFirstPoll(round, [bin], uncached));
    add(firstPollViaTsx, await untilFirstPoll(round, viaTsx));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const base = median(bare);
const row = (what: string, xs: number[] | Runs, target?: number) => {
  const wall = Array.isArray(xs) ? xs : xs.wall;
  return {
    what,
    'median ms': median(wall).toFixed(0),
    'min ms': Math.min(...wall).toFixed(0),
    ratio: `${(median(wall) / base).toFixed(2)}x`,
    target: target === undefined ? '' : `<= ${target}x`,
    'CPU ms': Array.isArray(xs) ? '' : median(xs.cpu).toFixed(0),
    'main thread CPU ms': Array.isArray(xs) ? '' : median(xs.main).toFixed(0),
  };
};
console.log(
  `${ROUNDS} interleaved rounds; ratios are medians over the bare node median; load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.table([
  row('node -e 0 (baseline)', bare),
  row('tiqs-runner --help', help, 4),
  row('paper bot: start to first quote poll', firstPoll, 6),
  ...(BUNDLE_ONLY
    ? []
    : [
        row('the same, restarted on its state folder', restart),
        row('the same, from dist/ (TIQS_RUNNER_BUNDLE=off)', firstPollUnbundled),
        row('the same, strategy cache off (strategies by tsx)', firstPollNoCache),
        row('the same, framework compiled by tsx (before)', firstPollViaTsx),
      ]),
]);
const helpRatio = median(help) / base;
const pollRatio = median(firstPoll.wall) / base;
console.log(
  `cold start: first poll ${pollRatio.toFixed(2)}x node -e 0 (target <= 6x), --help ${helpRatio.toFixed(2)}x (target <= 4x)`,
);
// A loaded machine stretches the baseline's median as much as the bot's (a 90 ms node
// measured at 190 ms makes a 6x look met): the quickest round of each, the least
// disturbed, says what the machine itself gives.
console.log(
  `fastest rounds: first poll ${(Math.min(...firstPoll.wall) / Math.min(...bare)).toFixed(2)}x the fastest node -e 0 (not the target's measure; compare it when the load is high)`,
);
if (pollRatio > 6 || helpRatio > 4) {
  console.error('target missed');
  process.exit(1);
}
