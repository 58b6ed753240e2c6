import { Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_TABLE } from './command-table.ts';
import { buildProgram } from './main.ts';

describe('COMMAND_TABLE', () => {
  it.each(COMMAND_TABLE.map((e) => [e.name, e] as const))(
    '%s: name, help term and description match the command its module builds',
    async (_name, entry) => {
      const command = await entry.load();
      expect(command.name()).toBe(entry.name);
      expect(new Help().subcommandTerm(command)).toBe(entry.term);
      expect(command.description()).toBe(entry.description);
    },
  );

  it('the top-level help of the lazy program is that of the program built in full', async () => {
    const help = async (all: boolean) =>
      (await buildProgram(['node', 'tiqs-runner', '--help'], all)).helpInformation();
    const full = await help(true);
    expect(await help(false)).toBe(full);
    expect(full).toContain('new-strategy [options] <name>');
  });

  it('builds in full only the command invoked, also through `help <command>`', async () => {
    const options = async (...args: string[]) =>
      (await buildProgram(['node', 'tiqs-runner', ...args])).commands.map((c) => [
        c.name(),
        c.options.length > 0,
      ]);
    expect((await options('run', '--config', 'x.yaml')).filter(([, full]) => full)).toEqual([
      ['run', true],
    ]);
    expect((await options('help', 'backtest')).filter(([, full]) => full)).toEqual([
      ['backtest', true],
    ]);
    expect((await options('--help')).filter(([, full]) => full)).toEqual([]);
  });
});
