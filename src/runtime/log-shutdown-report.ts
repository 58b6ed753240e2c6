import type { Logger } from 'pino';
import { formatRupees } from '../domain/money.ts';
import type { ShutdownReport } from '../execution/run-shutdown.ts';
import { workingPrices } from '../execution/working-prices.ts';

/**
 * Messages of the last lines of a stop, stable for machines (`logging.format: json`):
 * one `position` line per position still open, one `order` line per order still
 * working at the broker, then `stopped` with the counts. Each line also carries an
 * `event` field with the same meaning.
 */
export const SHUTDOWN_LOG = {
  position: 'still open at stop: position',
  order: 'still open at stop: order',
  stopped: 'stopped',
} as const;

const rupees = (paise: number | undefined): string | undefined =>
  paise === undefined ? undefined : `${paise < 0 ? '-' : ''}₹${formatRupees(Math.abs(paise))}`;

/**
 * Logs what a stop left at the broker, money in rupees, one line per position and per
 * order, by symbol; the final `stopped` line says what could not be finished.
 *
 * @example
 * ```ts
 * logShutdownReport(log, await engine.shutdown('cancel-entries', { signal }), 1250);
 * ```
 */
export function logShutdownReport(log: Logger, report: ShutdownReport, durationMs: number): void {
  for (const p of report.positions) {
    log.info(
      {
        event: 'open-position',
        strategy: p.strategyId,
        symbol: p.symbol,
        token: p.token,
        quantity: p.netQuantity,
        averagePrice: rupees(p.averagePrice),
        lastPrice: rupees(p.lastPrice),
        unrealised: rupees(p.unrealised),
      },
      SHUTDOWN_LOG.position,
    );
  }
  for (const { order, role } of report.orders) {
    const { intent } = order;
    // As the order works now: modifications (a trailing stop) update the request, not the intent.
    const { price, trigger } = workingPrices(order);
    log.info(
      {
        event: 'open-order',
        strategy: order.strategyId,
        symbol: intent.instrument.symbol,
        token: intent.instrument.token,
        side: intent.side,
        quantity: order.quantity,
        remaining: Math.max(0, order.quantity - order.filledQuantity),
        orderType: intent.orderType,
        price: rupees(price),
        triggerPrice: rupees(trigger),
        role,
        status: order.orderId === undefined ? 'outcome unknown' : order.status,
        intentId: order.intentId,
        tag: order.tag,
        orderId: order.orderId,
      },
      SHUTDOWN_LOG.order,
    );
  }
  const clean = report.unfinished.length === 0;
  log[clean ? 'info' : 'warn'](
    {
      event: 'stopped',
      policy: report.policy,
      openPositions: report.positions.length,
      openOrders: report.orders.length,
      booksRead: report.booksRead,
      unfinished: report.unfinished,
      durationMs,
    },
    SHUTDOWN_LOG.stopped,
  );
}
