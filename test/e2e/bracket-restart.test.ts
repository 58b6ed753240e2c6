import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBookUntil, roles, type Sample, working } from './helpers/bracket-book.ts';
import { modifyByHand } from './helpers/by-hand.ts';
import { waitForExit } from './helpers/child-process.ts';
import { E2eWorld, fixture } from './helpers/e2e-world.ts';
import { eventsOf, parseLog } from './helpers/json-log.ts';
import type { SimOrderView } from './helpers/sim-admin.ts';
import { isEvent, waitForLog } from './helpers/wait-log.ts';

// Wide enough that the stop (trailing from the best price) does not fire before the
// kills: SBIN moves about 70 paise per real second at 60x.
const TRAILING = 1_000;

let world: E2eWorld;
// Built when the file's tests begin, so the shared clock's anchor is a few seconds ahead.
beforeAll(() => {
  world = new E2eWorld({
    start: '2026-01-05T09:20:00+05:30',
    speed: 60,
    anchor: new Date(Date.now() + 4_000).toISOString(),
  });
});
afterAll(() => world.dispose());

// How this was checked to fail (break, see it fail, restore):
// - the restored bracket's legs not cancelled when nothing is left to protect (the
//   cancel loop of syncBracket skipped for `live.restored`): times out waiting for the
//   restarted bot to cancel the stop, the position then unmanaged at the exchange;
// - the leg orders of a restored bracket not found (`working()` of syncBracket always
//   undefined): the restart places the legs again (run 2's strategy counts three
//   working orders, the book holds two stops).
describe('e2e: a managed bracket across kill -9', { timeout: 90_000 }, () => {
  it('keeps one stop and one target, never naked, and one-cancels-other after the restart', async () => {
    const admin = await world.startSim();
    const config = world.writeConfig(
      world.baseConfig([
        {
          id: 'brk',
          module: fixture('bracket-once.ts'),
          params: { trailingPoints: TRAILING, stopPoints: 4_000, targetPoints: 4_000 },
        },
      ]),
    );
    // Run 1: the entry fills and both legs are working at the exchange; then kill -9.
    const run1 = await world.startBot(config);
    const entryFill = await waitForLog(
      run1,
      isEvent('OrderFilled', 'brk'),
      1,
      30_000,
      'the entry fill',
    );
    const legs = await readBookUntil(
      admin,
      (b) => working(roles(b).stops[0]) && working(roles(b).targets[0]),
      20_000,
      'both legs working',
    );
    run1.signal('SIGKILL');
    await waitForExit(run1, 10_000);

    // From the first kill on, every read of the book is a sample for "never naked".
    const samples: Sample[] = [];
    await readBookUntil(admin, () => true, 5_000, 'a read of the book', samples);

    // Run 2 finds both legs working: it reconciles before it starts, and at its first
    // quote ctx.position and ctx.openOrders already count the recovered bracket. Then
    // kill -9 again.
    const run2 = await world.startBot(config);
    const state2 = await waitForLog(
      run2,
      (l) => l.msg === 'bracket-once: state at the first quote',
      1,
      15_000,
      'run 2 strategy state',
    );
    const afterRun2Start = roles(
      await readBookUntil(admin, () => true, 5_000, 'a read of the book', samples),
    );
    run2.signal('SIGKILL');
    await waitForExit(run2, 10_000);
    if (working(afterRun2Start.stops[0]) && working(afterRun2Start.targets[0])) {
      // Unless the stop fired meanwhile (the price path is random), the position is long
      // one with both legs working, and the restart placed no leg again.
      expect({ net: state2.net, working: state2.working }).toEqual({ net: 1, working: 2 });
    }
    expect(afterRun2Start.stops, JSON.stringify(afterRun2Start)).toHaveLength(1);
    expect(afterRun2Start.targets, JSON.stringify(afterRun2Start)).toHaveLength(1);

    // The trailing distance, not the far stopLoss, set the stop: it is within a tick of
    // TRAILING under the entry's fill or higher (it may have trailed up already).
    const fillPrice = (entryFill.event as { fillPrice: number }).fillPrice;
    const stopAtKill = roles(legs).stops[0] as SimOrderView;
    expect(stopAtKill.triggerPrice).toBeGreaterThanOrEqual(fillPrice - TRAILING - 5);

    // While the bot is down a leg fills: by hand, the target becomes a marketable limit
    // (2% under the stop's trigger, itself under the market) unless the stop fired first.
    // The other leg is then an unmanaged exit that would turn the position short.
    const down = roles((await admin.orders()).orders);
    const target = down.targets[0] as SimOrderView;
    if (working(target) && working(down.stops[0])) {
      const price = Math.floor(((down.stops[0] as SimOrderView).triggerPrice * 0.98) / 5) * 5;
      await modifyByHand(admin.url, target, price);
    }
    const filledDown = await readBookUntil(
      admin,
      (b) =>
        roles(b)
          .stops.concat(roles(b).targets)
          .some((o) => o.status === 'COMPLETE'),
      15_000,
      'a leg to fill while the bot is down',
      samples,
    );
    const filledLeg = roles(filledDown)
      .stops.concat(roles(filledDown).targets)
      .find((o) => o.status === 'COMPLETE') as SimOrderView;
    const otherIsStop = filledLeg.order !== 'SL-MKT';

    // Run 3 on the same state dir: reconciles, sees the leg's fill, cancels the other leg.
    const run3 = await world.startBot(config);
    const final = await readBookUntil(
      admin,
      (b) => {
        const r = roles(b);
        const other = otherIsStop ? r.stops : r.targets;
        return other.length > 0 && other.every((o) => o.status === 'CANCELED');
      },
      30_000,
      'the restarted bot to cancel the other leg',
      samples,
    );
    // The run-3 log says it was the bot's bracket manager, not anything else.
    await waitForLog(
      run3,
      (l) =>
        isEvent('OrderCancelled', 'brk')(l) &&
        (l.event as { intentId: string }).intentId.endsWith(otherIsStop ? '/sl' : '/tp'),
      1,
      10_000,
      'the cancel of the other leg in run 3',
    );
    run3.signal('SIGTERM');
    await waitForExit(run3, 20_000);

    const log3 = parseLog(run3.lines);
    const book = await admin.orders();
    const r = roles(final);
    const ctx = JSON.stringify({
      orders: book.orders,
      samples,
      run3: eventsOf(log3),
      stderr: run3.stderr().slice(-800),
    });
    // Nothing duplicated or placed again: one entry, one stop, one target, ever.
    expect(r.entries, ctx).toHaveLength(1);
    expect(r.stops, ctx).toHaveLength(1);
    expect(r.targets, ctx).toHaveLength(1);
    // Flat at the end, and never long without a working stop for the whole quantity.
    expect(book.positions['3045'] ?? 0, ctx).toBe(0);
    expect(
      samples.filter((s) => s.position > 0 && s.stopWorking < s.position),
      ctx,
    ).toEqual([]);
    // Run 3 placed nothing new (one entry above). Its strategy reads ctx.position and
    // ctx.openOrders at its first quote: if that quote comes after the one-cancels-other
    // has finished, it is flat with nothing working and asks for bracket `b1` again,
    // which must be denied as a reused id; nothing else may be denied or rejected.
    const refused = eventsOf(log3).filter(
      (e) =>
        e.type === 'OrderRejected' ||
        (e.type === 'OrderDenied' && !/already used/.test(e.reason ?? '')),
    );
    expect(refused, ctx).toEqual([]);
  });
});
