import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForExit } from './helpers/child-process.ts';
import { E2eWorld, fixture, realMsUntil } from './helpers/e2e-world.ts';
import { parseLog } from './helpers/json-log.ts';
import { pause } from './helpers/wait-log.ts';

const DAY = '2026-01-05';
const BAD = 99_999;
const GOOD = [3045, 2885, 1594];
let world: E2eWorld;
// Built when the file's tests begin, so the shared clock's anchor is a few seconds ahead.
beforeAll(() => {
  world = new E2eWorld({
    start: `${DAY}T09:20:00+05:30`,
    speed: 60,
    anchor: new Date(Date.now() + 4_000).toISOString(),
  });
});
afterAll(() => world.dispose());

describe('e2e: a bad token in one strategy', { timeout: 90_000 }, () => {
  it("keeps feeding every valid token, the bad strategy's own good token included", async () => {
    const admin = await world.startSim();
    const config = world.writeConfig(
      world.baseConfig([
        // A typo'd token next to a good one, in the same quote batch as everyone's.
        {
          id: 'typo',
          module: fixture('scheduled-orders.ts'),
          params: { quoteTokens: [3045, BAD] },
        },
        {
          id: 'good',
          module: fixture('scheduled-orders.ts'),
          params: { quoteTokens: [2885, 1594] },
        },
      ]),
    );
    const bot = await world.startBot(config);
    // Let the bot meet the rejection and settle (bisecting takes a few intervals).
    await pause(realMsUntil(world.clock, `${DAY}T09:20:00+05:30`) + 6_000);
    const early = await admin.stats();
    await pause(5_000); // 5 intervals of 1 s
    const late = await admin.stats();
    bot.signal('SIGTERM');
    const exit = await waitForExit(bot, 20_000);
    const log = parseLog(bot.lines);
    const ctx = JSON.stringify({ early: early.quotesServed, late: late.quotesServed });

    expect(exit.code).toBe(0);
    // Every valid token is served in (nearly) every interval. Checked against the tree
    // before issue 11's fixes (fd89f4d, with only this simulator and suite copied in):
    // the batch with the bad token is refused (404) every interval, no token is ever
    // served, and this fails with 0.
    for (const token of GOOD) {
      const served =
        (late.quotesServed[String(token)] ?? 0) - (early.quotesServed[String(token)] ?? 0);
      expect(served, `token ${token}: ${ctx}`).toBeGreaterThanOrEqual(3);
    }
    // The bad token is reported to the operator, by number.
    expect(log.some((l) => l.level >= 40 && JSON.stringify(l).includes(String(BAD)))).toBe(true);
    // It is retried rarely, not hammered: after the bisection it is asked for alone every
    // rejectedRetrySeconds (300 s of market time, 5 s here), so at most twice in the 5 s
    // window. A token that rides every interval's batch is asked for 4+ times in the same
    // window (asserted for 3045, so the window would show hammering, as issue 11 saw: the
    // bad token rode every batch). Checked by asserting <= -1: the run showed 3 asks in
    // the bisection before the window, 0 in it, and 5 for 3045.
    const asked = (token: number) =>
      (late.quotesAsked[String(token)] ?? 0) - (early.quotesAsked[String(token)] ?? 0);
    const askedCtx = JSON.stringify({ early: early.quotesAsked, late: late.quotesAsked });
    expect(asked(3045), askedCtx).toBeGreaterThanOrEqual(4);
    expect(asked(BAD), askedCtx).toBeLessThanOrEqual(2);
    // Never a 429 either.
    expect(late.rateLimited).toBe(0);
    expect(late.classes.quote.maxPerSecond).toBeLessThanOrEqual(10);
  });
});
