import type { Logger } from 'pino';
import { formatInr } from '../domain/money.ts';
import type { IntradayClosed } from './position-book.ts';

/**
 * What the engine says when its book closes an intraday position whose IST day ended
 * ({@link import('./position-book.ts').PositionBookOptions.now}): a warning, since the
 * bot's own square-off did not close it (stopped at the time, or refused) and the
 * broker's cut-off did, at a price the bot does not know. A close found again while a
 * journal is replayed was told when it happened: debug.
 *
 * @example
 * ```ts
 * new PositionBook({ now: () => clock.now(), onIntradayClosed: logIntradayClosed(logger) });
 * ```
 */
export function logIntradayClosed(logger: Logger): (closed: IntradayClosed) => void {
  const log = logger.child({ component: 'execution' });
  return (c) => {
    const fields = {
      strategy: c.strategyId,
      token: c.token,
      symbol: c.symbol,
      quantity: c.quantity,
      day: c.day,
      price: c.price,
    };
    if (c.replayed) {
      log.debug(fields, 'intraday position of an earlier day closed in the replayed journal');
      return;
    }
    log.warn(
      fields,
      `intraday position ${c.quantity > 0 ? '+' : ''}${c.quantity} ${c.symbol} of ${c.strategyId} from ${c.day} was still open after its day ended: the broker squares intraday positions off at its cut-off, so the bot no longer counts it (booked closed at its last price ${formatInr(c.price)}, an estimate); check the broker's positions`,
    );
  };
}
