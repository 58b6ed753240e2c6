import { readFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { DateTime } from 'luxon';
import { successEnvelopeSchema } from '../../api/schemas/envelope.ts';
import { type Holidays, holidaysSchema } from '../../api/schemas/utilities.ts';
import { DEFAULT_BASE_URL, TiqsClient } from '../../api/tiqs-client.ts';
import { toEpochMs } from '../../calendar/instant.ts';
import { type Session, TradingCalendar } from '../../calendar/trading-calendar.ts';
import { LiveClock } from '../../clock/live-clock.ts';
import { loadConfig } from '../../config/load-config.ts';
import { isPlainServiceUrl, PLAIN_SERVICE_URL_PROBLEM } from '../../config/plain-service-url.ts';
import { IST_ZONE, toIstIso } from '../../domain/ist.ts';
import { EXCHANGES, type Exchange } from '../../domain/order-params.ts';
import { readTokenFile } from '../../runtime/read-token-file.ts';
import { istYear, simHolidays } from '../../sim/sim-holidays.ts';

/** What `calendar --json` prints. */
export interface CalendarReport {
  /** The instant asked about, ISO-8601 in IST. */
  readonly at: string;
  readonly exchange: Exchange;
  /** IST date of `at`, `YYYY-MM-DD`. */
  readonly date: string;
  readonly open: boolean;
  readonly phase: 'closed' | 'pre-open' | 'open';
  readonly tradingDay: boolean;
  readonly holiday: string | null;
  readonly sessions: readonly {
    start: string;
    end: string;
    kind: Session['kind'];
    label?: string;
  }[];
  readonly nextOpen: string | null;
  readonly nextClose: string | null;
  /** Whether the holiday data covers the year of `at`. */
  readonly covered: boolean;
  readonly years: readonly number[];
  readonly source: 'file' | 'service';
  /** Caveats in words, such as an uncovered year read with the regular weekly schedule. */
  readonly notes: readonly string[];
}

/** Seams for tests; the defaults are the real ones. */
export interface CalendarCommandDeps {
  readonly fetch?: typeof fetch;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly now?: () => number;
  readonly write?: (text: string) => void;
}

interface CalendarCliOptions {
  at?: string;
  holidays?: string;
  json?: boolean;
  exchange: Exchange;
  baseUrl?: string;
  config?: string;
}

const FETCH_TIMEOUT_MS = 10_000;

/**
 * `tiqs-runner calendar [--at ISO-8601] [--holidays FILE] [--exchange NSE] [--json]`:
 * whether the market is open at an instant, its phase, that day's sessions, and the next
 * open and close. Without `--holidays`, asks the service of `--config`'s broker, or
 * the one of `--base-url`/`TIQS_BASE_URL` with `TIQS_APP_ID` and `TIQS_ACCESS_TOKEN`.
 *
 * @example
 * ```sh
 * tiqs-runner calendar --holidays test/fixtures/holidays-2026.json --at 2026-11-08T18:30+05:30 --json
 * ```
 */
export function calendarCommand(deps: CalendarCommandDeps = {}): Command {
  return new Command('calendar')
    .description(
      "Show whether the market is open, its phase, the day's sessions and the next open and close",
    )
    .option('--at <iso>', 'instant to ask about, ISO-8601 (no offset = IST); default now')
    .option(
      '--holidays <file>',
      "JSON file shaped like the holidays operation's data; default: ask the service",
    )
    .addOption(
      new Option('--exchange <exchange>', 'exchange segment').choices(EXCHANGES).default('NSE'),
    )
    .option(
      '-c, --config <file>',
      "ask the service of this config's broker (embedded: the simulator's calendar)",
    )
    .option('--base-url <url>', `service base URL (env TIQS_BASE_URL, default ${DEFAULT_BASE_URL})`)
    .option('--json', 'print one JSON object')
    .showHelpAfterError()
    .exitOverride()
    .action(async (options: CalendarCliOptions) => {
      const write = deps.write ?? ((text: string) => process.stdout.write(text));
      const at =
        options.at === undefined
          ? (deps.now ?? (() => new LiveClock().now()))()
          : toEpochMs(options.at);
      const data =
        options.holidays === undefined
          ? await fetchHolidays(options, deps, at)
          : await readHolidaysFile(options.holidays);
      const calendar = TradingCalendar.fromHolidays(data);
      const report = buildReport(
        calendar,
        at,
        options.exchange,
        options.holidays === undefined ? 'service' : 'file',
      );
      write(options.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    });
}

function buildReport(
  calendar: TradingCalendar,
  at: number,
  exchange: Exchange,
  source: 'file' | 'service',
): CalendarReport {
  const day = calendar.day(at, exchange);
  const nextOpen = calendar.nextOpen(at, exchange);
  const nextClose = calendar.nextClose(at, exchange);
  const notes: string[] = [];
  const have = calendar.years.length === 0 ? 'no year' : calendar.years.join(', ');
  const assumed = (
    [
      ['this date', at],
      ['the next open', nextOpen],
      ['the next close', nextClose],
    ] as const
  )
    .filter(([, ms]) => ms !== undefined && !calendar.covers(ms))
    .map(([what]) => what);
  if (assumed.length > 0) {
    notes.push(
      `holiday data covers ${have} only: ${assumed.join(' and ')} assume the regular weekly schedule with no holidays`,
    );
  }
  return {
    at: toIstIso(at),
    exchange,
    date: day.date,
    open: calendar.isOpen(at, exchange),
    phase: calendar.phase(at, exchange),
    tradingDay: day.tradingDay,
    holiday: day.holiday ?? null,
    sessions: day.sessions.map((s) => ({
      start: toIstIso(s.start),
      end: toIstIso(s.end),
      kind: s.kind,
      ...(s.label === undefined ? {} : { label: s.label }),
    })),
    nextOpen: nextOpen === undefined ? null : toIstIso(nextOpen),
    nextClose: nextClose === undefined ? null : toIstIso(nextClose),
    covered: day.covered,
    years: calendar.years,
    source,
    notes,
  };
}

function formatReport(r: CalendarReport): string {
  const ist = (iso: string, format: string): string =>
    DateTime.fromISO(iso, { zone: IST_ZONE }).toFormat(format);
  const when = (iso: string | null): string =>
    iso === null ? 'unknown' : `${ist(iso, 'ccc dd LLL yyyy HH:mm')} IST  (${iso})`;
  const sessions =
    r.sessions.length === 0
      ? ['none']
      : r.sessions.map(
          (s) =>
            `${ist(s.start, 'HH:mm')}–${ist(s.end, 'HH:mm')} IST  ${s.kind}${s.label === undefined ? '' : ` (${s.label})`}`,
        );
  const dayKind = r.tradingDay ? 'trading day' : 'no trading';
  const lines = [
    `${ist(r.at, 'ccc dd LLL yyyy HH:mm:ss')} IST  ${r.exchange}`,
    `Market:     ${r.open ? 'OPEN' : 'CLOSED'}  (phase: ${r.phase})`,
    `Day:        ${r.date}, ${dayKind}${r.holiday === null ? '' : `, holiday: ${r.holiday}`}`,
    `Sessions:   ${sessions.join('\n            ')}`,
    `Next open:  ${when(r.nextOpen)}`,
    `Next close: ${when(r.nextClose)}`,
    ...r.notes.map((n) => `Note: ${n}`),
  ];
  return `${lines.join('\n')}\n`;
}

async function readHolidaysFile(file: string): Promise<Holidays> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read holidays file ${file}: ${errorText(err)}`, { cause: err });
  }
  // A saved service response (the whole envelope) is accepted too.
  const envelope = successEnvelopeSchema.safeParse(json);
  const parsed = holidaysSchema.safeParse(envelope.success ? envelope.data.data : json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where =
      issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    throw new Error(
      `holidays file ${file}${where}: ${issue?.message ?? 'invalid'} (expected {holidays, specialTradingDays})`,
    );
  }
  return parsed.data;
}

/** Where to ask for holidays when no file is given. */
async function endpointOf(
  options: CalendarCliOptions,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ baseUrl: string; appId: string; token: string } | 'embedded'> {
  if (options.config !== undefined) {
    const config = await loadConfig(options.config, env);
    if (config.broker.baseUrl === 'embedded') return 'embedded';
    return {
      baseUrl: options.baseUrl ?? config.broker.baseUrl,
      appId: config.broker.appId ?? '',
      token: config.broker.token ?? (await readTokenFile(config.broker.tokenFile)),
    };
  }
  const baseUrl = (options.baseUrl ?? env.TIQS_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  // Not repeated: it is the very text that may carry a secret.
  if (!isPlainServiceUrl(baseUrl))
    throw new Error(`--base-url or TIQS_BASE_URL: ${PLAIN_SERVICE_URL_PROBLEM}`);
  const appId = env.TIQS_APP_ID;
  const token = env.TIQS_ACCESS_TOKEN;
  if (appId === undefined || appId === '' || token === undefined || token === '') {
    throw new Error(
      `set TIQS_APP_ID and TIQS_ACCESS_TOKEN (or pass --config F) to ask the service at ${baseUrl}, or pass --holidays FILE`,
    );
  }
  return { baseUrl, appId, token };
}

/** The holidays operation through the typed client: envelope, schema and errors included. */
async function fetchHolidays(
  options: CalendarCliOptions,
  deps: CalendarCommandDeps,
  at: number,
): Promise<Holidays> {
  const endpoint = await endpointOf(options, deps.env ?? process.env);
  // The embedded simulator serves exactly this calendar; no need to start it.
  if (endpoint === 'embedded') return simHolidays(istYear(at));
  const client = new TiqsClient({
    ...endpoint,
    timeoutMs: FETCH_TIMEOUT_MS,
    retry: { limit: 0 },
    ...(deps.fetch === undefined ? {} : { fetch: deps.fetch }),
  });
  try {
    return await client.holidays();
  } catch (err) {
    throw new Error(`could not get the holidays from ${client.baseUrl}: ${errorText(err)}`, {
      cause: err,
    });
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
