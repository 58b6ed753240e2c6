import { Command, InvalidArgumentError, Option } from 'commander';
import type { Clock } from '../../clock/clock.ts';
import { LiveClock } from '../../clock/live-clock.ts';
import { ScaledClock } from '../../clock/scaled-clock.ts';
import { ROUTE_IDS, type RouteId } from '../../sim/http/route-table.ts';
import { DEFAULT_SIM_CREDENTIALS } from '../../sim/http/sim-auth.ts';
import { type SimulatorOptions, startSimulator } from '../../sim/http/start-simulator.ts';

function int(name: string, min: number, max: number) {
  return (text: string): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}`);
    }
    return n;
  };
}

function num(name: string, min: number, max: number) {
  return (text: string): number => {
    const n = Number(text);
    if (text.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
      throw new InvalidArgumentError(`${name} must be a number from ${min} to ${max}`);
    }
    return n;
  };
}

function instant(name: string) {
  return (text: string): number => {
    const ms = Date.parse(text);
    if (Number.isNaN(ms)) throw new InvalidArgumentError(`${name} must be an ISO date-time`);
    return ms;
  };
}

function parseRoutes(text: string | undefined): RouteId[] | undefined {
  if (text === undefined) return undefined;
  const ids = text.split(',').map((t) => t.trim());
  const bad = ids.filter((id) => !(ROUTE_IDS as readonly string[]).includes(id));
  if (bad.length > 0) {
    throw new InvalidArgumentError(
      `--fault-routes: unknown ${bad.join(', ')}; use ${ROUTE_IDS.join(', ')}`,
    );
  }
  return ids as RouteId[];
}

interface SimFlags {
  port: number;
  host: string;
  seed: number;
  alwaysOpen?: boolean;
  start?: number;
  speed: number;
  anchor?: number;
  adminToken?: string;
  throttleRate: number;
  throttleRetryAfter: string;
  redirectRate: number;
  redirectStatus: number;
  redirectTo: string;
  stallRate: number;
  trickleRate: number;
  trickleInterval: number;
  faultRoutes?: string;
  appId?: string;
  token?: string;
  tokenExpiresAt?: number;
  rateLimits: boolean;
  latency: number;
  failRate: number;
  dropRate: number;
  malformedRate: number;
  loseOrderResponses: number;
  maxTokens: number;
}

/**
 * `tiqs-runner sim`: serves the local exchange simulator until SIGINT/SIGTERM. Prints a
 * line with `http://HOST:PORT` once it listens.
 */
