import type { Child } from './child-process.ts';
import type { LogLine } from './json-log.ts';

function parse(line: string): LogLine | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as LogLine;
  } catch {
    return undefined;
  }
}

/**
 * Waits until `n` JSON log lines of `child` (counted from its first line) satisfy `test`,
 * at most `timeoutMs`; resolves with the n-th.
 */
export async function waitForLog(
  child: Child,
  test: (l: LogLine) => boolean,
  n: number,
  timeoutMs: number,
  what: string,
): Promise<LogLine> {
  let k = 0;
  const line = await child.waitForLine(
    (raw) => {
      const l = parse(raw);
      return l !== undefined && test(l) && ++k >= n;
    },
    timeoutMs,
    what,
  );
  return parse(line) as LogLine;
}

/** An order event line of `type`, optionally of one strategy. */
export function isEvent(type: string, strategy?: string) {
  return (l: LogLine): boolean => {
    const e = l.event as { type?: string; strategyId?: string } | undefined;
    return (
      l.component === 'execution' &&
      e?.type === type &&
      (strategy === undefined || e.strategyId === strategy)
    );
  };
}

/** An intent line, optionally of one strategy and with a reason matching `reason`. */
export function isIntent(strategy?: string, reason?: RegExp) {
  return (l: LogLine): boolean => {
    const i = l.intent as { reason?: string } | undefined;
    return (
      l.msg === 'intent' &&
      i !== undefined &&
      (strategy === undefined || l.strategy === strategy) &&
      (reason === undefined || reason.test(i.reason ?? ''))
    );
  };
}

/** Real-time pause on purpose (e2e only): lets wall time pass for the shared clock. */
export function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
