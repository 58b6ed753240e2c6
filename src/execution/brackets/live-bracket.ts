import { SessionError } from '../../api/errors/session-error.ts';
import type { RoutedIntent } from '../../domain/intents.ts';
import type { Paise } from '../../domain/money.ts';
import type { EngineCore } from '../engine-core.ts';
import type { TrackedOrder } from '../tracked-order.ts';
import type { BracketFills, BracketRecord } from './bracket-record.ts';
import type { LegName } from './leg-ids.ts';

/** A bracket as the manager holds it while it runs. */
export interface LiveBracket {
  record: BracketRecord;
  fills: BracketFills;
  /** Legs whose placement was asked for and is not yet submitted or denied. */
  requested: Set<LegName>;
  /** Tags of leg orders the manager asked to cancel (one-cancels-other, replacement, flatten). */
  cancelling: Set<string>;
  /** The entry was denied (or its deferred placement was lost with a restart). */
  entryGone: boolean;
  /** Reloaded from the journal by this run. */
  restored?: boolean;
  /** Why the bracket's protection failed: its steps now cancel its orders and exit at market. */
  failure?: string;
  /** Refused modifications of each leg in a row; the next price tries again while > 0. */
  modifyFailures: Record<LegName, number>;
  /** A step is queued on `chain`. */
  queued: boolean;
  chain: Promise<void>;
}

/** A new live bracket of `record`, with `fills` so far. */
export const newLive = (record: BracketRecord, fills: BracketFills): LiveBracket => ({
  record,
  fills,
  requested: new Set(),
  cancelling: new Set(),
  entryGone: false,
  modifyFailures: { sl: 0, tp: 0 },
  queued: false,
  chain: Promise.resolve(),
});

/** What one step needs. */
export interface SyncDeps {
  core: EngineCore;
  submit(intent: RoutedIntent): Promise<void>;
  /** The instrument's last price, if any arrived. */
  lastPrice: Paise | undefined;
  save(): void;
  /** The bracket has nothing left to manage. */
  finish(reason: string, level?: 'info' | 'warn' | 'error'): void;
  /** The bracket's protection failed: the next steps flatten it. */
  fail(reason: string): void;
  /** Modifications the service allows per order; past them a leg is cancelled and placed anew. */
  maxModifications: number;
}

/** Asks once to cancel one of the bracket's orders (the engine's own cancel path). */
export async function cancel(
  live: LiveBracket,
  order: TrackedOrder,
  deps: SyncDeps,
): Promise<void> {
  if (order.cancelRequested === true || order.orderId === undefined) return;
  live.cancelling.add(order.tag);
  try {
    await deps.core.requestCancel(order);
  } catch (err) {
    if (err instanceof SessionError) deps.core.pause(err);
    else throw err;
  }
}
