import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, resolve } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { zodPath } from '../api/zod-path.ts';
import { ConfigError } from '../config/config-error.ts';
import type { RunnerConfig } from '../config/config-schema.ts';
import { parseConfig } from '../config/load-config.ts';
import { costOverridesSchema } from './cost-model.ts';

/** Metrics a sweep can rank by (higher is better, except drawdown, ranked lowest first). */
export const RANK_METRICS = [
  'netPnl',
  'sharpe',
  'returnPercent',
  'winRate',
  'maxDrawdown',
  'profitFactor',
] as const;
/** A metric a sweep can rank by. */
export type RankMetric = (typeof RANK_METRICS)[number];

const instant = z.iso.datetime({ offset: true });

/** The `backtest` section of a spec; the rest of the file is an ordinary runner config. */
export const backtestSectionSchema = z
  .object({
    /** Recording folder, relative to the project folder. */
    data: z.string().min(1),
    /** Replay window; default the whole recording. */
    from: instant.optional(),
    to: instant.optional(),
    /** Starting capital in rupees: the base of returns and of the equity curve. */
    capital: z.number().positive().default(1_000_000),
    /** Report folder, relative to the project folder; default `backtests/out/<spec name>`. */
    out: z.string().min(1).optional(),
    /** Equity curve sampling step, virtual seconds. */
    equityIntervalSeconds: z.number().int().min(1).default(60),
    /** Log level of the replayed bot (its intents and fills are in the report anyway). */
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'silent']).default('warn'),
    costs: costOverridesSchema.default({}),
    sweep: z
      .object({
        /** `<strategy id>.<param>` → values to try; the grid is every combination. */
        params: z.record(
          z.string().regex(/^[a-z0-9][a-z0-9-]*\.[A-Za-z0-9_]+$/, 'expected <strategy id>.<param>'),
          z.array(z.union([z.number(), z.string(), z.boolean()])).min(1),
        ),
        rankBy: z.enum(RANK_METRICS).default('sharpe'),
        /** Worker threads; default one per core. */
        workers: z.number().int().positive().optional(),
      })
      .optional(),
  })
  .strict();

/** The `backtest` section of a spec. */
export type BacktestSection = z.infer<typeof backtestSectionSchema>;

/** A loaded backtest spec. */
export interface BacktestSpec {
  /** Path of the spec file. */
  readonly file: string;
  /** Spec name: the file name without extension. */
  readonly name: string;
  /** Project folder: the spec folder's parent, against which paths resolve. */
  readonly projectDir: string;
  readonly config: RunnerConfig;
  readonly backtest: BacktestSection;
}

/**
 * Parses a backtest spec: a runner config (mode `paper` implied) with a `backtest:`
 * section. Errors are {@link ConfigError}s naming the file and field path.
 */
export function parseBacktestSpec(
  text: string,
  file: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): BacktestSpec {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (err) {
    throw new ConfigError(file, [{ path: '', message: 'YAML syntax error' }], { cause: err });
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError(file, [{ path: '', message: 'expected a YAML mapping' }]);
  }
  const doc = raw as Record<string, unknown>;
  if (doc.mode !== undefined && doc.mode !== 'paper') {
    throw new ConfigError(file, [
      { path: 'mode', message: 'a backtest runs in mode paper (simulated fills); omit mode' },
    ]);
  }
  // The runner config parser knows nothing of `backtest:` (zod drops unknown keys).
  const config = parseConfig(`mode: paper\n${text.replace(/^mode:.*$/m, '')}`, file, env);
  const section = backtestSectionSchema.safeParse(doc.backtest);
  if (!section.success) {
    throw new ConfigError(
      file,
      section.error.issues.map((i) => ({
        path: zodPath('backtest', i.path),
        message: i.message,
      })),
    );
  }
  const ids = new Set(config.strategies.map((s) => s.id));
  for (const key of Object.keys(section.data.sweep?.params ?? {})) {
    const id = key.split('.')[0] ?? '';
    if (!ids.has(id)) {
      throw new ConfigError(file, [
        { path: `backtest.sweep.params.${key}`, message: `no strategy with id "${id}"` },
      ]);
    }
  }
  return {
    file,
    name: basename(file, extname(file)),
    projectDir: resolve(dirname(resolve(file)), '..'),
    config,
    backtest: section.data,
  };
}

/** Reads and parses a backtest spec file. */
export async function loadBacktestSpec(file: string): Promise<BacktestSpec> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(file, [{ path: '', message: 'file not found or unreadable' }], {
      cause: err,
    });
  }
  return parseBacktestSpec(text, file);
}

/** `<strategy id>.<param>` → value. */
export type ParamOverrides = Readonly<Record<string, number | string | boolean>>;

/** The spec's config with strategy params overridden (a sweep point). */
export function withParams(config: RunnerConfig, overrides: ParamOverrides): RunnerConfig {
  return {
    ...config,
    strategies: config.strategies.map((s) => {
      const params = { ...s.params };
      for (const [key, value] of Object.entries(overrides)) {
        const [id, param] = key.split('.');
        if (id === s.id && param !== undefined) params[param] = value;
      }
      return { ...s, params };
    }),
  };
}
