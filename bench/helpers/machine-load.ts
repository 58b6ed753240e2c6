import { availableParallelism, loadavg } from 'node:os';

/** The 1-minute load average now (0 where the platform has none). */
export const loadNow = (): number => loadavg()[0] ?? 0;

/** How busy the machine was over a bench run, against its cores. */
export interface MachineLoad {
  /** `load 2.1-9.4 (1 min) on 2 cores`. */
  readonly words: string;
  /** Whether the load went above the core count at some sample. */
  readonly busy: boolean;
  /** When busy: what that does to wall-time figures, to print beside them. */
  readonly note: string | undefined;
}

/**
 * The load averages a bench sampled (before and after its parts), said against the cores:
 * wall time on a machine whose load is above its cores includes time spent waiting for a
 * core, so a wall-time figure taken then is the machine's as much as the code's.
 *
 * @example
 * ```ts
 * const { words, busy } = machineLoad([loadBefore, loadNow()]);
 * ```
 */
export function machineLoad(
  samples: readonly number[],
  cores: number = availableParallelism(),
): MachineLoad {
  const low = Math.min(...samples);
  const high = Math.max(...samples);
  return {
    words: `load ${low.toFixed(1)}-${high.toFixed(1)} (1 min) on ${cores} cores`,
    busy: high > cores,
    note:
      high > cores
        ? `the load went above the ${cores} cores: wall times include time spent waiting for a core (most of all at the tail), so they are the machine's as much as the code's; run on an idle machine for a verdict`
        : undefined,
  };
}
