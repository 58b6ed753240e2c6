import type { Logger } from 'pino';
import type { CalendarStore } from '../calendar/calendar-store.ts';
import type { Clock } from '../clock/clock.ts';
import { toIstIso } from '../domain/ist.ts';
import { formatRupees } from '../domain/money.ts';
import type { PositionBook } from '../execution/position-book.ts';
import { SUMMARY_MESSAGES } from '../logging/summary-lines.ts';
import type { MarketFeed } from '../market-data/market-feed.ts';
import { StrategyMarket } from '../market-data/strategy-market.ts';

/** What the periodic summary reads. */
export interface SummarySources {
  clock: Clock;
  calendarStore: CalendarStore;
  bus: MarketFeed;
  /** Strategy id → run status. */
  strategies: Record<string, string>;
}

/**
 * Logs the market summary record: time, session, last prices (by token; pretty lines name
 * them by symbol), feed health, strategies. In `logging.format: pretty` it and the PnL
 * records after it print as one compact table (`SummaryLines`).
 */
export function logMarketSummary(log: Logger, s: SummarySources): void {
  const { clock, bus } = s;
  const stats = bus.stats;
  log.info(
    {
      // ISO in IST, as the logger's own `marketTime` (which replaces it when bound).
      marketTime: toIstIso(clock.now()),
      open: s.calendarStore.calendar?.isOpen(clock.now()) ?? false,
      ltp: Object.fromEntries(
        bus.quoteTokenList().flatMap((token) => {
          const q = bus.latest(token, 'ltp') ?? bus.latest(token, 'full');
          return q === undefined ? [] : [[token, formatRupees(q.quote.ltp)]];
        }),
      ),
      health: bus.status,
      quoteTokens: stats.quoteTokens,
      quoteRequests: stats.quoteRequests,
      failedRequests: stats.failedRequests,
      rejectedTokens: bus.rejectedTokenList?.() ?? [],
      strategies: s.strategies,
      // A running strategy whose tokens are rejected or stale is not fine: say so.
      strategyData: StrategyMarket.summary(bus),
    },
    SUMMARY_MESSAGES.market,
  );
}

/** Logs each strategy's realised and unrealised PnL (₹) and open positions (count, and net by symbol). */
export function logStrategyPnl(log: Logger, book: PositionBook, ids: readonly string[]): void {
  for (const id of ids) {
    const t = book.totals(id);
    const open = book.positions(id).filter((p) => p.netQuantity !== 0);
    log.info(
      {
        strategy: id,
        realised: formatRupees(t.realised),
        unrealised: formatRupees(t.unrealised),
        openPositions: open.length,
        // Net quantity by symbol: the summary table's position column.
        positions: Object.fromEntries(open.map((p) => [p.symbol, p.netQuantity])),
      },
      SUMMARY_MESSAGES.pnl,
    );
  }
}
