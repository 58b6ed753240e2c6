import { Command } from 'commander';

/** `tiqs-runner sim`: placeholder until the simulator lands. */
export function simCommand(): Command {
  return new Command('sim').description('Serve the local exchange simulator (work in progress)');
}
