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
  /**
   * The next N order placements are carried out (the order exists) and then their
   * connection is dropped: the duplicate-order trap.
   */
  loseOrderResponses: number;
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
  loseOrderResponses: 0,
  tokenExpiresAt: undefined,
  routes: undefined,
};

/** What to do to one request. */
export type FaultAction = 'fail' | 'drop' | 'malformed' | undefined;

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
  private readonly injected = { fail: 0, drop: 0, malformed: 0, lostOrderResponses: 0 };

  constructor(seed: number, settings: Partial<FaultSettings> = {}) {
    this.rng = new Prng(hashInts(seed, 0xfa017));
    this.current = { ...NO_FAULTS, ...settings };
  }

  /** The settings in force. */
  get settings(): Readonly<FaultSettings> {
    return this.current;
  }

  /** Faults injected so far, per kind. */
  get counts(): Readonly<{
    fail: number;
    drop: number;
    malformed: number;
    lostOrderResponses: number;
  }> {
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
    const { failRate, dropRate, malformedRate } = this.current;
    if (failRate <= 0 && dropRate <= 0 && malformedRate <= 0) return undefined;
    const u = this.rng.next();
    let action: FaultAction;
    if (u < dropRate) action = 'drop';
    else if (u < dropRate + failRate) action = 'fail';
    else if (u < dropRate + failRate + malformedRate) action = 'malformed';
    if (action !== undefined) this.injected[action]++;
    return action;
  }

  /** @internal True (and counts down) when this placement's answer is to be lost. */
  takeLostOrderResponse(): boolean {
    if (this.current.loseOrderResponses <= 0) return false;
    this.current = { ...this.current, loseOrderResponses: this.current.loseOrderResponses - 1 };
    this.injected.lostOrderResponses++;
    return true;
  }
}
