import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import {
  type InstrumentMasterFormat,
  type ParsedInstrumentMaster,
  parseInstrumentMaster,
} from '../../api/instrument-master-csv.ts';
import { errorMessage } from '../../calendar/error-message.ts';
import type { Clock } from '../../clock/clock.ts';
import type { Instrument } from '../../domain/intents.ts';
import { toIstIso } from '../../domain/ist.ts';
import type { Exchange } from '../../domain/order-params.ts';
import { type InstrumentLookup, InstrumentMaster } from './instrument-master.ts';

/** Where the master in use came from. */
export type InstrumentMasterOrigin = 'cache' | 'service' | 'stale-cache' | 'none';

/** What {@link InstrumentMasterStore.load} found. */
export interface InstrumentMasterStatus {
  origin: InstrumentMasterOrigin;
  /** The IST day (`YYYY-MM-DD`) of the master in use, if any. */
  day: string | undefined;
  instruments: number;
  /** Why the service's master could not be had (origin `stale-cache` or `none`). */
  problem?: string;
}

/** Options of {@link InstrumentMasterStore}. */
export interface InstrumentMasterStoreOptions {
  clock: Clock;
  /**
   * The master's CSV text (`GET /all`, or a recording's copy), or the text with its rows
   * already read (the embedded simulator's, which need not be parsed again).
   */
  fetchCsv(signal?: AbortSignal): Promise<string | ReadMaster>;
  format: InstrumentMasterFormat;
  /** Folder of the daily cache (`instruments-<source>-YYYY-MM-DD.csv`); none: no cache. */
  cacheDir?: string | undefined;
  /**
   * Which service the master comes from ({@link instrumentMasterSourceKey}): cache files
   * carry it, and only copies of the same source are read, also as an earlier day's fallback.
   */
  source: string;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /**
   * Told the CSV text of each master put in use, whether from the cache or the service
   * (`record` saves it beside the quotes: the backtest of the day reads the master the
   * bot actually used).
   */
  onUse?: ((csv: string, status: InstrumentMasterStatus) => void) | undefined;
}

/** A master's text and what was read from it. */
export interface ReadMaster {
  text: string;
  parsed: ParsedInstrumentMaster;
}

/** `instruments-<source>-YYYY-MM-DD.csv`; the day is the capture. */
const FILE = /^instruments-([a-z0-9]+)-(\d{4}-\d{2}-\d{2})\.csv$/;

/** How long after a failed reload a lookup tries again. */
const RELOAD_RETRY_MS = 10 * 60_000;

/** The IST calendar day of `ms`, `YYYY-MM-DD`. */
const istDay = (ms: number): string => toIstIso(ms).slice(0, 10);

/** Why a master gave no instrument: its first skipped rows' reasons and the other exchanges' rows. */
function emptyMasterProblem({ skipped, otherExchanges }: ParsedInstrumentMaster): string {
  const reasons = skipped.slice(0, 3).map((r) => `line ${r.line}: ${r.reason}`);
  const parts = [
    `${skipped.length} rows skipped${reasons.length > 0 ? ` (${reasons.join('; ')})` : ''}`,
    `${otherExchanges} rows of other exchanges`,
  ];
  return `the master lists no instruments: ${parts.join(', ')}`;
}

/**
 * The instrument master, fetched once per IST day and cached in the state folder under
 * its source's key (the simulator's master is never read for the service, nor the
 * reverse): a restart the same day reads the cached file, the first load of a new day fetches again.
 * A cache that cannot be read is ignored with a warning. When the service cannot give a
 * master, the same source's newest earlier cache stands in (with a warning); without one the master
 * misses every lookup and {@link status} says why. A long-running bot reloads in the
 * background on its first lookup of a new day; the old master answers until then, and
 * if the reload fails it keeps answering (a lookup 10 minutes later tries again).
 *
 * @example
 * ```ts
 * const store = new InstrumentMasterStore({ clock, fetchCsv: (s) => client.instrumentMaster(s), format, cacheDir, logger });
 * const status = await store.load();
 * store.lookup({ exchange: 'NSE', symbol: 'SBIN-EQ' })?.token; // 3045
 * ```
 */
export class InstrumentMasterStore implements InstrumentLookup {
  private master = InstrumentMaster.empty();
  private current: InstrumentMasterStatus = { origin: 'none', day: undefined, instruments: 0 };
  private loading: Promise<InstrumentMasterStatus> | undefined;
  /** The IST day a load was last started for: one background reload per day at most. */
  private loadedFor: string | undefined;
  /** After a failed reload: when a lookup may try again (the working master answers until then). */
  private retryAt: number | undefined;

  constructor(private readonly options: InstrumentMasterStoreOptions) {}

  /** What the last load found. */
  get status(): InstrumentMasterStatus {
    return this.current;
  }

