import { SessionError } from '../api/errors/session-error.ts';
import type { RoutedIntent } from '../domain/intents.ts';
import type { EngineCore } from './engine-core.ts';

/** Asks once to cancel every open order, of one strategy or of all. */
export async function cancelAll(core: EngineCore, strategyId?: string): Promise<void> {
  for (const o of core.tracker.active()) {
    if (strategyId !== undefined && o.strategyId !== strategyId) continue;
    await core.requestCancel(o);
  }
}

/**
 * The kill switch's flatten: cancels every open order, then squares off every strategy
 * that still holds a position (through `submit`, like any intent).
 */
export async function flattenAll(
  core: EngineCore,
  submit: (intent: RoutedIntent) => Promise<void>,
): Promise<void> {
  const { clock, logger } = core.options;
  try {
    await cancelAll(core);
  } catch (err) {
    if (err instanceof SessionError) core.pause(err);
    else logger.error({ err }, 'kill switch: cancelling open orders failed');
  }
  // Open in any product: a flat net may be an intraday short against a holding.
  const strategies = new Set(
    core.positions
      .positions()
      .filter(
        (p) => p.netQuantity !== 0 || core.positions.quantityOf(p.strategyId, p.token, 'I') !== 0,
      )
      .map((p) => p.strategyId),
  );
  for (const strategyId of strategies) {
    await submit({
      kind: 'squareOff',
      id: `kill-${clock.now()}`,
      strategyId,
      reason: 'kill switch',
    });
  }
}
