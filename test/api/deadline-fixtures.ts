import type { ServerResponse } from 'node:http';
import { Pacer } from '../../src/api/pacing/pacer.ts';
import { TiqsClient } from '../../src/api/tiqs-client.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import type { RawRequest } from './raw-test-server.ts';

/** Headers and the start of a JSON body, then nothing (the socket stays open). */
export function stall(_req: RawRequest, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"status":"success","data":');
}

/** Settles `p` into an inspectable box, so a test can see it is still pending. */
export function track<T>(p: Promise<T>): { settled: boolean; error: unknown } {
  const box = { settled: false, error: undefined as unknown };
  p.then(
    () => {
      box.settled = true;
    },
    (err: unknown) => {
      box.settled = true;
      box.error = err;
    },
  );
  return box;
}

/**
 * A client whose deadline of `timeoutMs` runs on `deadlineClock`, moved by hand; pacing
 * costs nothing. Its fetch counts in `headers.n` the answers whose headers arrived, so a
 * test can wait for them (a loaded machine may take longer than any fixed pause) before
 * moving the deadline.
 */
export function deadlineClient(
  url: string,
  deadlineClock: VirtualClock,
  timeoutMs: number,
  headers: { n: number },
): TiqsClient {
  const clock = new VirtualClock(0, { auto: true });
  return new TiqsClient({
    baseUrl: url,
    appId: 'app',
    token: 'tok',
    clock,
    timeoutClock: deadlineClock,
    timeoutMs,
    retry: { limit: 0 },
    pacer: new Pacer(clock),
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      headers.n++;
      return res;
    },
  });
}
