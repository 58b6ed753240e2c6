import { basename, dirname, extname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../config/config-error.ts';
import { type RunnerConfig, runnerConfigSchema } from '../config/config-schema.ts';
import { parseConfigWith, readConfigText } from '../config/load-config.ts';
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
    /**
     * Recording folder, relative to the spec's folder; or a folder of recording folders
     * (one per day, say), replayed one after the other in time across the days between.
     * Either way the records are streamed, not loaded whole.
     */
    data: z.string().min(1),
    /** Replay window; default the whole recording. */
    from: instant.optional(),
    to: instant.optional(),
    /** Starting capital in rupees: the base of returns and of the equity curve. */
    capital: z.number().positive().default(1_000_000),
    /** Report folder, relative to the spec's folder; default `out/<spec name>` there. */
    out: z.string().min(1).optional(),
    /** Equity curve sampling step, virtual seconds. */
    equityIntervalSeconds: z.number().int().min(1).default(60),
    /**
     * Log level of the replayed bot (its intents and fills are in the report anyway). A
     * `logging.level` written in the spec wins over it; the parsed spec holds the winner here.
     */
    logLevel: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('warn'),
    costs: costOverridesSchema.default({}),
    /** Token bought and held on the report's equity chart; default the first traded. */
    benchmark: z.number().int().positive().optional(),
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
      .strict()
      .optional(),
  })
  .strict();

/** The `backtest` section of a spec. */
type BacktestSection = z.infer<typeof backtestSectionSchema>;

/** A whole spec file: a runner config (mode `paper`, implied) plus `backtest:`. */
const backtestSpecSchema = runnerConfigSchema.extend({
  mode: z
    .literal('paper', { error: 'a backtest runs in mode paper (simulated fills); omit mode' })
    .default('paper'),
  backtest: backtestSectionSchema,
});

/** A loaded backtest spec. */
export interface BacktestSpec {
  /** Path of the spec file. */
  readonly file: string;
  /** Spec name: the file name without extension. */
  readonly name: string;
  /**
   * The spec's own folder, against which its relative paths resolve (like any config's).
   * Every path in `config` and `backtest` is already absolute.
   */
  readonly projectDir: string;
  readonly config: RunnerConfig;
  readonly backtest: BacktestSection;
}

/**
 * Parses a backtest spec: a runner config (mode `paper` implied) with a `backtest:`
 * section. Errors are {@link ConfigError}s naming the file and field path. Paths are
 * made absolute against the spec's folder; `backtest.out` defaults to `out/<spec name>`
 * there.
 */
export function parseBacktestSpec(
  text: string,
  file: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): BacktestSpec {
  const { backtest, ...config } = parseConfigWith(backtestSpecSchema, text, file, env);
  const ids = new Set(config.strategies.map((s) => s.id));
  for (const key of Object.keys(backtest.sweep?.params ?? {})) {
    const id = key.split('.')[0] ?? '';
    if (!ids.has(id)) {
      throw new ConfigError(file, [
        { path: `backtest.sweep.params.${key}`, message: `no strategy with id "${id}"` },
      ]);
    }
  }
  const name = basename(file, extname(file));
  const folder = dirname(resolve(file));
  // The runner config's `logging.level` defaults to info, which a backtest must not take
  // for a choice: only one the spec writes wins over `backtest.logLevel` (default warn).
  const written = (parse(text) as { logging?: { level?: unknown } } | null)?.logging?.level;
  return {
    file,
    name,
    projectDir: folder,
    config,
    backtest: {
      ...backtest,
      logLevel: written === undefined ? backtest.logLevel : config.logging.level,
      data: resolve(folder, backtest.data),
      out: resolve(folder, backtest.out ?? join('out', name)),
    },
  };
}

/** Reads and parses a backtest spec file. */
export async function loadBacktestSpec(file: string): Promise<BacktestSpec> {
  return parseBacktestSpec(await readConfigText(file), file);
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
