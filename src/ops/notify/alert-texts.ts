import { formatInr } from '../../domain/money.ts';
import type { Position } from '../../domain/order-events.ts';
import type { ShutdownReport } from '../../execution/run-shutdown.ts';
import { workingPrices } from '../../execution/working-prices.ts';

const signed = (paise: number): string => (paise > 0 ? `+${formatInr(paise)}` : formatInr(paise));

/** `SBIN-EQ +10 @ ₹794.15 (sma, unrealised +₹12.00)` */
function positionLine(p: Position): string {
  const qty = p.netQuantity > 0 ? `+${p.netQuantity}` : String(p.netQuantity);
  const symbol = p.symbol === '' ? String(p.token) : p.symbol;
  return `${symbol} ${qty} @ ${formatInr(p.averagePrice)} (${p.strategyId}, unrealised ${signed(p.unrealised)})`;
}

/** Open positions as lines, or `no open positions`. */
export function positionLines(positions: readonly Position[]): string {
  const open = positions.filter((p) => p.netQuantity !== 0);
  return open.length === 0 ? 'no open positions' : open.map(positionLine).join('\n');
}

/** `realised +₹1,200.00, unrealised -₹40.00` */
export function pnlText(t: { realised: number; unrealised: number }): string {
  return `realised ${signed(t.realised)}, unrealised ${signed(t.unrealised)}`;
}

/** A strategy paused by an operator, and who paused it when the journal still says. */
export interface PausedStrategy {
  strategy: string;
  by?: string;
}

/**
 * `paused: sma (by dashboard); no new entries until resumed (dashboard or /resume)`, or
 * undefined when nothing is paused.
 */
export function pausedLine(paused: readonly PausedStrategy[]): string | undefined {
  if (paused.length === 0) return undefined;
  const names = paused.map((p) => `${p.strategy} (by ${p.by ?? 'unknown'})`).join(', ');
  return `paused: ${names}; no new entries until resumed (dashboard or /resume)`;
}

/** The stop alert: what a stop left at the broker. */
export function stoppedText(reason: string, report: ShutdownReport): string {
  const lines = [
    `bot stopped (${reason}; policy ${report.policy})`,
    positionLines(report.positions),
  ];
  if (report.orders.length > 0) {
    lines.push(`${report.orders.length} order(s) still working:`);
    for (const { order } of report.orders) {
      const i = order.intent;
      const side = i.side === 'B' ? 'BUY' : 'SELL';
      // The prices it works at: what a trader needs to judge the risk left open.
      const { price, trigger } = workingPrices(order);
      const at = `${price === undefined ? '' : ` @ ${formatInr(price)}`}${trigger === undefined ? '' : ` trigger ${formatInr(trigger)}`}`;
      lines.push(
        `  ${side} ${order.quantity - order.filledQuantity} ${i.instrument.symbol} ${i.orderType}${at} (${order.strategyId})`,
      );
    }
  }
  if (report.unfinished.length > 0) lines.push(`unfinished: ${report.unfinished.join('; ')}`);
  if (!report.booksRead) lines.push("the broker's books could not be read: check them");
  return lines.join('\n');
}
