import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '../../src/api/errors/outcome-unknown-error.ts';
import { TimeoutError } from '../../src/api/errors/timeout-error.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import * as fx from '../helpers/fixtures.ts';
import { deadlineClient, stall, track } from './deadline-fixtures.ts';
import { type RawTestServer, startRawServer, until } from './raw-test-server.ts';

// A full collection on demand: what a loaded process does on its own at random moments.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let server: RawTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TIMEOUT_MS = 2_000;

const client = (url: string, deadlineClock: VirtualClock, headers: { n: number }) =>
  deadlineClient(url, deadlineClock, TIMEOUT_MS, headers);

// Seen in the e2e whole session on a loaded runner: after a stalled order-book answer,
// order tracking stopped for the rest of the day. ky gives fetch its own Request, whose
// link to our deadline signal undici keeps only weakly; a collection after the headers
// cut it, so the deadline never reached the body and the read waited forever.
// How I checked this can fail: with the client reading `response.text()` again (the
// code before this fix), both tests time out in `until` ("condition not met").
describe('TiqsClient: the deadline survives a garbage collection after the headers', () => {
  it('fails a stalled order-book read with TimeoutError at the deadline', async () => {
    server = await startRawServer(stall);
    const deadlineClock = new VirtualClock(0);
    const headers = { n: 0 };
    const box = track(client(server.url, deadlineClock, headers).orderBook());
    await until(() => headers.n === 1, 10_000);
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(box.settled).toBe(false);
    deadlineClock.advanceBy(TIMEOUT_MS);
    await until(() => box.settled, 5_000);
    expect(box.error).toBeInstanceOf(TimeoutError);
    expect(box.error).toMatchObject({ operation: 'orderBook', status: 200 });
  });

  it('turns a stalled placement into an unknown outcome at the deadline', async () => {
    server = await startRawServer(stall);
    const deadlineClock = new VirtualClock(0);
    const headers = { n: 0 };
    const box = track(
      client(server.url, deadlineClock, headers).placeOrder('regular', fx.placeBody),
    );
    await until(() => headers.n === 1, 10_000);
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    deadlineClock.advanceBy(TIMEOUT_MS);
    await until(() => box.settled, 5_000);
    expect(box.error).toBeInstanceOf(OutcomeUnknownError);
    expect((box.error as Error).cause).toBeInstanceOf(TimeoutError);
  });
});
