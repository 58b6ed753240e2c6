import { hashInts, Prng } from '../prng.ts';
import type { RouteId } from './route-table.ts';

/** Fault injection settings. Rates are shares of requests, 0..1. */
export interface FaultSettings {
  /** Added delay before every response, ms (on the network clock). */
  latencyMs: number;
  /** Share answered with a 5xx error envelope, before any processing. */
  failRate: number;
  /** Share whose connection is dropped without an answer, before any processing. */
  dropRate: number;
  /** Share answered 200 with a truncated, unparseable JSON body, before any processing. */
  malformedRate: number;
  /** Share answered 429 with {@link throttleRetryAfter}, before any processing (not accepted). */
  throttleRate: number;
  /** `Retry-After` header value of injected 429s, as sent (hostile values allowed). */
  throttleRetryAfter: string;
  /** Share answered with a redirect to {@link redirectTo}, before any processing. */
  redirectRate: number;
  /** Status of injected redirects. */
  redirectStatus: 302 | 307;
  /** Origin injected redirects point at (the path is kept). */
  redirectTo: string;
  /** Share processed, then answered with headers and half a body that never completes. */
  stallRate: number;
  /** Share processed, then answered one byte every {@link trickleIntervalMs}. */
  trickleRate: number;
  /** Gap between the bytes of a trickled body, ms (network clock). */
  trickleIntervalMs: number;
  /**
   * The next N order placements are carried out (the order exists) and then their
   * connection is dropped: the duplicate-order trap.
   */
  loseOrderResponses: number;
  /**
   * The next N order placements are accepted over HTTP and then REJECTED by the exchange
   * (an RMS refusal): the order exists, final, with {@link SIMULATED_REJECTION} as reason.
   */
  rejectOrders: number;
  /** The access token is refused (401) from this instant on (epoch ms, simulator clock). */
  tokenExpiresAt: number | undefined;
  /** Operations that latency, failures, drops and malformed bodies apply to; all when undefined. */
  routes: readonly RouteId[] | undefined;
}

/** No faults. */
export const NO_FAULTS: Readonly<FaultSettings> = {
  latencyMs: 0,
  failRate: 0,
  dropRate: 0,
  malformedRate: 0,
  throttleRate: 0,
  throttleRetryAfter: '1',
  redirectRate: 0,
  redirectStatus: 302,
  redirectTo: 'http://127.0.0.1:9',
  stallRate: 0,
  trickleRate: 0,
  trickleIntervalMs: 1_000,
  loseOrderResponses: 0,
  rejectOrders: 0,
  tokenExpiresAt: undefined,
  routes: undefined,
};

/** The reason of an order the `rejectOrders` fault rejects. */
export const SIMULATED_REJECTION = 'RMS: simulated rejection (fault injection)';

/** Faults drawn per request, in the order their rates are stacked. */
const FAULT_KINDS = [
  'drop',
  'fail',
  'malformed',
  'throttle',
  'redirect',
  'stall',
  'trickle',
] as const;
/** One kind of per-request fault. */
export type FaultKind = (typeof FAULT_KINDS)[number];
/** What to do to one request. */
export type FaultAction = FaultKind | undefined;

const RATE_OF: Readonly<Record<FaultKind, keyof FaultSettings>> = {
  drop: 'dropRate',
  fail: 'failRate',
  malformed: 'malformedRate',
  throttle: 'throttleRate',
  redirect: 'redirectRate',
  stall: 'stallRate',
  trickle: 'trickleRate',
};

/**
 * Run-time fault controls of a running simulator. Decisions come from a generator seeded
 * from the simulator's seed, so a faulty run repeats exactly.
 *
 * @example
 * ```ts
 * sim.faults.set({ loseOrderResponses: 1 }); // next placement: order created, answer lost
 * sim.faults.set({ failRate: 0.2, routes: ['quotes'] });
 * sim.faults.reset();
 * ```
 */
export class FaultInjector {
  private current: FaultSettings;
  private readonly rng: Prng;
  private readonly injected: Record<FaultKind | 'lostOrderResponses' | 'rejectedOrders', number> = {
    drop: 0,
    fail: 0,
    malformed: 0,
    throttle: 0,
    redirect: 0,
    stall: 0,
    trickle: 0,
    lostOrderResponses: 0,
    rejectedOrders: 0,
  };

  constructor(seed: number, settings: Partial<FaultSettings> = {}) {
    this.rng = new Prng(hashInts(seed, 0xfa017));
    this.current = { ...NO_FAULTS, ...settings };
  }

  /** The settings in force. */
  get settings(): Readonly<FaultSettings> {
    return this.current;
  }

  /** Faults injected so far, per kind. */
  get counts(): Readonly<Record<FaultKind | 'lostOrderResponses' | 'rejectedOrders', number>> {
    return { ...this.injected };
  }

  /** Changes some settings; the others stay. */
  set(changes: Partial<FaultSettings>): void {
    this.current = { ...this.current, ...changes };
  }

  /** Back to no faults. */
  reset(): void {
    this.current = { ...NO_FAULTS };
  }

  /** @internal Whether faults apply to `route`. */
  applies(route: RouteId): boolean {
    return this.current.routes === undefined || this.current.routes.includes(route);
  }

  /** @internal Draws the fault, if any, for one request of `route`. */
  decide(route: RouteId): FaultAction {
    if (!this.applies(route)) return undefined;
    const rates = FAULT_KINDS.map((k) => this.current[RATE_OF[k]] as number);
    if (rates.every((r) => r <= 0)) return undefined;
    const u = this.rng.next();
    let edge = 0;
    for (const [i, kind] of FAULT_KINDS.entries()) {
      edge += Math.max(0, rates[i] ?? 0);
      if (u < edge) {
        this.injected[kind]++;
        return kind;
      }
    }
    return undefined;
  }

  /** @internal True (and counts down) when this placement's answer is to be lost. */
  takeLostOrderResponse(): boolean {
    if (this.current.loseOrderResponses <= 0) return false;
    this.current = { ...this.current, loseOrderResponses: this.current.loseOrderResponses - 1 };
    this.injected.lostOrderResponses++;
    return true;
  }

  /** @internal The reason to reject this placement with (and counts down), if any. */
  takeRejectedOrder(): string | undefined {
    if (this.current.rejectOrders <= 0) return undefined;
    this.current = { ...this.current, rejectOrders: this.current.rejectOrders - 1 };
    this.injected.rejectedOrders++;
    return SIMULATED_REJECTION;
  }
}
