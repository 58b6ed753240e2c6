import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnRunner, waitForExit } from './helpers/child-process.ts';
import { APP_ID, E2eWorld, fixture, TOKEN } from './helpers/e2e-world.ts';

let world: E2eWorld;
beforeAll(() => {
  world = new E2eWorld({
    start: '2026-11-20T10:00:00+05:30',
    speed: 1,
    anchor: new Date(Date.now() + 2_000).toISOString(),
  });
});
afterAll(() => world.dispose());

const TOKENS = [3045, 26000];
// Three days a chunk over Q1 2025: 30 chunks a token, 60 requests, six seconds at the
// endpoint's 10 requests a second; the first run is killed well before that.
const RANGE = ['--from', '2025-01-01', '--to', '2025-03-31', '--chunk-days', '3'];
const TOTAL = 60;
const KILL_AFTER = 12;

/** Complete chunk files under `out` by token (`.tmp` leftovers are not chunks). */
function chunkFiles(out: string): string[] {
  return TOKENS.flatMap((t) => {
    const dir = join(out, 'candles', String(t));
    return existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.csv'))
          .map((f) => `${t}/${f}`)
      : [];
  }).sort();
}

/** Polls until `out` holds `n` chunk files, at most `timeoutMs`. */
async function waitForChunks(out: string, n: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (chunkFiles(out).length < n) {
    if (Date.now() > until)
      throw new Error(`fewer than ${n} chunk files in ${out} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('e2e: history resumes after kill -9, fetching only the missing chunks', {
  timeout: 120_000,
}, () => {
  it('a killed download rerun into the same folder equals an uninterrupted one', async () => {
    const admin = await world.startSim();
    const config = world.writeConfig({
      mode: 'paper',
      broker: { baseUrl: admin.url, appId: APP_ID, token: TOKEN },
      strategies: [
        { id: 'log', module: fixture('candle-log.ts'), params: { token: 3045, interval: '1m' } },
      ],
      state: { dir: world.stateDir },
      logging: { level: 'warn', format: 'json' },
    });
    const out = join(world.dir, 'hist');
    const history = (dir: string, ...more: string[]) =>
      spawnRunner([
        'history',
        '--config',
        config,
        '--tokens',
        TOKENS.join(','),
        '--interval',
        '1m',
        ...RANGE,
        '--out',
        dir,
        ...more,
      ]);

    // Run 1: SIGKILL once some chunks are on disk.
    const run1 = history(out);
    await waitForChunks(out, KILL_AFTER, 30_000);
    run1.signal('SIGKILL');
    expect((await waitForExit(run1, 10_000)).signal).toBe('SIGKILL');
    const saved = chunkFiles(out);
    const asked1 = (await admin.stats()).routes.candles ?? 0;
    expect(saved.length, 'killed mid-download').toBeLessThan(TOTAL);
    // Each saved chunk took one request; at most one more was in flight at the kill.
    expect(asked1 - saved.length).toBeGreaterThanOrEqual(0);
    expect(asked1 - saved.length).toBeLessThanOrEqual(1);
    const meta1 = JSON.parse(readFileSync(join(out, 'meta.json'), 'utf8')) as { complete: boolean };
    expect(meta1.complete).toBe(false);

    // Run 2: only the missing chunks are fetched.
    const run2 = history(out);
    const exit2 = await waitForExit(run2, 60_000);
    expect(exit2.code, run2.stderr()).toBe(0);
    expect(run2.lines[0]).toMatch(
      new RegExp(
        `^history: ${TOTAL - saved.length} chunks fetched, ${saved.length} already present; \\d+ 1m bars of 2 tokens`,
      ),
    );
    const asked2 = (await admin.stats()).routes.candles ?? 0;
    expect(asked2 - asked1).toBe(TOTAL - saved.length);

    // Run 3: the same download uninterrupted, into another folder: the same files.
    const whole = join(world.dir, 'whole');
    const run3 = history(whole);
    expect((await waitForExit(run3, 60_000)).code, run3.stderr()).toBe(0);
    expect(chunkFiles(out)).toEqual(chunkFiles(whole));
    expect(chunkFiles(out)).toHaveLength(TOTAL);
    for (const f of chunkFiles(whole)) {
      expect(readFileSync(join(out, 'candles', f), 'utf8'), f).toBe(
        readFileSync(join(whole, 'candles', f), 'utf8'),
      );
    }
    const meta = (dir: string) =>
      JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Record<string, unknown>;
    expect(meta(out)).toEqual(meta(whole));
    expect(meta(out)).toMatchObject({ complete: true, source: 'service', interval: '1m' });

    // A rerun asking another interval of the same folder is refused, and changes nothing.
    const other = spawnRunner([
      'history',
      '--config',
      config,
      '--tokens',
      TOKENS.join(','),
      '--interval',
      '5m',
      ...RANGE,
      '--out',
      out,
    ]);
    const exit4 = await waitForExit(other, 30_000);
    expect(exit4.code).toBe(2);
    expect(other.stderr()).toMatch(/already holds interval 1m, not 5m/);
  });
});
