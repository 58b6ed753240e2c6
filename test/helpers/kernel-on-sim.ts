import { afterEach } from 'vitest';
import type { Kernel } from '../../src/runtime/kernel.ts';
import type { RunningSimulator } from '../../src/sim/index.ts';

/** What a test started: its simulator and its kernel, each once started. */
export interface KernelOnSim {
  sim?: RunningSimulator | undefined;
  kernel?: Kernel | undefined;
}

/**
 * A test file's simulator and kernel, stopped (the kernel first) and closed after each
 * test, whatever it left running: set `held.sim` and `held.kernel` as they start.
 *
 * @example
 * ```ts
 * const held = kernelOnSim();
 * held.sim = await startSimulator({ clock });
 * ```
 */
export function kernelOnSim(): KernelOnSim {
  const held: KernelOnSim = {};
  afterEach(async () => {
    await held.kernel?.stop();
    await held.sim?.close();
    held.kernel = undefined;
    held.sim = undefined;
  });
  return held;
}
