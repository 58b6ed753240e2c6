import type { Logger } from 'pino';
import { formatInr } from '../domain/money.ts';
import type { ExecutionEngineOptions } from './engine-options.ts';
import type { Journal } from './journal.ts';
import { PositionBook, type PositionBookOptions } from './position-book.ts';

/** Journal meta key: the latest IST day (`YYYY-MM-DD`) whose intraday leftovers were warned of. */
const TOLD_KEY = 'intradayClosedTold';

/**
 * What the engine says when its book closes an intraday position whose IST day ended
 * ({@link PositionBookOptions.now}): a warning, since the bot's own square-off did not
 * close it (stopped at the time, or refused) and the broker's cut-off did, at a price the
 * bot does not know; and when a fill of such a day is learnt only on a later day. What is found
 * again while a journal is replayed was told when it happened: debug.
 *
 * @example
 * ```ts
 * new PositionBook({ now: () => clock.now(), ...intradayLog(logger, journal) });
 * ```
 */
function intradayLog(
  logger: Logger,
  journal: Pick<Journal, 'getMeta' | 'setMeta'>,
): Pick<PositionBookOptions, 'onIntradayClosed' | 'onLateIntradayFill'> {
  const log = logger.child({ component: 'execution' });
  // The latest day whose leftovers an earlier run of this journal warned of: a restart
  // finds them again (the journal keeps fills, not closes) and says so at debug only.
  let toldBefore: string | undefined;
  /** The journal's note, or none when it cannot be read (closed at a stop): warn then. */
  const told = (): string => {
    try {
      return journal.getMeta(TOLD_KEY) ?? '';
    } catch {
      return '';
    }
  };
  const onIntradayClosed: PositionBookOptions['onIntradayClosed'] = (c) => {
    toldBefore ??= told();
    const fields = {
      strategy: c.strategyId,
      token: c.token,
      symbol: c.symbol,
      quantity: c.quantity,
      day: c.day,
      price: c.price,
    };
    if (c.replayed || c.day <= toldBefore) {
      log.debug(fields, 'intraday position of an earlier day closed again (told when it was)');
      return;
    }
    try {
      if (c.day > told()) journal.setMeta(TOLD_KEY, c.day);
    } catch (err) {
      log.debug({ err }, 'could not note the day told in the journal (closed?)');
    }
    log.warn(
      fields,
      `intraday position ${c.quantity > 0 ? '+' : ''}${c.quantity} ${c.symbol} of ${c.strategyId} from ${c.day} was still open after its day ended: the broker squares intraday positions off at its cut-off, so the bot no longer counts it (booked closed at its cost, ${formatInr(c.price)}: the broker's price is not known to the bot, so no PnL is booked for it); check the broker's positions`,
    );
  };
  const onLateIntradayFill: PositionBookOptions['onLateIntradayFill'] = (f) => {
    const fields = {
      strategy: f.strategyId,
      token: f.token,
      symbol: f.symbol,
      quantity: f.quantity,
      day: f.day,
      price: f.price,
    };
    if (f.replayed) {
      log.debug(fields, 'late fill of an intraday order of an earlier day, not booked (replay)');
      return;
    }
    log.warn(
      fields,
      `a fill of ${f.quantity > 0 ? '+' : ''}${f.quantity} ${f.symbol} of ${f.strategyId} for an intraday order of ${f.day} was learnt only on a later day: not booked into the position (that day's position was closed, the broker's square-off taking it as it stood); check the broker's positions`,
    );
  };
  return { onIntradayClosed, onLateIntradayFill };
}

/**
 * The engine's own position book: on its clock, closing intraday positions after their
 * day unless the options say not to, and saying so in its log.
 */
export function engineBook(
  options: Pick<ExecutionEngineOptions, 'clock' | 'logger' | 'closeIntradayAfterDay'>,
  journal: Pick<Journal, 'getMeta' | 'setMeta'>,
): PositionBook {
  const { clock, logger } = options;
  return new PositionBook({
    now: () => clock.now(),
    closeEndedDays: options.closeIntradayAfterDay !== false,
    ...intradayLog(logger, journal),
  });
}
