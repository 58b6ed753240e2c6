import { Pacer } from '../../api/pacing/pacer.ts';
import { DEFAULT_RATE_LIMITS } from '../../api/pacing/rate-limits.ts';
import { type Credentials, TiqsClient } from '../../api/tiqs-client.ts';
import type { Clock } from '../../clock/clock.ts';
import { LiveClock } from '../../clock/live-clock.ts';
import type { MarketSessions } from '../../domain/market-sessions.ts';
import { EndpointCandleHistory } from '../../market-data/candles/endpoint-history.ts';
import { instrumentMasterSourceKey } from '../../market-data/instruments/instrument-master-source-key.ts';
import { DEFAULT_SIM_CREDENTIALS } from '../../sim/http/sim-auth.ts';
import { type EmbeddedSimulator, startEmbeddedSimulator } from '../embedded-simulator.ts';
import { externalMarketClock } from '../market-clock.ts';
import { readTokenFile } from '../read-token-file.ts';
import type { ModeInput, ModeParts } from './mode-parts.ts';
import { busOver, calendarStoreFor, recorderFor, sessionsOf, stateDirOf } from './shared-parts.ts';

/** The parts live and paper share: a service over HTTP (external or embedded). */
export type HttpVenue = Omit<ModeParts, 'broker' | 'journal' | 'describe' | 'close'> & {
  /** The execution client (the live broker). */
  client: TiqsClient;
  sessions: MarketSessions;
  stateDir: string;
  /** Closes the embedded simulator, if one was started. */
  close(): Promise<void>;
};

/** Where the service is: the options' endpoint, an embedded simulator, or the config's URL. */
async function endpointOf(
  input: ModeInput,
): Promise<{ endpoint: { baseUrl: string } & Credentials; embedded?: EmbeddedSimulator }> {
  const { options, log } = input;
  const { config } = options;
  if (options.endpoint !== undefined) return { endpoint: options.endpoint };
  if (config.broker.baseUrl !== 'embedded') {
    const token = config.broker.token ?? (await readTokenFile(config.broker.tokenFile));
    return {
      endpoint: { baseUrl: config.broker.baseUrl, appId: config.broker.appId ?? '', token },
    };
  }
  const embedded = await startEmbeddedSimulator(config);
  log('kernel').info(
    {
      url: embedded.sim.url,
      marketTime: new Date(embedded.clock.now()).toISOString(),
      speed: config.broker.sim.speed,
    },
    'embedded simulator started',
  );
  return {
    endpoint: { baseUrl: embedded.sim.url, ...DEFAULT_SIM_CREDENTIALS },
    embedded,
  };
}

/**
 * Connects to the service: clocks, one {@link Pacer} for these credentials shared by the
 * execution client and the bus's client, the calendar and the polling bus.
 */
export async function connectHttpVenue(input: ModeInput): Promise<HttpVenue> {
  const { options, log } = input;
  const { config } = options;
  const { endpoint, embedded } = await endpointOf(input);
  // A failure past this point must not leave the embedded simulator listening: the
  // process would never exit.
  try {
    const networkClock: Clock = options.clock ?? embedded?.networkClock ?? new LiveClock();
    const clock = options.clock ?? embedded?.clock ?? externalMarketClock(config.broker);
    // One pacer for both clients below: together they must stay within the service's limits.
    const pacer = new Pacer(networkClock, DEFAULT_RATE_LIMITS, {
      marginMs: config.broker.pacingMarginMs,
    });
    const clientOptions = {
      ...endpoint,
      clock: networkClock,
      pacer,
      timeoutMs: config.broker.timeoutMs,
      retryAfterMaxMs: config.broker.retryAfterMaxMs,
      throttleRetryDeadlineMs: config.broker.throttleRetryDeadlineMs,
      logger: log('api'),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(options.observer === undefined ? {} : { observer: options.observer }),
    };
    options.observer?.pacing(pacer);
    const client = new TiqsClient(clientOptions);
    // The bus backs off and retries on its own schedule and budget; its client must not
    // retry underneath it.
    const busClient = new TiqsClient({ ...clientOptions, retry: { limit: 0 } });
    const recorder = recorderFor(input, clock);
    // Recording taps the source, so it sees exactly what the bus polls.
    const quoteSource = recorder?.tap(client) ?? client;
    const stateDir = await stateDirOf(input);
    const calendarStore = calendarStoreFor(
      input,
      {
        clock,
        networkClock,
        source: quoteSource,
        serviceName: endpoint.baseUrl,
        // The instrument master's cache key: `embedded`, or a digest of the base URL.
        sourceId: instrumentMasterSourceKey(config.broker.baseUrl),
      },
      stateDir,
    );
    const sessions = sessionsOf(calendarStore);
    const feed = busOver(input, recorder?.tap(busClient) ?? busClient, clock, sessions);
    return {
      clock,
      networkClock,
      quoteSource,
      calendarStore,
      feed,
      recorder,
      // Warm-up candles from the service's endpoint, paced on network time.
      candleHistory: new EndpointCandleHistory({
        client,
        clock: networkClock,
        calendar: () => calendarStore.calendar,
      }),
      client,
      sessions,
      stateDir,
      ...(embedded === undefined
        ? {}
        : {
            embeddedInstrumentMaster: embedded.instrumentMaster,
          }),
      ...(options.observer === undefined ? {} : { observer: options.observer }),
      setCredentials: (credentials) => {
        client.setCredentials(credentials);
        // The bus hands them to its own client.
        feed.setCredentials(credentials);
      },
      close: async () => {
        await embedded?.sim.close();
      },
    };
  } catch (err) {
    await embedded?.sim.close();
    throw err;
  }
}
