import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForExit } from './helpers/child-process.ts';
import { E2eWorld, fixture } from './helpers/e2e-world.ts';
import { eventsOf, intentsOf, parseLog, TERMINAL, unfinishedIntents } from './helpers/json-log.ts';
import { duplicateTags } from './helpers/sim-admin.ts';
import { waitForLog } from './helpers/wait-log.ts';

let world: E2eWorld;
// Built when the file's tests begin, so the shared clock's anchor is a few seconds ahead.
beforeAll(() => {
  world = new E2eWorld({
    start: '2026-01-05T09:20:00+05:30',
    speed: 60,
    anchor: new Date(Date.now() + 4_000).toISOString(),
  });
});
// Another origin a redirect points at: it records what reaches it and answers nothing useful.
const trapped: IncomingHttpHeaders[] = [];
const trap = createServer((req, res) => {
  trapped.push(req.headers);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"status":"success","data":{"orderNo":"999"}}');
});
afterAll(async () => {
  await world.dispose();
  await new Promise<void>((r) => trap.close(() => r()));
});

describe('e2e: a hostile service (redirects, trickled bodies, absurd Retry-After)', {
  timeout: 120_000,
}, () => {
  it('never sends credentials elsewhere, never hangs, never places twice', async () => {
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', () => r()));
    const trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
    const admin = await world.startSim([
      '--redirect-rate',
      '0.08',
      '--redirect-status',
      '307',
      '--redirect-to',
      trapUrl,
      '--trickle-rate',
      '0.03',
      '--trickle-interval',
      '1000',
      '--throttle-rate',
      '0.05',
      '--throttle-retry-after',
      '99999999999',
    ]);
    const config = world.writeConfig(
      world.baseConfig(
        [
          {
            id: 'sched',
            module: fixture('scheduled-orders.ts'),
            params: { everySeconds: 30, maxOrders: 16, quoteTokens: [3045, 2885] },
          },
        ],
        { broker: { timeoutMs: 2_000, retryAfterMaxMs: 1_000 } },
      ),
    );
    const bot = await world.startBot(config);
    // Every intent must end (filled, or refused for a stated reason) while the service
    // misbehaves; the stop comes after, so this is about the run, not the shutdown.
    await waitForLog(
      bot,
      (l) => TERMINAL.has((l.event as { type?: string } | undefined)?.type ?? ''),
      16,
      60_000,
      '16 intents to end',
    );
    const began = Date.now();
    bot.signal('SIGTERM');
    const exit = await waitForExit(bot, 40_000);
    const stopMs = Date.now() - began;

    const log = parseLog(bot.lines);
    const intents = intentsOf(log);
    const events = eventsOf(log);
    const stats = await admin.stats();
    const book = await admin.orders();
    const ctx = JSON.stringify({
      faults: stats.faults,
      routes: stats.routes,
      stderr: bot.stderr().slice(-1_500),
    });

    // The hostility was real.
    expect(stats.faults.redirect, ctx).toBeGreaterThan(0);
    expect(stats.faults.throttle + stats.faults.trickle, ctx).toBeGreaterThan(0);
    // No redirect is followed: nothing, let alone appId or token, reached the other
    // origin. Checked against the tree before issue 11's fixes (fd89f4d, with only this
    // simulator and suite copied in): fetch follows the 307 and the trap sees the token.
    expect(
      trapped.map((h) => Object.keys(h)),
      ctx,
    ).toEqual([]);
    // A trickled body cannot hold the stop: bounded by the request deadline.
    expect(exit.code, ctx).toBe(0);
    expect(stopMs, ctx).toBeLessThan(30_000 + 5_000);
    // Every intent resolved (a redirected placement is an unknown outcome, looked up by
    // tag), none placed twice, and Retry-After 99999999999 neither hung nor spun.
    const lost = unfinishedIntents(intents, events);
    const trail = lost.map((i) =>
      log.filter((l) => JSON.stringify(l).includes(`"${i.id}"`)).map((l) => l.msg),
    );
    expect(
      lost,
      JSON.stringify({ trail, tail: log.slice(-12).map((l) => [l.msg, l.event ?? l.err ?? '']) }) +
        ctx,
    ).toEqual([]);
    expect(duplicateTags(book.orders), ctx).toEqual([]);
    expect(stats.routes.placeOrder ?? 0, ctx).toBeLessThan(16 * 4);
    expect(stats.rateLimited, ctx).toBe(0);
  });
});
