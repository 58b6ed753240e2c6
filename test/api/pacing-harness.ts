import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import { Pacer, type PacerOptions, type RateClass } from '../../src/api/pacing/pacer.ts';
import { TiqsClient } from '../../src/api/tiqs-client.ts';
import type { Clock } from '../../src/clock/clock.ts';
import { LiveClock } from '../../src/clock/live-clock.ts';
import type { VirtualClock } from '../../src/clock/virtual-clock.ts';
import * as fx from '../helpers/fixtures.ts';

/** One admission by the pacer: the tag of the placement it was for, and when. */
interface Admission {
  tag: string | undefined;
  at: number;
}

/** The tag of the placement being sent, for {@link RecordingPacer} to file admissions under. */
const currentTag = new AsyncLocalStorage<string>();

/**
 * A Pacer that keeps every admission (one per attempt: a resend after a 429 is admitted
 * again), with the tag of the placement it let through and its clock's time then.
 */
class RecordingPacer extends Pacer {
  readonly admissions: Admission[] = [];

  override acquire(rateClass: RateClass, signal?: AbortSignal): Promise<void> {
    const tag = currentTag.getStore();
    // A reaction of the admission, so in the same event-loop turn: on a TurnClock the
    // time read here is the very time the limiter admitted at.
    return super.acquire(rateClass, signal).then(() => {
      this.admissions.push({ tag, at: this.clock.now() });
    });
  }
}

/**
 * Wall-clock time read once per event-loop turn: every `now()` until the turn ends (its
 * promise reactions included) gives the same instant. The pacer on this clock admits on
 * the same rule as on a LiveClock, and {@link RecordingPacer} then reads the exact
 * instant of each admission instead of one a preempted moment later.
 */
export class TurnClock implements Clock {
  private readonly live = new LiveClock();
  readonly scheduler = this.live.scheduler;
  private instant: number | undefined;

  now(): number {
    if (this.instant === undefined) {
      this.instant = this.live.now();
      setImmediate(() => {
        this.instant = undefined;
      });
    }
    return this.instant;
  }
}

/** A market placement tagged `tag`. */
const placement = (tag: string) =>
  ({ ...fx.placeBody, order: 'MKT', price: '0', tags: tag }) as const;

/** Places `count` tagged `burst-0` … at once; settles when every one has. */
export function placeBurst(client: TiqsClient, count: number) {
  return Promise.allSettled(
    Array.from({ length: count }, (_, i) =>
      currentTag.run(`burst-${i}`, () => client.placeOrder('regular', placement(`burst-${i}`))),
    ),
  );
}

/** A client of `baseUrl` paced by a {@link RecordingPacer} on `clock`. */
export function pacedClient(
  baseUrl: string,
  clock: Clock,
  options: PacerOptions & { appId?: string; token?: string },
): { client: TiqsClient; pacer: RecordingPacer } {
  const pacer = new RecordingPacer(clock, undefined, options);
  const client = new TiqsClient({
    baseUrl,
    appId: options.appId ?? 'app',
    token: options.token ?? 'tok',
    clock,
    pacer,
    // Not what is under test: a generous bound, so a starved machine cannot turn a slow
    // loopback answer into an unknown outcome.
    timeoutMs: 30_000,
    // Backoff jitter fixed, so a resend after a 429 is scheduled the same way every run.
    random: () => 0.5,
  });
  return { client, pacer };
}

/** One request as {@link StrictService} counted it. */
interface Arrival {
  tag: string;
  at: number;
  status: 200 | 429;
}

/**
 * The service's documented order limit, as it is enforced (api-facts.md "Rate limits"):
 * a placement arriving when 10 were accepted in the sliding second before it, (t - 1000, t],
 * is answered 429 and not accepted.
 */
export class StrictService {
  readonly arrivals: Arrival[] = [];

  /** Counts a placement tagged `tag` arriving at `at` and answers it on `res`. */
  answer(res: ServerResponse, tag: string, at: number): void {
    const inWindow = this.accepted().filter((t) => t > at - 1_000).length;
    if (inWindow >= 10) {
      this.arrivals.push({ tag, at, status: 429 });
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ status: 'error', message: 'slow', errorCode: 'TooManyRequests' }));
      return;
    }
    this.arrivals.push({ tag, at, status: 200 });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        status: 'success',
        data: {
          orderNo: String(24112000000000 + this.arrivals.length),
          requestTime: '10:15:01 20-11-2026',
        },
      }),
    );
  }

  /** Arrival times of the accepted placements. */
  accepted(): number[] {
    return this.arrivals.filter((a) => a.status === 200).map((a) => a.at);
  }

  /** Tags of the accepted placements, sorted: each placement's tag exactly once if none was lost or doubled. */
  acceptedTags(): string[] {
    return this.arrivals
      .filter((a) => a.status === 200)
      .map((a) => a.tag)
      .sort();
  }

  /** Number of 429s answered. */
  get throttled(): number {
    return this.arrivals.filter((a) => a.status === 429).length;
  }
}

/** The tag of a placement's JSON body. */
export const tagOf = (body: string): string => (JSON.parse(body) as { tags: string }).tags;

/** Most of `times` in any half-open window (t - span, t], as the service counts. */
export function mostInWindow(times: readonly number[], span: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    while ((sorted[lo] ?? 0) <= (sorted[hi] ?? 0) - span) lo++;
    most = Math.max(most, hi - lo + 1);
  }
  return most;
}

/**
 * Runs `work` over real loopback I/O on virtual time: the clock jumps to its next timer
 * only while `quiet()` holds (every admitted request has reached the service), so no
 * virtual time passes while a request is on the wire, however slowly the machine runs
 * it. Bounded: throws after `limitMs` of real time.
 */
export async function driveVirtualTime<T>(
  clock: VirtualClock,
  work: Promise<T>,
  quiet: () => boolean,
  limitMs = 30_000,
): Promise<T> {
  let settled = false;
  const done = work.finally(() => {
    settled = true;
  });
  const giveUp = Date.now() + limitMs;
  while (!settled) {
    if (Date.now() > giveUp) throw new Error(`work not settled within ${limitMs} ms`);
    // A real pause: lets sockets, the server and promise reactions run.
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (settled || !quiet()) continue;
    const next = clock.nextDue();
    if (next !== undefined) clock.advanceTo(next);
  }
  return done;
}

/**
 * Admission-to-arrival delay of every attempt: each tag's admissions and arrivals paired
 * in order (a tag's attempts go one after another). Throws if the counts differ (an
 * admitted attempt that never arrived, or an arrival nobody admitted).
 */
export function skews(admissions: readonly Admission[], arrivals: readonly Arrival[]): number[] {
  if (admissions.length !== arrivals.length) {
    throw new Error(`${admissions.length} admissions but ${arrivals.length} arrivals`);
  }
  const admitted = new Map<string | undefined, number[]>();
  for (const a of admissions) admitted.set(a.tag, [...(admitted.get(a.tag) ?? []), a.at]);
  return arrivals.map((r) => {
    const at = admitted.get(r.tag)?.shift();
    if (at === undefined) throw new Error(`an arrival of ${r.tag} that was never admitted`);
    return r.at - at;
  });
}
