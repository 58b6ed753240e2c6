import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionError } from '../../src/api/errors/session-error.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import { Kernel } from '../../src/runtime/kernel.ts';
import {
  SESSION_REFUSED_MESSAGE,
  SESSION_RESUMED_MESSAGE,
  SessionExpiryNotice,
} from '../../src/runtime/session-expiry-notice.ts';
import { type RunningSimulator, startSimulator } from '../../src/sim/index.ts';
import {
  countedFetch,
  ioSettled,
  placeIntent,
  until,
  useExecutionHarness,
} from '../helpers/execution-harness.ts';

type Line = Record<string, unknown> & { level: number; msg: string };
const capture = () => {
  const lines: Line[] = [];
  const logger = pino({ level: 'debug' }, { write: (l: string) => lines.push(JSON.parse(l)) });
  return { lines, logger };
};
const errors = (lines: Line[]) => lines.filter((l) => l.level >= 50);

let sim: RunningSimulator | undefined;
let kernel: Kernel | undefined;
afterEach(async () => {
  // The stop re-reads the book on the kernel's (virtual) clock: step it until done, each
  // step once the kernel's requests have settled (however slow the runner).
  let done = false;
  const stopped = kernel?.stop().finally(() => {
    done = true;
  });
  for (let i = 0; i < 200 && !done && kernel !== undefined; i++) {
    await ioSettled();
    if (!done) (kernel.clock as VirtualClock).advanceBy(100);
  }
  await stopped;
  await sim?.close();
  kernel = undefined;
  sim = undefined;
});

const MORNING = '2026-11-20T10:00:00+05:30';
const setUp = useExecutionHarness();

describe('one line on a refused session', () => {
  it('the bus meets it first (no order in flight): one error line with the remedy, then one resumed line', async () => {
    // Checked to fail: with the bus's own error line back (health-tracker at error),
    // two error lines appear; without the kernel's notice, none names SIGHUP.
    const clock = new VirtualClock(Date.parse(MORNING));
    sim = await startSimulator({ clock, seed: 5 });
    const { lines, logger } = capture();
    kernel = await Kernel.create({
      config: parseConfig(
        `mode: paper
broker: { baseUrl: embedded }
strategies:
  - { id: quiet, module: ${process.cwd()}/test/fixtures/strategies/rest-limit.ts }
state: { dir: ${mkdtempSync(join(tmpdir(), 'tr-state-'))} }
logging: { summaryIntervalSeconds: 0 }
`,
        'config/test.yaml',
        {},
      ),
      configFile: join(process.cwd(), 'config', 'test.yaml'),
      logger,
      clock,
      endpoint: { baseUrl: sim.url, appId: 'sim-app', token: 'sim-token' },
      fetch: countedFetch,
    });
    await kernel.start();
    sim.setCredentials({ tokenExpiresAt: clock.now() });
    // One second of virtual time, then until the requests it set off have been answered.
    const step = async () => {
      clock.advanceBy(1_000);
      await ioSettled();
    };
    for (let i = 0; i < 5 && errors(lines).length === 0; i++) await step();
    for (let i = 0; i < 3; i++) await step();
    expect(errors(lines)).toHaveLength(1);
    const [notice] = errors(lines);
    expect(notice?.msg.startsWith(SESSION_REFUSED_MESSAGE)).toBe(true);
    expect(notice?.msg).toMatch(/SIGHUP/);
    expect(notice).toMatchObject({ event: 'session-refused', component: 'market-data' });
    expect(kernel.engine.pausedReason).toMatch(/session/);

    sim.setCredentials({ token: 'fresh' }); // a new token, and no expiry set
    kernel.setCredentials({ appId: 'sim-app', token: 'fresh' });
    await step();
    expect(lines.filter((l) => l.msg === SESSION_RESUMED_MESSAGE)).toHaveLength(1);
    expect(kernel.engine.pausedReason).toBeUndefined();
    expect(errors(lines)).toHaveLength(1);
  });

  it('the engine meets it first (an order in flight): the notice speaks, the engine does not', async () => {
    // Checked to fail: without `onSessionRefused` the engine logs its own error line.
    const { lines, logger } = capture();
    const notice = new SessionExpiryNotice(logger, { tokenFile: '/run/tiqs/token' });
    const { engine } = await setUp(
      MORNING,
      {
        logger,
        onSessionRefused: (err: SessionError) =>
          notice.refused('execution', { operation: err.operation }),
      },
      { tokenExpiresAt: Date.parse(MORNING) },
    );
    await engine.submit(placeIntent('e1'));
    await engine.submit(placeIntent('e2'));
    await until(() => engine.pausedReason !== undefined);
    // The bus then meets it too: still one line.
    notice.refused('market-data', { operation: 'quotes', status: 401 });
    expect(errors(lines)).toHaveLength(1);
    expect(errors(lines)[0]).toMatchObject({ event: 'session-refused', component: 'execution' });
    expect(errors(lines)[0]?.msg).toMatch(/broker\.tokenFile \(\/run\/tiqs\/token\)/);
  });
});
