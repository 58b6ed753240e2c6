/**
 * Small seeded pseudo-random generator (mulberry32). Chosen over `Math.random` so that
 * the same seed always yields the same market, and over an npm dependency because the
 * whole algorithm is six lines.
 *
 * @example
 * ```ts
 * const rng = new Prng(42);
 * rng.next(); // in [0, 1), same sequence for seed 42 every run
 * ```
 */
export class Prng {
  private state: number;
  private spare: number | undefined;

  constructor(seed: number) {
    this.state = hashInts(seed) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Standard normal deviate (Box–Muller; the second value is kept for the next call). */
  normal(): number {
    if (this.spare !== undefined) {
      const s = this.spare;
      this.spare = undefined;
      return s;
    }
    const u = 1 - this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }
}

/**
 * Mixes integers into one 32-bit hash. Used to derive independent, reproducible
 * sub-streams (per token, per step) without threading one generator through everything.
 */
export function hashInts(...values: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const value of values) {
    // Split doubles beyond 32 bits so large tokens or instants still mix fully.
    const lo = value >>> 0;
    const hi = Math.floor(value / 4294967296) >>> 0;
    for (const part of [lo, hi]) {
      h ^= part;
      h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
      h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
      h ^= h >>> 16;
    }
  }
  return h >>> 0;
}
