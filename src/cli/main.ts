import { Command, CommanderError } from 'commander';
import { COMMAND_TABLE } from './command-table.ts';
import { EXIT } from './exit-codes.ts';

/** The command `argv` invokes (`tiqs-runner help <name>` included), if any. */
function invokedName(argv: readonly string[]): string | undefined {
  const words = argv.slice(2).filter((a) => !a.startsWith('-'));
  return words[0] === 'help' ? words[1] : words[0];
}

/**
 * Builds the `tiqs-runner` program for `argv` (as `process.argv`). Every command of
 * {@link COMMAND_TABLE} is listed, but only the one `argv` invokes is imported and built
 * in full; the others are name and description, which is all the top-level help shows.
 * Pass `all` to build every command in full.
 */
export async function buildProgram(argv: readonly string[], all = false): Promise<Command> {
  const program = new Command('tiqs-runner')
    .description('Run algorithmic trading strategies against the Tiqs trading API')
    .showHelpAfterError()
    .exitOverride();
  const terms = new Map(COMMAND_TABLE.map((c) => [c.name, c.term]));
  program.configureHelp({ subcommandTerm: (cmd) => terms.get(cmd.name()) ?? cmd.name() });
  const invoked = invokedName(argv);
  for (const entry of COMMAND_TABLE) {
    const command =
      all || entry.name === invoked
        ? await entry.load()
        : new Command(entry.name).description(entry.description);
    // addCommand does not pass exitOverride and help settings down; copy them.
    program.addCommand(command.copyInheritedSettings(program));
  }
  return program;
}

/** Runs the CLI with `argv` (as `process.argv`) and resolves to the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    const program = await buildProgram(argv);
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
