import { LiveClock } from '../../clock/live-clock.ts';
import { MemoryJournal } from '../../execution/journal.ts';
import type { MarketSource } from '../../market-data/market-source.ts';
import type { ModeInput, ModeParts } from './mode-parts.ts';
import {
  busOver,
  calendarStoreFor,
  describeTo,
  paperBrokerFor,
  recorderFor,
  sessionsOf,
  stateDirOf,
} from './shared-parts.ts';

/**
 * Backtest (and any in-process source, such as the `record` command's simulator): market
 * data from `source`, pushed by `options.market` or polled by a bus, orders filled by the
 * paper venue, the journal in memory. Nothing goes over HTTP: no client, no simulator.
 */
export async function backtestMode(input: ModeInput, source: MarketSource): Promise<ModeParts> {
  const { options } = input;
  // The caller's (virtual) clock is market and network time alike: there is no network.
  const clock = options.clock ?? new LiveClock();
  const recorder = recorderFor(input, clock);
  const quoteSource = recorder?.tap(source) ?? source;
  const calendarStore = calendarStoreFor(
    input,
    {
      clock,
      networkClock: clock,
      source: quoteSource,
      serviceName: 'the in-process source',
      // `holidays-inprocess.json` (the `record` command's simulator): apart from a bot's.
      sourceId: 'inprocess',
    },
    await stateDirOf(input),
  );
  const sessions = sessionsOf(calendarStore);
  const feed = options.market ?? busOver(input, quoteSource, clock, sessions);
  // The venue says when its books change: the tracker skips the ticks that could see
  // nothing new, so virtual time jumps over idle hours instead of stepping each second.
  const broker = paperBrokerFor(input, clock, feed, sessions, true);
  return {
    clock,
    networkClock: clock,
    quoteSource,
    calendarStore,
    feed,
    broker,
    // Backtests and sweeps run in parallel: each keeps its journal to itself. No restart
    // reads it (the run starts once, on an empty journal): no order copies or event list.
    journal: options.journal ?? new MemoryJournal({ history: false }),
    recorder,
    ...(options.candleHistory === undefined ? {} : { candleHistory: options.candleHistory }),
    describe: describeTo(broker),
    // The venue has no broker's cut-off: an intraday position left open stays (the
    // results are those of the fills).
    closeIntradayAfterDay: false,
    // The source and the market are the caller's; new credentials mean nothing to them.
    setCredentials: () => undefined,
    close: async () => broker.close(),
  };
}