  /** Loads today's master (cache, else service, else an older cache); never throws. */
  load(signal?: AbortSignal): Promise<InstrumentMasterStatus> {
    this.loading ??= this.doLoad(signal).finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  lookup(query: { exchange: Exchange; symbol: string }): Instrument | undefined {
    this.reloadOnNewDay();
    return this.master.lookup(query);
  }

  byToken(token: number, exchange?: Exchange): Instrument | undefined {
    this.reloadOnNewDay();
    return this.master.byToken(token, exchange);
  }

  private reloadOnNewDay(): void {
    if (this.loadedFor === undefined || this.loading !== undefined) return;
    const now = this.options.clock.now();
    const retry = this.retryAt !== undefined && now >= this.retryAt;
    if (retry || istDay(now) !== this.loadedFor) void this.load();
  }

  private async doLoad(signal: AbortSignal | undefined): Promise<InstrumentMasterStatus> {
    const { cacheDir, logger } = this.options;
    const day = istDay(this.options.clock.now());
    this.loadedFor = day;
    this.retryAt = undefined;
    const cached = cacheDir === undefined ? undefined : await this.readCache(cacheDir, day);
    if (cached !== undefined) return this.use(cached, { origin: 'cache', day });
    let problem: string;
    try {
      const fetched = await this.options.fetchCsv(signal);
      const { text, parsed } =
        typeof fetched === 'string' ? { text: fetched, parsed: this.parse(fetched) } : fetched;
      if (parsed.instruments.length === 0) throw new Error(emptyMasterProblem(parsed));
      if (cacheDir !== undefined) await this.writeCache(cacheDir, day, text);
      return this.use({ text, parsed }, { origin: 'service', day });
    } catch (err) {
      problem = errorMessage(err);
    }
    if (this.current.origin !== 'none') return this.keepWorking(problem);
    const stale = cacheDir === undefined ? undefined : await this.newestEarlier(cacheDir, day);
    if (stale !== undefined) {
      logger.warn(
        { problem, cachedDay: stale.day },
        "instrument master: the service's could not be had; using an earlier day's copy (new contracts are missing)",
      );
      return this.use(stale, { origin: 'stale-cache', day: stale.day, problem });
    }
    logger.error(
      { problem },
      'instrument master: none could be loaded; ctx.instruments misses every lookup',
    );
    this.master = InstrumentMaster.empty();
    this.current = { origin: 'none', day: undefined, instruments: 0, problem };
    return this.current;
  }

  /**
   * A reload failed while a master is in use: yesterday's master is better than none, so
   * it stays (its status names the problem) and a lookup tries again after a while.
   */
  private keepWorking(problem: string): InstrumentMasterStatus {
    this.retryAt = this.options.clock.now() + RELOAD_RETRY_MS;
    this.current = { ...this.current, problem };
    this.options.logger.warn(
      { problem, day: this.current.day, retryInMs: RELOAD_RETRY_MS },
      'instrument master: reload failed; the master in use stays (new contracts are missing)',
    );
    return this.current;
  }

  private use(
    { text, parsed }: ReadMaster,
    status: Omit<InstrumentMasterStatus, 'instruments'>,
  ): InstrumentMasterStatus {
    this.master = new InstrumentMaster(parsed.instruments);
    this.current = { ...status, instruments: this.master.size };
    this.options.onUse?.(text, this.current);
    const { skipped } = parsed;
    if (skipped.length > 0) {
      this.options.logger.warn(
        { skipped: skipped.length, first: skipped.slice(0, 5) },
        'instrument master: rows skipped',
      );
    }
    this.options.logger.info(
      { ...this.current, sharedTokens: this.master.sharedTokens },
      'instrument master loaded',
    );
    return this.current;
  }

  private parse(text: string): ParsedInstrumentMaster {
    return parseInstrumentMaster(text, this.options.format);
  }

  private fileOf(dir: string, day: string): string {
    return join(dir, `instruments-${this.options.source}-${day}.csv`);
  }

  /** The cached copy of `day` from this source, if there is a readable one. */
  private async readCache(dir: string, day: string): Promise<ReadMaster | undefined> {
    const path = this.fileOf(dir, day);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      return undefined;
    }
    try {
      const parsed = this.parse(text);
      if (parsed.instruments.length === 0) throw new Error('no instruments in it');
      return { text, parsed };
    } catch (err) {
      this.options.logger.warn(
        { path, problem: errorMessage(err) },
        'instrument master: cached copy is unreadable; ignored, fetching again',
      );
      return undefined;
    }
  }

  /** The newest readable copy of an earlier day. */
  private async newestEarlier(
    dir: string,
    day: string,
  ): Promise<(ReadMaster & { day: string }) | undefined> {
    const days = (await readdir(dir).catch(() => []))
      .map((f) => FILE.exec(f))
      .filter((m) => m?.[1] === this.options.source)
      .map((m) => m?.[2])
      .filter((d): d is string => d !== undefined && d < day)
      .sort()
      .reverse();
    for (const d of days) {
      const read = await this.readCache(dir, d);
      if (read !== undefined) return { ...read, day: d };
    }
    return undefined;
  }

  /** Writes today's copy atomically and drops earlier days' copies (today's is tomorrow's fallback). */
  private async writeCache(dir: string, day: string, text: string): Promise<void> {
    try {
      await mkdir(dir, { recursive: true });
      const path = this.fileOf(dir, day);
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, text);
      await rename(tmp, path);
      const source = this.options.source;
      // Only this source's earlier copies: another source's are its own fallback.
      const older = (await readdir(dir)).filter((f) => {
        const m = FILE.exec(f);
        return m?.[1] === source && (m[2] ?? '') < day;
      });
      for (const f of older) await rm(join(dir, f), { force: true });
    } catch (err) {
      // A bot without a cache still has its master; the next restart fetches again.
      this.options.logger.warn(
        { problem: errorMessage(err) },
        'instrument master: cache not written',
      );
    }
  }
}
