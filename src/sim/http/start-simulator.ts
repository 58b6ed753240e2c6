import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Holidays } from '../../api/schemas/utilities.ts';
import type { Clock } from '../../clock/clock.ts';
import { LiveClock } from '../../clock/live-clock.ts';
import { sleep } from '../../clock/sleep.ts';
import { ALWAYS_OPEN, type MarketSessions } from '../../domain/market-sessions.ts';
import { SimError } from '../sim-error.ts';
import { SimExchange } from '../sim-exchange.ts';
import { ADMIN_PREFIX, serveAdmin } from './admin-routes.ts';
import { BODIED_ROUTES, dispatch } from './dispatch.ts';
import { type FaultAction, FaultInjector, type FaultSettings } from './fault-injector.ts';
import { redirectResponse, stallResponse, trickleResponse } from './fault-responses.ts';
import { RawAnswer } from './raw-answer.ts';
import { matchRoute, type RouteId } from './route-table.ts';
import { checkCredentials, DEFAULT_SIM_CREDENTIALS, type SimCredentials } from './sim-auth.ts';
import { DEFAULT_SIM_RATE_LIMITS, SimRateLimiter, type SimRateLimits } from './sim-rate-limiter.ts';
import { SimStats } from './sim-stats.ts';

const MAX_BODY_BYTES = 1_000_000;

/** Options of {@link startSimulator}. Every field is optional. */
export interface SimulatorOptions {
  /** Interface to bind; default `127.0.0.1`. */
  host?: string;
  /** Port; default 0 (a free port). */
  port?: number;
  /** Market time; default a {@link LiveClock}. Tests pass a `VirtualClock`. */
  clock?: Clock;
  /** Time of the network: rate-limit windows and added latency. Default: `clock`. */
  networkClock?: Clock;
  /** Seed of prices and fault draws; default 1. */
  seed?: number;
  /** Holidays served and traded by; default the simulator's 2026 calendar. */
  holidays?: Holidays;
  /** Session rules; `'always-open'` never closes. Default: a `TradingCalendar` of `holidays`. */
  hours?: MarketSessions | 'always-open';
  /** Accepted `appId`; default `sim-app`. */
  appId?: string;
  /** Accepted `token`; default `sim-token`. */
  token?: string;
  /** The token is refused from this instant (epoch ms, `clock` time). */
  tokenExpiresAt?: number;
  /** Request limits; `false` turns them off. Default: the documented limits. */
  rateLimits?: false | Partial<SimRateLimits>;
  /** Initial fault injection; change at run time through `faults`. */
  faults?: Partial<FaultSettings>;
  /** Most tokens per list-quote or greeks request; default 100. */
  maxTokensPerRequest?: number;
  /** Modifications allowed per order; default 25. */
  maxModifications?: number;
  /**
   * Serves the test-only admin routes under `/__sim/` to requests carrying this token in
   * the `x-sim-admin` header. Unset (the default): those paths are unknown, like any other.
   */
  adminToken?: string;
  /** Called with unexpected internal errors (answered 500); default: ignored. */
  onError?: (err: unknown) => void;
}

