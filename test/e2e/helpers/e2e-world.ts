import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { type Child, killAll, REPO, spawnRunner } from './child-process.ts';
import { SimAdmin } from './sim-admin.ts';

/** Credentials the e2e simulator accepts at first. */
export const APP_ID = 'e2e-app';
export const TOKEN = 'e2e-token-day-1';
const ADMIN_TOKEN = 'e2e-admin';

/** Market time agreed by both processes: start + (wall − anchor) × speed. */
export interface SharedClock {
  start: string;
  speed: number;
  anchor: string;
}

/** The market instant (epoch ms) of the shared clock now. */
function marketNow(c: SharedClock): number {
  return Date.parse(c.start) + (Date.now() - Date.parse(c.anchor)) * c.speed;
}

/** Real ms until the shared clock reads `iso` (0 if past). */
export function realMsUntil(c: SharedClock, iso: string): number {
  return Math.max(0, (Date.parse(iso) - marketNow(c)) / c.speed);
}

/** A strategy fixture of test/e2e/fixtures, by file name. */
export function fixture(name: string): string {
  return resolve(REPO, 'test/e2e/fixtures', name);
}

/**
 * One e2e world: a temp dir, a simulator child and any number of bot runs, all on one
 * shared clock. {@link dispose} kills what still runs and removes the temp dir.
 */
export class E2eWorld {
  readonly dir = mkdtempSync(join(tmpdir(), 'tiqs-e2e-'));
  readonly stateDir = join(this.dir, 'state');
  sim: Child | undefined;
  admin: SimAdmin | undefined;
  readonly bots: Child[] = [];

  constructor(readonly clock: SharedClock) {}

  /** Starts `tiqs-runner sim` with the shared clock and admin routes; resolves once it listens. */
  async startSim(extra: readonly string[] = []): Promise<SimAdmin> {
    const { start, speed, anchor } = this.clock;
    const sim = spawnRunner([
      'sim',
      '--port',
      '0',
      '--seed',
      '11',
      '--start',
      start,
      '--speed',
      String(speed),
      '--anchor',
      anchor,
      '--app-id',
      APP_ID,
      '--token',
      TOKEN,
      '--admin-token',
      ADMIN_TOKEN,
      ...extra,
    ]);
    this.sim = sim;
    const line = await sim.waitForLine(
      (l) => /listening on http:\/\//.test(l),
      20_000,
      'the simulator',
    );
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0] ?? '';
    this.admin = new SimAdmin(url, ADMIN_TOKEN);
    return this.admin;
  }

  /** Writes a bot config (absolute paths) and returns its path. */
  writeConfig(config: Record<string, unknown>, name = 'bot.yaml'): string {
    const path = join(this.dir, name);
    writeFileSync(path, stringify(config));
    return path;
  }

  /** A live config against the simulator, on the shared clock, JSON logs, temp state. */
  baseConfig(
    strategies: unknown[],
    overrides: Record<string, unknown> = {},
  ): Record<string, unknown> {
    const { start, speed, anchor } = this.clock;
    const { broker, marketData, execution, logging, ...rest } = overrides as Record<
      string,
      Record<string, unknown> | undefined
    >;
    return {
      mode: 'live',
      broker: {
        baseUrl: this.admin?.url,
        appId: APP_ID,
        token: TOKEN,
        sim: { start, speed, anchor },
        ...broker,
      },
      marketData: { intervalMs: 1_000 * speed, warmupSeconds: 0, ...marketData },
      strategies,
      execution: { trackIntervalMs: 500 * speed, ...execution },
      state: { dir: this.stateDir },
      logging: { level: 'info', format: 'json', summaryIntervalSeconds: 0, ...logging },
      ...rest,
    };
  }

  /**
   * Starts a bot run in the temp dir (where SIGHUP looks for `.env`); resolves once the
   * kernel logs `bot started`, and rejects if that is later than market time `readyBy`.
   */
  async startBot(
    configPath: string,
    env: NodeJS.ProcessEnv = {},
    readyBy?: string,
  ): Promise<Child> {
    const bot = spawnRunner(['run', '--config', configPath], env, this.dir);
    this.bots.push(bot);
    await bot.waitForLine((l) => l.includes('"bot started"'), 30_000, 'the bot to start');
    // A bot that came up after the market moment its test plans around would fail the
    // test's assertions for a reason that is not the bot's: say so instead.
    const at = marketNow(this.clock);
    if (readyBy !== undefined && at > Date.parse(readyBy)) {
      throw new Error(
        `the bot was up only at market ${new Date(at).toISOString()}, after ${readyBy}: this machine started it too slowly for the shared clock's anchor`,
      );
    }
    return bot;
  }

  /** Kills every child still running and removes the temp dir. */
  async dispose(): Promise<void> {
    await killAll();
    // For a failure seen only under load: E2E_LOG_DIR keeps every bot's log for reading.
    const keep = process.env.E2E_LOG_DIR;
    if (keep !== undefined && keep !== '') {
      mkdirSync(keep, { recursive: true });
      this.bots.forEach((b, i) => {
        writeFileSync(join(keep, `${basename(this.dir)}-bot-${i}.jsonl`), b.lines.join('\n'));
      });
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
