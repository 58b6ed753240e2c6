import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { calendarFileName } from '../../calendar/calendar-file-name.ts';
import { CalendarStore } from '../../calendar/calendar-store.ts';
import type { Clock } from '../../clock/clock.ts';
import type { Instrument } from '../../domain/intents.ts';
import type { MarketSessions } from '../../domain/market-sessions.ts';
import { MarketDataBus } from '../../market-data/market-data-bus.ts';
import type { MarketFeed } from '../../market-data/market-feed.ts';
import type { MarketSource } from '../../market-data/market-source.ts';
import { PaperBroker } from '../../paper/paper-broker.ts';
import { Recorder } from '../../recording/recorder.ts';
import type { ModeInput } from './mode-parts.ts';

/** Folder name of a recording that starts at `at`: its UTC instant, file-name safe. */
function recordingFolderName(at: number): string {
  return new Date(at).toISOString().replace(/[:.]/g, '-');
}

/** The recorder the options or the config ask for, if any. */
export function recorderFor(input: ModeInput, clock: Clock): Recorder | undefined {
  const { options, projectDir } = input;
  const { recording } = options.config;
  const dir =
    options.recordTo ??
    (recording.enabled
      ? join(resolve(projectDir, recording.dir), recordingFolderName(clock.now()))
      : undefined);
  return dir === undefined ? undefined : Recorder.create({ dir, clock, gzip: recording.gzip });
}

/** The state folder, created if missing. */
export async function stateDirOf(input: ModeInput): Promise<string> {
  const dir = resolve(input.projectDir, input.options.config.state.dir);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** The calendar store over a source's holidays, cached in the state folder. */
export function calendarStoreFor(
  input: ModeInput,
  parts: {
    clock: Clock;
    networkClock: Clock;
    source: MarketSource;
    serviceName: string;
    /** Which service, for the stored copy and its file name (see `CalendarStoreOptions.sourceId`). */
    sourceId: string;
  },
  stateDir: string,
): CalendarStore {
  const { source, sourceId } = parts;
  return new CalendarStore({
    clock: parts.clock,
    // Waiting for, and retrying, the service is network time, not (rehearsal) market time.
    networkClock: parts.networkClock,
    fetchHolidays: (signal) => source.holidays(signal),
    serviceName: parts.serviceName,
    sourceId,
    path: join(stateDir, calendarFileName(sourceId)),
    logger: input.log('calendar'),
  });
}

/** Sessions as the bus and the paper venue ask: closed while there is no calendar. */
export function sessionsOf(store: CalendarStore): MarketSessions {
  return {
    isOpen: (at) => store.calendar?.isOpen(at) ?? false,
    nextOpen: (after) => store.calendar?.nextOpen(after),
    nextClose: (after) => store.calendar?.nextClose(after),
  };
}

/** The market-data bus polling `source` under the config's market-data settings. */
export function busOver(
  input: ModeInput,
  source: MarketSource,
  clock: Clock,
  sessions: MarketSessions,
): MarketDataBus {
  const { config } = input.options;
  const md = config.marketData;
  return new MarketDataBus({
    source,
    clock,
    sessions,
    logger: input.log('bus'),
    intervalMs: md.intervalMs,
    batchSize: md.batchSize,
    warmupMs: md.warmupSeconds * 1_000,
    staleAfterIntervals: md.staleAfterIntervals,
    quoteRequestsPerSecond: md.requestsPerSecond,
    greeksIntervalMs: md.greeksIntervalMs,
    rejectedRetryMs: md.rejectedRetrySeconds * 1_000,
    // The same jitter margin as the client's pacer: the bus never makes it queue.
    jitterMarginMs: config.broker.pacingMarginMs,
    ...(input.options.observer === undefined ? {} : { tickObserver: input.options.observer }),
  });
}

/** The in-process paper venue filling against `feed`'s quotes. */
export function paperBrokerFor(
  input: ModeInput,
  clock: Clock,
  feed: MarketFeed,
  sessions: MarketSessions,
  announceChanges = false,
): PaperBroker {
  const { paper } = input.options.config;
  return new PaperBroker({
    clock,
    bus: feed,
    hours: sessions,
    logger: input.log('paper'),
    latencyMs: paper.latencyMs,
    slippageTicks: paper.slippageTicks,
    announceChanges,
    // A backtest's venue lets go of its quotes between orders when the replay holds them.
    releaseIdleFeeds: announceChanges,
    ...(input.options.fillModel === undefined ? {} : { fillModel: input.options.fillModel }),
  });
}

/** An intent's instrument as the paper venue's terms (lot, tick). */
export function describeTo(broker: PaperBroker): (instrument: Instrument) => void {
  return (instrument) =>
    broker.describe(instrument.token, {
      exchange: instrument.exchange,
      symbol: instrument.symbol,
      lotSize: instrument.lotSize ?? 1,
      tick: instrument.tickSize ?? 5,
    });
}