export function simCommand(): Command {
  return new Command('sim')
    .description('Serve the local exchange simulator (the Tiqs API over HTTP, seeded market)')
    .option('--port <n>', 'port to listen on; 0 picks a free one', int('--port', 0, 65535), 0)
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .option('--seed <n>', 'seed of the price paths and fault draws', int('--seed', 0, 2 ** 31), 1)
    .option('--always-open', 'never close the market (for demos and tests)')
    .option('--start <iso>', 'market time to start at (default: now)', instant('--start'))
    .option('--speed <n>', 'market seconds per real second', num('--speed', 0.001, 100_000), 1)
    .option(
      '--anchor <iso>',
      'wall instant at which market time equals --start (share it with the bot)',
      instant('--anchor'),
    )
    .option('--admin-token <t>', 'serve the test-only /__sim/ admin routes to this token')
    .addOption(
      new Option(
        '--app-id <id>',
        `accepted appId (default: $TIQS_APP_ID or ${DEFAULT_SIM_CREDENTIALS.appId})`,
      ),
    )
    .addOption(
      new Option(
        '--token <token>',
        `accepted token (default: $TIQS_ACCESS_TOKEN or ${DEFAULT_SIM_CREDENTIALS.token})`,
      ),
    )
    .option(
      '--token-expires-at <iso>',
      'refuse the token (401) from this instant',
      instant('--token-expires-at'),
    )
    .option('--no-rate-limits', 'turn off the documented rate limits')
    .option('--latency <ms>', 'added latency per response', int('--latency', 0, 600_000), 0)
    .option('--fail-rate <0..1>', 'share of requests answered 5xx', num('--fail-rate', 0, 1), 0)
    .option(
      '--drop-rate <0..1>',
      'share of connections dropped unanswered',
      num('--drop-rate', 0, 1),
      0,
    )
    .option(
      '--malformed-rate <0..1>',
      'share answered with a broken JSON body',
      num('--malformed-rate', 0, 1),
      0,
    )
    .option(
      '--throttle-rate <0..1>',
      'share answered 429 (not processed)',
      num('--throttle-rate', 0, 1),
      0,
    )
    .option('--throttle-retry-after <v>', 'Retry-After header of injected 429s, as sent', '1')
    .option('--redirect-rate <0..1>', 'share redirected elsewhere', num('--redirect-rate', 0, 1), 0)
    .option(
      '--redirect-status <n>',
      'status of injected redirects: 302 or 307',
      int('--redirect-status', 302, 307),
      302,
    )
    .option('--redirect-to <origin>', 'origin injected redirects point at', 'http://127.0.0.1:9')
    .option(
      '--stall-rate <0..1>',
      'share processed, then answered with headers and half a body, never completed',
      num('--stall-rate', 0, 1),
      0,
    )
    .option(
      '--trickle-rate <0..1>',
      'share processed, then answered one byte per --trickle-interval',
      num('--trickle-rate', 0, 1),
      0,
    )
    .option(
      '--trickle-interval <ms>',
      'gap between trickled bytes',
      int('--trickle-interval', 1, 600_000),
      1_000,
    )
    .option('--fault-routes <ids>', 'comma-separated operations the rates apply to (default: all)')
    .option(
      '--lose-order-responses <n>',
      'carry out the next N placements but drop their answers (duplicate-order trap)',
      int('--lose-order-responses', 0, 1_000_000),
      0,
    )
    .option(
      '--max-tokens <n>',
      'most tokens per list-quote or greeks request',
      int('--max-tokens', 1, 10_000),
      100,
    )
    .action(async (flags: SimFlags) => {
      if (flags.anchor !== undefined && flags.start === undefined) {
        throw new InvalidArgumentError('--anchor needs --start');
      }
      if (flags.redirectStatus !== 302 && flags.redirectStatus !== 307) {
        throw new InvalidArgumentError('--redirect-status must be 302 or 307');
      }
      const routes = parseRoutes(flags.faultRoutes);
      const scaled = flags.start !== undefined || flags.speed !== 1;
      const clock: Clock = scaled
        ? new ScaledClock(flags.start ?? Date.now(), flags.speed, Date.now, flags.anchor)
        : new LiveClock();
      const options: SimulatorOptions = {
        host: flags.host,
        port: flags.port,
        seed: flags.seed,
        clock,
        // Rate limits and latency are about real time, whatever speed the market runs at.
        networkClock: new LiveClock(),
        appId: flags.appId ?? process.env.TIQS_APP_ID ?? DEFAULT_SIM_CREDENTIALS.appId,
        token: flags.token ?? process.env.TIQS_ACCESS_TOKEN ?? DEFAULT_SIM_CREDENTIALS.token,
        faults: {
          latencyMs: flags.latency,
          failRate: flags.failRate,
          dropRate: flags.dropRate,
          malformedRate: flags.malformedRate,
          loseOrderResponses: flags.loseOrderResponses,
          throttleRate: flags.throttleRate,
          throttleRetryAfter: flags.throttleRetryAfter,
          redirectRate: flags.redirectRate,
          redirectStatus: flags.redirectStatus,
          redirectTo: flags.redirectTo,
          stallRate: flags.stallRate,
          trickleRate: flags.trickleRate,
          trickleIntervalMs: flags.trickleInterval,
          routes,
        },
        maxTokensPerRequest: flags.maxTokens,
        onError: (err) => process.stderr.write(`tiqs-runner sim: internal error: ${String(err)}\n`),
      };
      if (flags.alwaysOpen === true) options.hours = 'always-open';
      if (flags.adminToken !== undefined) options.adminToken = flags.adminToken;
      if (flags.tokenExpiresAt !== undefined) options.tokenExpiresAt = flags.tokenExpiresAt;
      if (!flags.rateLimits) options.rateLimits = false;
      const sim = await startSimulator(options);
      process.stdout.write(
        `tiqs-runner sim listening on ${sim.url} (seed ${flags.seed}, ${flags.alwaysOpen === true ? 'always open' : 'NSE calendar'}, market time ${new Date(clock.now()).toISOString()})\n`,
      );
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      await sim.close();
    });
}
