import type { Command } from 'commander';

/** A CLI command as the top-level help lists it, with its module loaded on demand. */
export interface CommandEntry {
  name: string;
  /** The help's left column (commander's subcommand term: name, `[options]`, arguments). */
  term: string;
  description: string;
  /** Imports the command's module and builds the full command. */
  load(): Promise<Command>;
}

/**
 * Every `tiqs-runner` command, in help order. Each lives in `commands/<name>.ts`, and
 * only the one invoked is imported: the runtime, the simulator and the backtester are
 * not loaded for `--help` or for another command. The name, term and description are
 * repeated here so the help needs no module; command-table.test.ts checks each against
 * the command its module builds.
 */
export const COMMAND_TABLE: readonly CommandEntry[] = [
  {
    name: 'run',
    term: 'run [options]',
    description: 'Run a bot from a YAML config until Ctrl-C',
    load: async () => (await import('./commands/run.ts')).runCommand(),
  },
  {
    name: 'sim',
    term: 'sim [options]',
    description: 'Serve the local exchange simulator (the Tiqs API over HTTP, seeded market)',
    load: async () => (await import('./commands/sim.ts')).simCommand(),
  },
  {
    name: 'calendar',
    term: 'calendar [options]',
    description:
      "Show whether the market is open, its phase, the day's sessions and the next open and close",
    load: async () => (await import('./commands/calendar.ts')).calendarCommand(),
  },
  {
    name: 'validate',
    term: 'validate [options]',
    description: "Check a config file and its strategies' params without running anything",
    load: async () => (await import('./commands/validate.ts')).validateCommand(),
  },
  {
    name: 'new-strategy',
    term: 'new-strategy [options] <name>',
    description: 'Scaffold a strategy plugin and its test in strategies/',
    load: async () => (await import('./commands/new-strategy.ts')).newStrategyCommand(),
  },
  {
    name: 'orders',
    term: 'orders [options]',
    description: 'Print the orders recorded in the journal of a config (no credentials needed)',
    load: async () => (await import('./commands/journal-commands.ts')).ordersCommand(),
  },
  {
    name: 'positions',
    term: 'positions [options]',
    description:
      'Print positions rebuilt from the journal of a config, marked to the last price it saw (no credentials needed)',
    load: async () => (await import('./commands/journal-commands.ts')).positionsCommand(),
  },
  {
    name: 'record',
    term: 'record [options]',
    description: 'Record polled quotes and greeks into a folder for backtests',
    load: async () => (await import('./commands/record.ts')).recordCommand(),
  },
  {
    name: 'history',
    term: 'history [options]',
    description: 'Download candles from the service into a recording for backtests (resumes)',
    load: async () => (await import('./commands/history.ts')).historyCommand(),
  },
  {
    name: 'import-candles',
    term: 'import-candles [options]',
    description:
      'Import a candle CSV file (timestamp,open,high,low,close,volume[,oi]) into a recording',
    load: async () => (await import('./commands/import-candles.ts')).importCandlesCommand(),
  },
  {
    name: 'backtest',
    term: 'backtest [options]',
    description: 'Replay recorded data through strategies; print and write the report',
    load: async () => (await import('./commands/backtest.ts')).backtestCommand(),
  },
  {
    name: 'worker',
    term: 'worker [options]',
    description: 'Run queued sweep jobs on this machine’s worker threads until stopped',
    load: async () => (await import('./commands/worker.ts')).workerCommand(),
  },
];
