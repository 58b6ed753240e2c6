import { hashInts, Prng } from '../prng.ts';

/**
 * Octaves of the day-level noise: knot spacing in days and amplitude (log price) at a
 * volatility of 20% a year. Slow swings over months, weekly moves, a daily jitter.
 */
const OCTAVES: ReadonlyArray<{ readonly span: number; readonly amp: number }> = [
  { span: 128, amp: 0.12 },
  { span: 32, amp: 0.05 },
  { span: 8, amp: 0.025 },
  { span: 1, amp: 0.01 },
];

function knot(seed: number, token: number, octave: number, k: number): number {
  return new Prng(hashInts(seed, token, 0x4157, octave, k)).normal();
}

/** Smoothstep, so a level has no kink at the knots of the slow octaves. */
function ease(t: number): number {
  return t * t * (3 - 2 * t);
}

/**
 * The log-price offset from the base price of `token` at 00:00 IST of IST day `day`
 * (days since 1970-01-01 IST), for the simulator's past: seeded value noise over day
 * numbers, a pure function of its arguments (no state, no anchor), so a resumed download
 * or a restarted simulator serves the same past. Bounded (a few tens of percent at most),
 * unlike a random walk from a fixed epoch. `volScale` is the instrument's vol / 0.2.
 *
 * @example
 * ```ts
 * const level = Math.log(base) + historyLevel(1, 3045, 20_089, 1);
 * ```
 */
export function historyLevel(seed: number, token: number, day: number, volScale: number): number {
  let x = 0;
  OCTAVES.forEach(({ span, amp }, octave) => {
    const k = Math.floor(day / span);
    const t = ease((day - k * span) / span);
    const a = knot(seed, token, octave, k);
    const b = knot(seed, token, octave, k + 1);
    x += amp * (a + (b - a) * t);
  });
  return x * volScale;
}
