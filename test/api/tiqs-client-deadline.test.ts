import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '../../src/api/errors/outcome-unknown-error.ts';
import { TimeoutError } from '../../src/api/errors/timeout-error.ts';
import { TiqsError } from '../../src/api/errors/tiqs-error.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import * as fx from '../helpers/fixtures.ts';
import { deadlineClient, stall, track } from './deadline-fixtures.ts';
import { type RawRequest, type RawTestServer, startRawServer, until } from './raw-test-server.ts';

let server: RawTestServer | undefined;
const timers: NodeJS.Timeout[] = [];
afterEach(async () => {
  for (const t of timers.splice(0)) clearInterval(t);
  await server?.close();
  server = undefined;
});

const TIMEOUT_MS = 10_000;

/** Responses whose headers reached the client (its fetch resolved) in the current test. */
const headersIn = { n: 0 };
afterEach(() => {
  headersIn.n = 0;
});

const client = (url: string, deadlineClock: VirtualClock) =>
  deadlineClient(url, deadlineClock, TIMEOUT_MS, headersIn);

/** Headers, then one byte of whitespace every 5 ms, forever: the body never ends. */
function trickle(_req: RawRequest, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"status":"success","data":');
  timers.push(setInterval(() => res.write(' '), 5));
}

/** Lets loopback I/O run for a moment (a bounded real wait, no timer logic depends on it). */
const ioTurn = () => new Promise((resolve) => setTimeout(resolve, 30));

// How I checked these can fail: with the deadline released once the headers came (as ky's
// `timeout` did before), the stalled and trickling answers stayed pending past the
// deadline and the first three tests failed.
describe('TiqsClient: one total deadline, body included', () => {
  it.each([
    ['stalled', stall],
    ['trickling', trickle],
  ])('fails a read whose body is %s with TimeoutError at the deadline', async (_what, handler) => {
    server = await startRawServer(handler);
    const deadlineClock = new VirtualClock(0);
    const box = track(client(server.url, deadlineClock).holidays());
    // The body is what stalls: the headers must be in before the deadline moves.
    await until(() => headersIn.n === 1, 10_000);
    deadlineClock.advanceBy(TIMEOUT_MS - 1);
    await ioTurn();
    expect(box.settled).toBe(false);
    deadlineClock.advanceBy(1);
    await until(() => box.settled);
    expect(box.error).toBeInstanceOf(TimeoutError);
    expect(box.error).toMatchObject({ operation: 'holidays', status: 200 });
    expect((box.error as Error).message).toMatch(/no complete answer within 10000 ms/);
  });

  it('turns a placement whose body trickles into an unknown outcome with the tag, sent once', async () => {
    server = await startRawServer(trickle);
    const deadlineClock = new VirtualClock(0);
    const box = track(client(server.url, deadlineClock).placeOrder('regular', fx.placeBody));
    await until(() => headersIn.n === 1, 10_000);
    deadlineClock.advanceBy(TIMEOUT_MS);
    await until(() => box.settled);
    expect(box.error).toBeInstanceOf(OutcomeUnknownError);
    expect(box.error).toMatchObject({ tag: 'tr-test-1' });
    expect((box.error as Error).cause).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(1);
  });

  it("keeps the caller's abort apart from the deadline", async () => {
    server = await startRawServer(stall);
    const deadlineClock = new VirtualClock(0);
    const ac = new AbortController();
    const box = track(client(server.url, deadlineClock).orderBook(ac.signal));
    await until(() => server?.requests.length === 1);
    ac.abort();
    await until(() => box.settled);
    expect(box.error).toBeInstanceOf(TiqsError);
    expect(box.error).not.toBeInstanceOf(TimeoutError);
    expect((box.error as Error).message).toBe('orderBook: aborted');
    // The deadline's timer is released with the attempt.
    expect(deadlineClock.pending).toBe(0);
  });

  it('releases the deadline timer once an answer is read', async () => {
    server = await startRawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'success', data: [] }));
    });
    const deadlineClock = new VirtualClock(0);
    await expect(client(server.url, deadlineClock).tradeBook()).resolves.toEqual([]);
    expect(deadlineClock.pending).toBe(0);
  });
});
