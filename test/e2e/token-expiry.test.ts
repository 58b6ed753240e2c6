import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForExit } from './helpers/child-process.ts';
import { E2eWorld, fixture, realMsUntil, TOKEN } from './helpers/e2e-world.ts';
import { eventsOf, intentsOf, parseLog, unfinishedIntents } from './helpers/json-log.ts';
import { duplicateTags } from './helpers/sim-admin.ts';
import { isEvent, isIntent, pause, waitForLog } from './helpers/wait-log.ts';

const DAY = '2026-01-05';
const BURST = 25;
const NEW_TOKEN = 'e2e-token-day-2';
let world: E2eWorld;
// Built when the file's tests begin, so the shared clock's anchor is a few seconds ahead.
beforeAll(() => {
  world = new E2eWorld({
    start: `${DAY}T09:20:00+05:30`,
    speed: 60,
    // Slow starts (a loaded runner) fail with a clear message at startBot.
    anchor: new Date(Date.now() + 8_000).toISOString(),
  });
});
afterAll(() => world.dispose());

describe('e2e: token expiry, a queued burst, a new token and resume', { timeout: 120_000 }, () => {
  it('sends every queued intent once, paced, after SIGHUP with a new token in .env', async () => {
    const admin = await world.startSim(['--token-expires-at', `${DAY}T09:22:00+05:30`]);
    const config = world.writeConfig(
      world.baseConfig(
        [
          {
            id: 'sched',
            module: fixture('scheduled-orders.ts'),
            params: { everySeconds: 30, maxOrders: 200, quoteTokens: [3045] },
          },
          { id: 'burst', module: fixture('burst-at.ts'), params: { at: '09:23', count: BURST } },
        ],
        // The day's token comes from the environment, and on SIGHUP from ./.env.
        { broker: { token: '${TIQS_ACCESS_TOKEN}' } },
      ),
    );
    const bot = await world.startBot(config, { TIQS_ACCESS_TOKEN: TOKEN }, `${DAY}T09:21:30+05:30`);
    // The burst is emitted a minute of market time after the expiry: all 25 queue up.
    await waitForLog(
      bot,
      isIntent('burst'),
      BURST,
      realMsUntil(world.clock, `${DAY}T09:23:00+05:30`) + 15_000,
      'the burst',
    );
    await pause(1_500);
    const expired = await admin.stats();
    // A new day's token: the service accepts it, the operator puts it in .env and sends SIGHUP.
    writeFileSync(join(world.dir, '.env'), `TIQS_ACCESS_TOKEN=${NEW_TOKEN}\n`);
    await admin.credentials({ token: NEW_TOKEN, tokenExpiresAt: null });
    bot.signal('SIGHUP');
    await waitForLog(bot, isEvent('OrderFilled', 'burst'), BURST, 30_000, 'the burst to fill');
    await pause(1_000);
    bot.signal('SIGTERM');
    const exit = await waitForExit(bot, 20_000);

    const log = parseLog(bot.lines);
    const intents = intentsOf(log);
    const events = eventsOf(log);
    const stats = await admin.stats();
    const book = await admin.orders();
    const ctx = JSON.stringify({ classes: stats.classes, stderr: bot.stderr().slice(-1_500) });

    // The expiry really refused requests before the new token.
    expect(expired.statuses['401'] ?? 0).toBeGreaterThan(0);
    // One line, not one per component or per request, tells the operator the remedy.
    const remedy = log.filter((l) => l.level >= 40 && /SIGHUP/.test(l.msg));
    expect(remedy.map((l) => l.msg)).toHaveLength(1);
    expect(exit.code, ctx).toBe(0);
    // Every burst intent filled once. Checked against the tree before issue 11's fixes
    // (fd89f4d, with only this simulator and suite copied in): its client flushes the
    // queue at once, placements are answered 429 and rejected, and the wait for 25 fills
    // fails.
    const burstFilled = events.filter((e) => e.type === 'OrderFilled' && e.strategyId === 'burst');
    expect(new Set(burstFilled.map((e) => e.intentId)).size).toBe(BURST);
    expect(unfinishedIntents(intents, events), ctx).toEqual([]);
    expect(
      events.filter((e) => e.type === 'OrderRejected' || e.type === 'OrderDenied'),
      ctx,
    ).toEqual([]);
    expect(duplicateTags(book.orders)).toEqual([]);
    // Paced as the service counts: never a 429, never over 10 arrivals in a second.
    expect(stats.rateLimited, ctx).toBe(0);
    expect(stats.classes.order.maxPerSecond, ctx).toBeLessThanOrEqual(10);
    // The burst really was a burst: at least 25 placements after the resume.
    expect(stats.classes.order.requests).toBeGreaterThanOrEqual(BURST);
  });
});
