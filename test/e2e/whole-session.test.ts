import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForExit } from './helpers/child-process.ts';
import { E2eWorld, fixture, realMsUntil } from './helpers/e2e-world.ts';
import { diagnose, eventsOf, intentsOf, parseLog, unfinishedIntents } from './helpers/json-log.ts';
import { duplicateTags } from './helpers/sim-admin.ts';
import { isEvent, pause, waitForLog } from './helpers/wait-log.ts';

// A whole trading day (Mon 5 Jan 2026, 09:15-15:30 IST) at 900x: about 26 s of real time.
const SPEED = 900;
/** Why an intent whose placement was lost twice ends (placement.ts). */
const UNKNOWN_TWICE = 'placement outcome unknown twice; giving up';
const DAY = '2026-01-05';
let world: E2eWorld;
// Built when the file's tests begin, so the shared clock's anchor is a few seconds ahead.
beforeAll(() => {
  world = new E2eWorld({
    start: `${DAY}T09:12:00+05:30`,
    speed: SPEED,
    // The simulator and the bot need a few seconds to start (over 10 s on a loaded 2-core
    // runner); market time reaches 09:12 at the anchor.
    anchor: new Date(Date.now() + 12_000).toISOString(),
  });
});
afterAll(() => world.dispose());

describe('e2e: a compressed whole session against a faulty service', { timeout: 150_000 }, () => {
  it('trades pre-open to after the close with no duplicate, lost or throttled order', async () => {
    const admin = await world.startSim([
      '--fail-rate',
      '0.04',
      '--drop-rate',
      '0.03',
      '--malformed-rate',
      '0.03',
      '--stall-rate',
      '0.02',
      '--lose-order-responses',
      '2',
    ]);
    const config = world.writeConfig(
      world.baseConfig(
        [
          {
            id: 'sched',
            module: fixture('scheduled-orders.ts'),
            // 3 intents before the open (deferred), then one every 15 market minutes.
            params: { preOpen: 3, everySeconds: 900, maxOrders: 20, quoteTokens: [3045] },
          },
          {
            id: 'watch',
            module: fixture('scheduled-orders.ts'),
            params: { quoteTokens: [2885, 1594, 26000] },
          },
        ],
        {
          broker: { timeoutMs: 2_000 },
          execution: { shutdownTimeoutMs: 5_000 },
        },
      ),
    );
    const bot = await world.startBot(config, {}, `${DAY}T09:14:00+05:30`);
    // Mid-morning, for one real second, every order-book answer and placement stalls
    // after its headers (the placement is carried out): tracking and the unknown
    // outcome must both survive it.
    await waitForLog(bot, isEvent('OrderFilled', 'sched'), 6, 30_000, 'six fills');
    await admin.faults({ stallRate: 1, routes: ['orderBook', 'placeOrder'] });
    await pause(1_000);
    await admin.faults({ stallRate: 0.02, routes: null });
    // Bounded wait on real time: until 15:35 IST, after the close.
    const after = realMsUntil(world.clock, `${DAY}T15:35:00+05:30`);
    expect(after).toBeLessThan(60_000);
    await new Promise((r) => setTimeout(r, after));
    const began = Date.now();
    bot.signal('SIGTERM');
    const exit = await waitForExit(bot, 15_000);
    const stopMs = Date.now() - began;

    const log = parseLog(bot.lines);
    const intents = intentsOf(log);
    const events = eventsOf(log);
    const stats = await admin.stats();
    const book = await admin.orders();
    const report = {
      stderr: bot.stderr().slice(-2_000),
      stats,
      unfinished: unfinishedIntents(intents, events),
    };

    // The faults were really injected (else this proves nothing).
    expect(stats.faults.fail + stats.faults.drop + stats.faults.malformed).toBeGreaterThan(0);
    expect(stats.faults.stall).toBeGreaterThan(0);
    expect(stats.faults.lostOrderResponses, JSON.stringify(report)).toBe(2);
    // Clean, bounded stop. Checked against the tree before issue 11's fixes (fd89f4d,
    // with only this simulator and suite copied in): a stalled body has no total deadline
    // there, and the SIGTERM wait fails with "no exit within 15000 ms".
    expect(exit.code, JSON.stringify(report)).toBe(0);
    expect(stopMs).toBeLessThan(5_000 + 3_000);
    // 23 place intents, each ends in a terminal event: none lost. Checked by dropping
    // one terminal event from the parsed log: the list is then non-empty.
    const placed = intents.filter((i) => i.strategy === 'sched' && i.kind === 'place');
    expect(placed).toHaveLength(23);
    // The bot really was up before the open: the first 3 waited for it.
    const deferred = events.filter((e) => e.type === 'IntentDeferred' && e.strategyId === 'sched');
    expect(new Set(deferred.map((e) => e.intentId)).size).toBe(3);
    expect(report.unfinished, diagnose(log, report.unfinished)).toEqual([]);
    // They are valid market orders in a session (the 3 pre-open ones wait for the open),
    // so each must fill: a denial or rejection loses the trader an order. Checked while
    // the calendar's start-up wait ran on the market clock (5 s of market time is 8 ms at
    // 600x): the 3 pre-open intents were denied ("no trading calendar") and this failed.
    // One exception, by design: the engine places an attempt whose answer was lost again
    // once (after the book confirms it absent), never twice, so an intent whose two
    // attempts both died before reaching the exchange (drop, 5xx, malformed: ≈ 10% of
    // requests here) ends in OrderRejected ("unknown twice"). Such an intent is reported,
    // not lost: each of its two tags is absent from the exchange's book. This failed the
    // test in one of two full runs in session 7, when timing put two faults on one intent.
    // Checked with `--drop-rate 0.25` (and the bound below set aside): three intents ended
    // so, each with two tags, neither in the book and both among the simulator's faulted
    // placements; without this exception `notFilled` listed them.
    const givenUp = new Set(
      events
        .filter((e) => e.type === 'OrderRejected' && e.reason === UNKNOWN_TWICE)
        .map((e) => `${e.strategyId}/${e.intentId}`),
    );
    const givenUpTags = events
      .filter((e) => e.type === 'OrderSubmitted' && givenUp.has(`${e.strategyId}/${e.intentId}`))
      .map((e) => e.tag);
    expect(givenUpTags).toHaveLength(2 * givenUp.size);
    expect(book.orders.filter((o) => givenUpTags.includes(o.tags))).toEqual([]);
    // And both attempts really reached the simulator and met a fault there: a
    // re-placement that never went out would not be excused.
    const unprocessed = new Set(stats.unprocessedOrderTags);
    expect(givenUpTags.filter((t) => !unprocessed.has(t ?? ''))).toEqual([]);
    const filled = new Set(
      events.filter((e) => e.type === 'OrderFilled').map((e) => `${e.strategyId}/${e.intentId}`),
    );
    const notFilled = placed.filter(
      (i) => !filled.has(`${i.strategy}/${i.id}`) && !givenUp.has(`${i.strategy}/${i.id}`),
    );
    const refusals = events.filter((e) => e.type === 'OrderDenied' || e.type === 'OrderRejected');
    expect(notFilled, JSON.stringify(refusals)).toEqual([]);
    // Nearly all of them fill: two lost answers in a row are rare.
    expect(givenUp.size, JSON.stringify(refusals)).toBeLessThanOrEqual(2);
    const refusedByThrottle = events.filter(
      (e) => e.type === 'OrderRejected' && /429|too many/i.test(e.reason ?? ''),
    );
    expect(refusedByThrottle).toEqual([]);
    // Lost answers resolved by tag, never placed twice. Checked with a client that
    // retries a placement blindly: the sim then holds two orders with one tag.
    expect(duplicateTags(book.orders)).toEqual([]);
    // Never throttled, and never more than 10 arrivals of a class in any real second.
    expect(stats.rateLimited, JSON.stringify(stats.classes)).toBe(0);
    expect(stats.classes.quote.maxPerSecond).toBeLessThanOrEqual(10);
    expect(stats.classes.order.maxPerSecond).toBeLessThanOrEqual(10);
    // Every token a strategy asked for was fed.
    for (const token of [3045, 2885, 1594, 26000]) {
      expect(stats.quotesServed[String(token)] ?? 0, `token ${token}`).toBeGreaterThan(0);
    }
    // After the close: the intraday position (23 alternating fills: one share long) was
    // squared off before the close; nothing is left working at the broker.
    expect(
      Object.values(book.positions).every((q) => q === 0),
      JSON.stringify(book.positions),
    ).toBe(true);
    expect(book.orders.filter((o) => o.status === 'OPEN' || o.status === 'PENDING')).toEqual([]);
  });
});
