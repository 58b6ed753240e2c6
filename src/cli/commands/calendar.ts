import { Command } from 'commander';

/** `tiqs-runner calendar`: placeholder until the calendar lands. */
export function calendarCommand(): Command {
  return new Command('calendar').description('Show the trading calendar (work in progress)');
}
