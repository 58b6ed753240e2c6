import { interval, type Subscription } from 'rxjs';
import { istDayNumber } from '../../domain/ist.ts';
import type { OrderEvent } from '../../domain/order-events.ts';
import { orderLine } from '../../logging/order-line.ts';
import type { Kernel } from '../../runtime/kernel.ts';
import { type OrderLogSummary, orderSummaryOf } from '../../runtime/order-event-log.ts';
import type { Alert } from './alert.ts';
import { pnlText, positionLines } from './alert-texts.ts';

/** How the watcher looks at the kernel. */
export interface KernelAlertOptions {
  /** A token without fresh data this long (market time) is reported. */
  staleAfterMs: number;
  /** How often states without a stream (kill switch, session, strategies, the close) are read; market ms. */
  pollMs?: number;
}

/**
 * Turns what a running kernel does into alerts: fills and rejections (its order events),
 * the kill switch tripping, a refused session and its resume, a token stale longer than
 * the threshold, a strategy stopped by an error, and a daily summary when the market
 * closes. States the kernel keeps without a stream are read every `pollMs` of market time
 * on the kernel's clock (virtual in tests). `emit` must not block: channels queue.
 *
 * @example
 * ```ts
 * const sub = watchKernel(kernel, (a) => notifier.emit(a), { staleAfterMs: 60_000 });
 * ```
 */