/** A simulator serving over HTTP. */
export interface RunningSimulator {
  /** Base URL, e.g. `http://127.0.0.1:54321`. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** The exchange behind the server, for direct inspection. */
  readonly exchange: SimExchange;
  /** Run-time fault controls. */
  readonly faults: FaultInjector;
  /** Requests received per operation, responses per status. */
  readonly stats: SimStats;
  /** Replaces the accepted credentials (a new day's token); state is kept. */
  setCredentials(credentials: Partial<SimCredentials> & { tokenExpiresAt?: number }): void;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/**
 * Starts the exchange simulator on a loopback port and resolves once it listens.
 *
 * @example
 * ```ts
 * const sim = await startSimulator({ clock: new VirtualClock(start), seed: 7 });
 * const client = new TiqsClient({ baseUrl: sim.url, appId: 'sim-app', token: 'sim-token' });
 * // ...
 * sim.stats.count('placeOrder');
 * await sim.close();
 * ```
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const clock = options.clock ?? new LiveClock();
  const networkClock = options.networkClock ?? clock;
  const seed = options.seed ?? 1;
  const hours = options.hours === 'always-open' ? ALWAYS_OPEN : options.hours;
  const exchange = new SimExchange({
    clock,
    seed,
    ...(options.holidays === undefined ? {} : { holidays: options.holidays }),
    ...(hours === undefined ? {} : { hours }),
    ...(options.maxModifications === undefined
      ? {}
      : { maxModifications: options.maxModifications }),
  });
  const faults = new FaultInjector(seed, {
    ...options.faults,
    ...(options.tokenExpiresAt === undefined ? {} : { tokenExpiresAt: options.tokenExpiresAt }),
  });
  const stats = new SimStats(networkClock);
  const limiter =
    options.rateLimits === false
      ? undefined
      : new SimRateLimiter({ ...DEFAULT_SIM_RATE_LIMITS, ...options.rateLimits }, networkClock);
  let credentials: SimCredentials = {
    appId: options.appId ?? DEFAULT_SIM_CREDENTIALS.appId,
    token: options.token ?? DEFAULT_SIM_CREDENTIALS.token,
  };
  const maxTokensPerRequest = options.maxTokensPerRequest ?? 100;
  const adminToken = options.adminToken;
  const setCredentials: RunningSimulator['setCredentials'] = (next) => {
    credentials = {
      appId: next.appId ?? credentials.appId,
      token: next.token ?? credentials.token,
    };
    faults.set({ tokenExpiresAt: next.tokenExpiresAt });
  };

  const send = (res: ServerResponse, status: number, body: string, headers = {}): void => {
    stats.recordResponse(status);
    if (res.destroyed) return;
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      ...headers,
    });
    res.end(body);
  };
  const sendError = (res: ServerResponse, err: SimError, headers = {}): void => {
    const body = JSON.stringify({
      status: 'error',
      message: err.message,
      errorCode: err.errorCode,
    });
    send(res, err.status, body, headers);
  };
  const drop = (req: IncomingMessage): void => {
    stats.recordResponse(0);
    req.socket.destroy();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> => {
    const match = matchRoute(req.method ?? 'GET', req.url ?? '/');
    if (match.kind === 'not-found') {
      stats.recordRequest('unknown');
      sendError(res, new SimError(404, 'NotFoundError', `No route ${req.method} ${req.url}`));
      return;
    }
    if (match.kind === 'method-not-allowed') {
      stats.recordRequest('unknown');
      const err = new SimError(405, 'BadRequestError', `Method ${req.method} not allowed here`);
      sendError(res, err, { allow: match.allow.join(', ') });
      return;
    }
    const route: RouteId = match.route;
    stats.recordRequest(route);
    checkCredentials(req.headers, credentials, clock.now(), faults.settings.tokenExpiresAt);
    if (limiter !== undefined) {
      const admission = limiter.admit(route);
      if (!admission.ok) {
        stats.recordRateLimited();
        const retry = String(Math.ceil(admission.retryAfterMs / 1000));
        sendError(res, new SimError(429, 'TooManyRequests', admission.message), {
          'retry-after': retry,
        });
        return;
      }
    }
    const latency = faults.applies(route) ? faults.settings.latencyMs : 0;
    const action: FaultAction = faults.decide(route);
    if (
      route === 'placeOrder' &&
      (action === 'drop' || action === 'fail' || action === 'malformed')
    )
      stats.recordUnprocessedOrder(tagOf(raw));
    if (latency > 0) await sleep(networkClock, latency);
    if (action === 'drop') return drop(req);
    if (action === 'fail') {
      throw new SimError(503, 'InternalServerError', 'Service temporarily unavailable (injected)');
    }
    if (action === 'malformed') {
      send(res, 200, '{"status":"success","data":{"trunc');
      return;
    }
    if (action === 'throttle') {
      const err = new SimError(429, 'TooManyRequests', 'Too many requests (injected)');
      sendError(res, err, { 'retry-after': faults.settings.throttleRetryAfter });
      return;
    }
    if (action === 'redirect') {
      stats.recordResponse(faults.settings.redirectStatus);
      const { redirectStatus, redirectTo } = faults.settings;
      redirectResponse(res, redirectStatus, redirectTo, req.url ?? '/');
      return;
    }
    let body: unknown;
    if (BODIED_ROUTES.has(route)) {
      const text = raw.toString('utf8');
      if (text.trim() === '') throw new SimError(400, 'BadRequestError', 'A JSON body is required');
      try {
        body = JSON.parse(text);
      } catch {
        throw new SimError(400, 'BadRequestError', 'Malformed JSON body');
      }
    }
    // Counted before dispatch, which refuses a batch naming an unknown token.
    if (route === 'quote') stats.recordAsked([(body as { token?: unknown } | null)?.token]);
    if (route === 'quotes' && Array.isArray(body)) stats.recordAsked(body);
    const rejectReason = route === 'placeOrder' ? faults.takeRejectedOrder() : undefined;
    const data = dispatch(exchange, route, match.params, body, {
      maxTokensPerRequest,
      url: req.url ?? '',
      ...(rejectReason === undefined ? {} : { rejectReason }),
    });
    if (route === 'placeOrder' && faults.takeLostOrderResponse()) return drop(req);
    // A file (the instrument master) goes out as it is, outside the envelope.
    const file = data instanceof RawAnswer ? data : undefined;
    const answer = file?.body ?? JSON.stringify({ data, status: 'success' });
    // Stalled and trickled answers come after the work: the outcome exists, unseen.
    if (action === 'stall' || action === 'trickle') {
      stats.recordResponse(200);
      if (action === 'stall') stallResponse(res, answer);
      else await trickleResponse(res, answer, faults.settings.trickleIntervalMs, networkClock);
      return;
    }
    if (route === 'quote') stats.recordServed([(body as { token: number }).token]);
    if (route === 'quotes') stats.recordServed(body as number[]);
    send(res, 200, answer, file === undefined ? {} : { 'content-type': file.contentType });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('error', () => req.socket.destroy());
    req.on('end', () => {
      if (adminToken !== undefined && (req.url ?? '').startsWith(ADMIN_PREFIX)) {
        serveAdmin(req, res, Buffer.concat(chunks), {
          token: adminToken,
          exchange,
          faults,
          stats,
          clock,
          setCredentials,
        });
        return;
      }
      if (tooLarge) {
        sendError(res, new SimError(413, 'BadRequestError', 'Request body too large'));
        return;
      }
      handle(req, res, Buffer.concat(chunks)).catch((err: unknown) => {
        if (err instanceof SimError) {
          sendError(res, err);
          return;
        }
        options.onError?.(err);
        sendError(res, new SimError(500, 'InternalServerError', 'Internal error'));
      });
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    host,
    exchange,
    faults,
    stats,
    setCredentials,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err === undefined ? resolve() : reject(err)));
        server.closeAllConnections();
      }),
  };
}

/** The `tags` of a placement's body, or '' when it has none or is not JSON. */
function tagOf(raw: Buffer): string {
  try {
    const tags = (JSON.parse(raw.toString('utf8')) as { tags?: unknown } | null)?.tags;
    return typeof tags === 'string' ? tags : '';
  } catch {
    return '';
  }
}
