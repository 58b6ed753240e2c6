import { queueFailureKind } from '../../backtest/queue/queue-job-result.ts';
import type { SweepResult } from '../../backtest/sweep-protocol.ts';

/**
 * The summary line of a queued sweep whose runs failed for queue reasons rather than
 * their strategy (review 17, M4): how many, why (code version, data, stalled, worker) and
 * on which runners, e.g. `4 of 8 runs failed for queue reasons, not their strategy:
 * 4 code version (on vm:2314); …`. Undefined when none did: a strategy's own failure is
 * its result, ranked like any other, and does not change the exit code.
 */
export function queueFailureSummary(
  results: readonly (SweepResult & { readonly runner?: string })[],
): string | undefined {
  const kinds = new Map<string, { count: number; runners: Set<string> }>();
  let failed = 0;
  for (const r of results) {
    const kind = queueFailureKind(r);
    if (kind === undefined) continue;
    failed += 1;
    const entry = kinds.get(kind) ?? { count: 0, runners: new Set<string>() };
    entry.count += 1;
    if (r.runner !== undefined) entry.runners.add(r.runner);
    kinds.set(kind, entry);
  }
  if (failed === 0) return undefined;
  const why = [...kinds]
    .map(([kind, { count, runners }]) => {
      const on = runners.size === 0 ? '' : ` (on ${[...runners].sort().join(', ')})`;
      return `${count} ${kind}${on}`;
    })
    .join(', ');
  return (
    `${failed} of ${results.length} runs failed for queue reasons, not their strategy: ${why}; ` +
    'run the same command again once the workers are fixed to queue them again'
  );
}
