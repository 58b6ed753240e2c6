import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATED_REJECTION } from '../../src/sim/http/fault-injector.ts';
import { waitForExit } from './helpers/child-process.ts';
import { E2eWorld, fixture, realMsUntil } from './helpers/e2e-world.ts';
import { eventsOf, parseLog } from './helpers/json-log.ts';
import { isEvent, waitForLog } from './helpers/wait-log.ts';

// The last 20 minutes of Mon 5 Jan 2026 at 120x: the square-off is at 15:20 IST.
const SPEED = 120;
const DAY = '2026-01-05';
let world: E2eWorld;
beforeAll(() => {
  world = new E2eWorld({
    start: `${DAY}T15:10:00+05:30`,
    speed: SPEED,
    anchor: new Date(Date.now() + 12_000).toISOString(),
  });
});
afterAll(() => world.dispose());

describe('e2e: the exchange rejects the square-off before the close', { timeout: 90_000 }, () => {
  it('tries the exit again until the position is closed, before the close', async () => {
    const admin = await world.startSim();
    const config = world.writeConfig(
      world.baseConfig(
        [
          {
            id: 'sched',
            module: fixture('scheduled-orders.ts'),
            // One intraday buy a market minute after the start.
            params: { everySeconds: 60, maxOrders: 1 },
          },
        ],
        { execution: { shutdownTimeoutMs: 5_000 } },
      ),
    );
    const bot = await world.startBot(config, {}, `${DAY}T15:10:50+05:30`);
    await waitForLog(bot, isEvent('OrderFilled', 'sched'), 1, 30_000, 'the entry to fill');
    // The exchange refuses the next two placements: the square-off's exit and its first try.
    await admin.faults({ rejectOrders: 2 });
    // Bounded wait on real time: until 15:25 IST, five minutes before the close.
    const wait = realMsUntil(world.clock, `${DAY}T15:25:00+05:30`);
    expect(wait).toBeLessThan(30_000);
    await new Promise((r) => setTimeout(r, wait));
    const book = await admin.orders();
    const stats = await admin.stats();
    bot.signal('SIGTERM');
    const exit = await waitForExit(bot, 15_000);
    const events = eventsOf(parseLog(bot.lines));
    const report = JSON.stringify({ book, stderr: bot.stderr().slice(-2_000) });

    // The fault bit (else this proves nothing): two exits were refused.
    expect(stats.faults.rejectedOrders, report).toBe(2);
    const sells = book.orders.filter((o) => o.transactionType === 'S').map((o) => o.status);
    expect(sells, report).toEqual(['REJECTED', 'REJECTED', 'COMPLETE']);
    // Flat at the broker before the close. Checked to fail with `execution.exitRetries: 0`
    // in this config (the behaviour before the retries): the position stays at 1 and the
    // only SELL is the rejected one.
    expect(book.positions, report).toEqual({ '3045': 0 });
    const refused = events.filter((e) => e.type === 'OrderRejected');
    expect(refused.map((e) => e.reason)).toEqual([SIMULATED_REJECTION, SIMULATED_REJECTION]);
    expect(refused.map((e) => e.intentId)).toEqual([
      expect.stringMatching(/^auto-eod-\d+:3045$/),
      expect.stringMatching(/^auto-eod-\d+#retry1:3045$/),
    ]);
    expect(exit.code, report).toBe(0);
  });
});
