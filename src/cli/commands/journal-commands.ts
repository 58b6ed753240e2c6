import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Command } from 'commander';
import { ConfigError } from '../../config/config-error.ts';
import { loadConfig } from '../../config/load-config.ts';
import { formatRupees } from '../../domain/money.ts';
import { PositionBook } from '../../execution/position-book.ts';
import { SqliteJournal } from '../../execution/sqlite-journal.ts';
import { EXIT } from '../exit-codes.ts';

/** Opens the journal a config writes to (live or paper), or says why it can't. */
async function openJournal(configFile: string): Promise<SqliteJournal | undefined> {
  try {
    const config = await loadConfig(configFile);
    const stateDir = resolve(resolve(dirname(resolve(configFile)), '..'), config.state.dir);
    const path = join(stateDir, config.mode === 'live' ? 'journal.sqlite' : 'paper-journal.sqlite');
    if (!existsSync(path)) {
      process.stderr.write(`no journal at ${path}: the bot has not run with this config yet\n`);
      process.exitCode = EXIT.unavailable;
      return undefined;
    }
    return new SqliteJournal(path);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = EXIT.config;
      return undefined;
    }
    throw err;
  }
}

/** `tiqs-runner orders --config F`: every order in the journal with its state. */
export function ordersCommand(): Command {
  return new Command('orders')
    .description('Print the orders recorded in the journal of a config')
    .requiredOption('-c, --config <file>', 'YAML config file')
    .option('--json', 'print JSON')
    .action(async (opts: { config: string; json?: boolean }) => {
      const journal = await openJournal(opts.config);
      if (journal === undefined) return;
      const rows = journal.load().orders.map((o) => ({
        strategy: o.strategyId,
        intent: o.intentId,
        tag: o.tag,
        orderId: o.orderId ?? '',
        symbol: o.intent.instrument.symbol,
        side: o.intent.side,
        quantity: o.quantity,
        filled: o.filledQuantity,
        type: o.intent.orderType,
        price: o.intent.price === undefined ? '' : formatRupees(o.intent.price),
        status: o.status,
      }));
      journal.close();
      if (opts.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      else if (rows.length === 0) process.stdout.write('no orders\n');
      else console.table(rows);
    });
}

/** `tiqs-runner positions --config F`: positions rebuilt from the journal's fills. */
export function positionsCommand(): Command {
  return new Command('positions')
    .description('Print positions and realised PnL rebuilt from the journal of a config')
    .requiredOption('-c, --config <file>', 'YAML config file')
    .option('--json', 'print JSON')
    .action(async (opts: { config: string; json?: boolean }) => {
      const journal = await openJournal(opts.config);
      if (journal === undefined) return;
      const book = new PositionBook();
      for (const f of journal.load().fills)
        book.applyFill(f.strategyId, f.token, f.symbol, f.side, f.quantity, f.price);
      journal.close();
      const rows = book.positions().map((p) => ({
        strategy: p.strategyId,
        symbol: p.symbol,
        token: p.token,
        net: p.netQuantity,
        average: formatRupees(p.averagePrice),
        realised: formatRupees(p.realised),
        lastFill: formatRupees(p.lastPrice),
      }));
      if (opts.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      else if (rows.length === 0) process.stdout.write('no positions\n');
      else console.table(rows);
    });
}
