import { Command, CommanderError } from 'commander';
import { backtestCommand } from './commands/backtest.ts';
import { calendarCommand } from './commands/calendar.ts';
import { ordersCommand, positionsCommand } from './commands/journal-commands.ts';
import { newStrategyCommand } from './commands/new-strategy.ts';
import { recordCommand } from './commands/record.ts';
import { runCommand } from './commands/run.ts';
import { simCommand } from './commands/sim.ts';
import { validateCommand } from './commands/validate.ts';
import { EXIT } from './exit-codes.ts';

/**
 * Builds the `tiqs-runner` program. Each command lives in `commands/<name>.ts` and
 * exports a factory returning a commander `Command`.
 */
export function buildProgram(): Command {
  const program = new Command('tiqs-runner')
    .description('Run algorithmic trading strategies against the Tiqs trading API')
    .showHelpAfterError()
    .exitOverride();
  for (const command of [
    runCommand(),
    simCommand(),
    calendarCommand(),
    validateCommand(),
    newStrategyCommand(),
    ordersCommand(),
    positionsCommand(),
    recordCommand(),
    backtestCommand(),
  ]) {
    // addCommand does not pass exitOverride and help settings down; copy them.
    program.addCommand(command.copyInheritedSettings(program));
  }
  return program;
}

/** Runs the CLI with `argv` (as `process.argv`) and resolves to the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version')
        return EXIT.ok;
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`tiqs-runner: ${message}\n`);
    return EXIT.failure;
  }
}
