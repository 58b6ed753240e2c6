import type { RoutedIntent } from '../domain/intents.ts';
import type { ExecutionEngine } from '../execution/execution-engine.ts';

/** Id of a control's intents: unique even for two controls in one market millisecond. */
let seq = 0;
export const controlIntentId = (prefix: string, now: number): string => `${prefix}-${now}-${++seq}`;

/** What the engine did with the intents a control submitted. */
export interface SubmitOutcome {
  /** Orders the engine placed for them (exits sent to the broker). */
  sent: number;
  /** Strategies whose intent was denied, with why. */
  denied: string[];
  /** Strategies whose intent waits (trading paused, reconciling after a restart). */
  deferred: string[];
}

/**
 * Submits a control's intents and reports what the engine did with them, from its own
 * events (`OrderDenied`, `IntentDeferred` for these intent ids) and the orders it added:
 * a control says `done` only when something went to the broker.
 */
export async function submitWatched(
  engine: Pick<ExecutionEngine, 'events$' | 'orders' | 'submit'>,
  intents: RoutedIntent[],
): Promise<SubmitOutcome> {
  const ids = new Set(intents.map((i) => i.id));
  // A square-off's exits carry `<id>:<token>`.
  const ours = (intentId: string) => ids.has(intentId) || ids.has(intentId.split(':')[0] ?? '');
  const denied: string[] = [];
  const deferred: string[] = [];
  const before = new Set(engine.orders().map((o) => o.tag));
  const sub = engine.events$.subscribe((e) => {
    if (!ours(e.intentId)) return;
    if (e.type === 'OrderDenied') denied.push(`${e.strategyId} (${e.reason})`);
    else if (e.type === 'IntentDeferred') deferred.push(e.strategyId);
  });
  try {
    await Promise.all(intents.map((i) => engine.submit(i)));
  } finally {
    sub.unsubscribe();
  }
  const sent = engine.orders().filter((o) => !before.has(o.tag) && ours(o.intent.id)).length;
  return { sent, denied, deferred };
}
