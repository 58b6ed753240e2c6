import type { MarketSessions } from '../domain/market-sessions.ts';

/** What the gate says at an instant: poll now, or sleep until `wakeAt`. */
export type GateState = { active: true } | { active: false; wakeAt: number | undefined };

/**
 * Whether polling should run at `now`: inside a session, or within `warmupMs` before the
 * next open. When not, `wakeAt` is when it should run next (undefined when the oracle
 * knows no future session).
 *
 * @example
 * ```ts
 * gateAt(calendar, Date.parse('2026-11-20T09:14:00+05:30'), 120_000); // { active: true }
 * ```
 */
export function gateAt(oracle: MarketSessions, now: number, warmupMs: number): GateState {
  if (oracle.isOpen(now)) return { active: true };
  const next = oracle.nextOpen(now);
  if (next === undefined) return { active: false, wakeAt: undefined };
  if (next - now <= warmupMs) return { active: true };
  return { active: false, wakeAt: next - warmupMs };
}
