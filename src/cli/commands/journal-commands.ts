import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { ConfigError } from '../../config/config-error.ts';
import { loadJournalConfig } from '../../config/load-journal-config.ts';
import { formatInr, parseRupees } from '../../domain/money.ts';
import { JournalReader } from '../../execution/journal-reader.ts';
import { alignedTable, type TableColumn } from '../../logging/aligned-table.ts';
import { readLastPrices } from '../../runtime/last-prices.ts';
import { EXIT } from '../exit-codes.ts';
import {
  istDateTime,
  type OrderRow,
  orderRows,
  type PositionRow,
  positionRows,
} from '../journal-rows.ts';

/**
 * Opens the journal a config writes to (live or paper) read-only, or says why it can't.
 * Reads only `mode` and `state.dir`: no credentials needed (see `loadJournalConfig`). A
 * reader never writes into a live bot's journal (no fold of its pre-send log, no write
 * transaction its next placement could wait on): the log's rows are merged in memory.
 */
async function openJournal(configFile: string): Promise<JournalReader | undefined> {
  try {
    const { journalPath } = await loadJournalConfig(configFile);
    if (!existsSync(journalPath)) {
      process.stderr.write(
        `no journal at ${journalPath}: the bot has not run with this config yet\n`,
      );
      process.exitCode = EXIT.unavailable;
      return undefined;
    }
    return new JournalReader(journalPath);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = EXIT.config;
      return undefined;
    }
    throw err;
  }
}

/** Rupee text (`"1234.50"`, '' for none) for people: `₹1,234.50`. */
const inr = (text: string): string => (text === '' ? '' : formatInr(parseRupees(text)));
const sideWord = (side: 'B' | 'S'): string => (side === 'B' ? 'BUY' : 'SELL');

const ORDER_COLUMNS: readonly TableColumn[] = [
  { header: 'placed (IST)' },
  { header: 'strategy' },
  { header: 'side' },
  { header: 'qty', align: 'right' },
  { header: 'symbol' },
  { header: 'type' },
  { header: 'price', align: 'right' },
  { header: 'trigger', align: 'right' },
  { header: 'filled', align: 'right' },
  { header: 'avg fill', align: 'right' },
  { header: 'status' },
  { header: 'order id' },
  { header: 'intent' },
];

/** The orders as an aligned table, one line an order, money in ₹ with Indian grouping. */
function ordersTable(rows: readonly OrderRow[]): string {
  return alignedTable(
    ORDER_COLUMNS,
    rows.map((r) => [
      istDateTime(r.placedAt),
      r.strategy,
      sideWord(r.side),
      String(r.quantity),
      r.symbol,
      `${r.type} ${r.product}`,
      inr(r.price),
      inr(r.triggerPrice),
      String(r.filled),
      inr(r.averagePrice),
      r.status,
      r.orderId === '' ? '-' : r.orderId,
      r.intent,
    ]),
  );
}

const POSITION_COLUMNS: readonly TableColumn[] = [
  { header: 'strategy' },
  { header: 'symbol' },
  { header: 'net', align: 'right' },
  { header: 'average', align: 'right' },
  { header: 'last seen', align: 'right' },
  { header: 'seen at (IST)' },
  { header: 'unrealised', align: 'right' },
  { header: 'realised', align: 'right' },
];

/** The positions as an aligned table, with a total line and where the prices come from. */
function positionsTable(rows: readonly PositionRow[]): string {
  const sum = (pick: (r: PositionRow) => string): number =>
    rows.reduce((total, r) => total + parseRupees(pick(r)), 0);
  const table = alignedTable(POSITION_COLUMNS, [
    ...rows.map((r) => [
      r.strategy,
      r.symbol,
      r.net > 0 ? `+${r.net}` : String(r.net),
      r.net === 0 ? '' : inr(r.average),
      inr(r.lastSeen),
      `${istDateTime(r.lastSeenAt)}${r.lastSeenFrom === 'fill' ? ' (fill)' : ''}`,
      formatInr(parseRupees(r.unrealised)),
      formatInr(parseRupees(r.realised)),
    ]),
    [
      'total',
      '',
      '',
      '',
      '',
      '',
      formatInr(sum((r) => r.unrealised)),
      formatInr(sum((r) => r.realised)),
    ],
  ]);
  return `${table}last seen: the last quote the bot wrote to its journal, or its last fill when newer (marked fill); not a live price\n`;
}

/** `tiqs-runner orders --config F`: every order in the journal with its state. */
export function ordersCommand(): Command {
  return new Command('orders')
    .description('Print the orders recorded in the journal of a config (no credentials needed)')
    .requiredOption('-c, --config <file>', 'YAML config file')
    .option('--json', 'print JSON')
    .action(async (opts: { config: string; json?: boolean }) => {
      const journal = await openJournal(opts.config);
      if (journal === undefined) return;
      const rows = orderRows(journal.load());
      journal.close();
      if (opts.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      else if (rows.length === 0) process.stdout.write('no orders\n');
      else process.stdout.write(ordersTable(rows));
    });
}

/** `tiqs-runner positions --config F`: positions rebuilt from the journal's fills. */
export function positionsCommand(): Command {
  return new Command('positions')
    .description(
      'Print positions rebuilt from the journal of a config, marked to the last price it saw (no credentials needed)',
    )
    .requiredOption('-c, --config <file>', 'YAML config file')
    .option('--json', 'print JSON')
    .action(async (opts: { config: string; json?: boolean }) => {
      const journal = await openJournal(opts.config);
      if (journal === undefined) return;
      const rows = positionRows(journal.load(), readLastPrices(journal));
      journal.close();
      if (opts.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      else if (rows.length === 0) process.stdout.write('no positions\n');
      else process.stdout.write(positionsTable(rows));
    });
}