export function watchKernel(
  kernel: Kernel,
  emit: (alert: Alert) => void,
  options: KernelAlertOptions,
): Subscription {
  const { engine, bus, clock } = kernel;
  const symbolOf = (token: number) => kernel.instruments.byToken(token)?.symbol;
  const orders = new Map<string, OrderLogSummary>();
  const fills = new Map<number, number>();
  const sub = engine.events$.subscribe((e: OrderEvent) => {
    const key = `${e.strategyId}\u0000${e.intentId}`;
    // An event that carries the intent is summarised once: for this alert and, unless the
    // order was denied, for its later events that do not carry it.
    const learnt = 'intent' in e ? orderSummaryOf(e.intent) : undefined;
    if (learnt !== undefined && e.type !== 'OrderDenied') orders.set(key, learnt);
    const order = 'intent' in e ? learnt : orders.get(key);
    const line = () =>
      `${e.strategyId}  ${orderLine({ msg: e.type, event: e, ...(order === undefined ? {} : { order }) }, symbolOf)}`;
    if (e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled') {
      const day = istDayNumber(e.at);
      fills.set(day, (fills.get(day) ?? 0) + 1);
      emit({
        kind: 'fill',
        at: e.at,
        text: line(),
        data: { event: e, ...(order === undefined ? {} : { order }) },
      });
    } else if (e.type === 'OrderRejected' || e.type === 'OrderDenied') {
      const { intent: _intent, ...event } = e as OrderEvent & { intent?: unknown };
      emit({
        kind: 'rejection',
        at: e.at,
        text: line(),
        data: { event, ...(order === undefined ? {} : { order }) },
      });
    }
    if (e.type === 'OrderFilled' || e.type === 'OrderCancelled' || e.type === 'OrderRejected')
      orders.delete(key);
  });

  // A square-off's exit given up on: a person must look at the position.
  sub.add(
    engine.exitsGivenUp$.subscribe((g) =>
      emit({
        kind: 'square-off-failed',
        at: g.at,
        text:
          g.stillTrying === true
            ? `${g.strategyId}  square-off of ${symbolOf(g.token) ?? g.token} stuck: the position is OPEN; check it with the broker (${g.reason})`
            : `${g.strategyId}  square-off of ${symbolOf(g.token) ?? g.token} given up after ${g.refusals} refusal(s): the position may still be OPEN, close it by hand (${g.reason})`,
        data: { exitGivenUp: g },
      }),
    ),
  );

  const staleSince = new Map<number, number>();
  const staleAlerted = new Set<number>();
  const name = (token: number) => symbolOf(token) ?? String(token);
  sub.add(
    bus.stale$.subscribe((s) => {
      if (s.stale) {
        if (!staleSince.has(s.token)) staleSince.set(s.token, s.lastFreshAt ?? s.at);
        return;
      }
      staleSince.delete(s.token);
      if (staleAlerted.delete(s.token))
        emit({
          kind: 'stale-data',
          at: s.at,
          text: `market data fresh again: ${name(s.token)}`,
          data: { token: s.token, stale: false },
        });
    }),
  );

  let killed = engine.killed;
  let paused = engine.pausedReason;
  const failed = new Set(
    Object.entries(kernel.strategyStatus())
      .filter(([, st]) => st === 'failed')
      .map(([id]) => id),
  );
  let wasOpen: boolean | undefined;
  let summarisedDay: number | undefined;
  const poll = () => {
    const now = clock.now();
    if (engine.killed && !killed)
      emit({
        kind: 'kill-switch',
        at: now,
        text: `KILL SWITCH tripped: no new entries today${kernel.config.risk.flattenOnKill ? '; closing every position' : ''}\n${pnlText(engine.positions.totals())}`,
      });
    killed = engine.killed;
    const reason = engine.pausedReason;
    if (reason !== undefined && paused === undefined)
      emit({
        kind: 'session',
        at: now,
        text: `session refused: trading and market data paused until a new token arrives (${reason})`,
      });
    else if (reason === undefined && paused !== undefined)
      emit({
        kind: 'session',
        at: now,
        text: 'session resumed with the new token: trading goes on',
      });
    paused = reason;
    for (const [id, st] of Object.entries(kernel.strategyStatus())) {
      if (st !== 'failed' || failed.has(id)) continue;
      failed.add(id);
      const why = failureOf(kernel, id);
      emit({
        kind: 'strategy-error',
        at: now,
        text: `strategy ${id} stopped by an error${why === undefined ? '' : `: ${why}`} (the others keep running; see the log)`,
        data: { strategy: id },
      });
    }
    const late = [...staleSince].filter(
      ([t, since]) => !staleAlerted.has(t) && now - since >= options.staleAfterMs,
    );
    if (late.length > 0) {
      for (const [t] of late) staleAlerted.add(t);
      const secs = Math.round(options.staleAfterMs / 1000);
      emit({
        kind: 'stale-data',
        at: now,
        text: `market data stale for over ${secs} s: ${late.map(([t]) => name(t)).join(', ')}`,
        data: { tokens: late.map(([t]) => t), stale: true },
      });
    }
    const open = kernel.calendarStore.calendar?.isOpen(now);
    const day = istDayNumber(now);
    if (wasOpen === true && open === false && summarisedDay !== day) {
      summarisedDay = day;
      emit(dailySummary(kernel, now, fills.get(day) ?? 0));
    }
    if (open !== undefined) wasOpen = open;
  };
  sub.add(interval(options.pollMs ?? 1_000, clock.scheduler).subscribe(poll));
  return sub;
}

/** The longest error message an alert quotes; the log has it whole. */
const MAX_FAILURE = 300;

/** What strategy `id` failed with, when the kernel says (`strategyFailures`). */
function failureOf(kernel: Kernel, id: string): string | undefined {
  const failures = (kernel as { strategyFailures?: () => Record<string, string> }).strategyFailures;
  const why = failures?.call(kernel)[id];
  return why === undefined ? undefined : why.slice(0, MAX_FAILURE);
}

/** The daily summary after the close: PnL per strategy and in total, fills, what is open. */
function dailySummary(kernel: Kernel, now: number, fillCount: number): Alert {
  const book = kernel.engine.positions;
  const ids = Object.keys(kernel.strategyStatus());
  const lines = [
    `daily summary (${kernel.config.mode}): ${fillCount} fill(s); total ${pnlText(book.totals())}`,
    ...ids.map((id) => `  ${id}: ${pnlText(book.totals(id))}`),
    positionLines(book.positions()),
  ];
  return {
    kind: 'daily-summary',
    at: now,
    text: lines.join('\n'),
    data: {
      fills: fillCount,
      totals: book.totals(),
      strategies: Object.fromEntries(ids.map((id) => [id, book.totals(id)])),
    },
  };
}
