import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { CANDLE_INTERVALS, type CandleInterval } from '../../domain/candle.ts';
import { formatInr } from '../../domain/money.ts';
import { EXCHANGES, type Exchange } from '../../domain/order-params.ts';
import { CandleImportError } from '../../recording/candle-import-error.ts';
import type { PriceUnits } from '../../recording/candle-import-fields.ts';
import { CandleRecordingMismatch } from '../../recording/candle-recording-mismatch.ts';
import { importCandles } from '../../recording/import-candles.ts';
import { RecordingError } from '../../recording/recording-error.ts';
import { EXIT } from '../exit-codes.ts';

interface ImportFlags {
  csv: string;
  token: number;
  exchange: Exchange;
  symbol: string;
  interval: CandleInterval;
  out: string;
  units: PriceUnits;
  tickSize?: number;
  lotSize?: number;
  holidays?: string;
}

function positive(name: string) {
  return (text: string): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n <= 0)
      throw new InvalidArgumentError(`${name} must be a positive integer`);
    return n;
  };
}

/**
 * `tiqs-runner import-candles --csv FILE --token N --exchange NSE --symbol S --interval 1m
 * --out DIR`: a vendor candle file (`timestamp,open,high,low,close,volume[,oi]`) into a
 * candle recording; a second token into the same DIR is added beside the first.
 */
export function importCandlesCommand(): Command {
  return new Command('import-candles')
    .description(
      'Import a candle CSV file (timestamp,open,high,low,close,volume[,oi]) into a recording',
    )
    .requiredOption('--csv <file>', 'the candle file; naive timestamps are IST')
    .requiredOption('--token <n>', 'instrument token', positive('--token'))
    .addOption(
      new Option('--exchange <exchange>', 'exchange').choices([...EXCHANGES]).makeOptionMandatory(),
    )
    .requiredOption('--symbol <symbol>', 'trading symbol, e.g. SBIN-EQ')
    .addOption(
      new Option('--interval <interval>', 'bar interval')
        .choices([...CANDLE_INTERVALS])
        .makeOptionMandatory(),
    )
    .requiredOption('-o, --out <dir>', 'recording folder, e.g. backtests/data/NAME')
    .addOption(
      new Option('--units <units>', 'price units of the file')
        .choices(['rupees', 'paise'])
        .default('rupees'),
    )
    .option('--tick-size <paise>', 'tick size in paise (default 5)', positive('--tick-size'))
    .option('--lot-size <n>', 'lot size (default 1)', positive('--lot-size'))
    .option(
      '--holidays <file>',
      "holidays JSON in the service's shape (default: derived from the data)",
    )
    .action(async (flags: ImportFlags) => {
      try {
        const r = await importCandles({
          csv: flags.csv,
          out: resolve(flags.out),
          token: flags.token,
          exchange: flags.exchange,
          symbol: flags.symbol,
          interval: flags.interval,
          units: flags.units,
          ...(flags.tickSize === undefined ? {} : { tickSize: flags.tickSize }),
          ...(flags.lotSize === undefined ? {} : { lotSize: flags.lotSize }),
          ...(flags.holidays === undefined ? {} : { holidaysFile: flags.holidays }),
        });
        const tokens = r.meta.instruments.map((i) => `${i.token} ${i.symbol}`).join(', ');
        process.stdout.write(
          `import-candles: ${r.bars} ${flags.interval} bars of ${flags.token} (${flags.symbol}), ${r.from}..${r.to}, close ${formatInr(r.firstClose)} → ${formatInr(r.lastClose)}, into ${flags.out} (now ${tokens}; ${r.meta.bars} bars)${r.derivedHolidays ? '; holidays derived from the data (a weekday without bars is a holiday)' : ''}\n`,
        );
        for (const w of r.warnings) process.stderr.write(`import-candles: WARNING: ${w}\n`);
        process.exitCode = EXIT.ok;
      } catch (err) {
        const input = err instanceof CandleImportError || err instanceof CandleRecordingMismatch;
        if (!input && !(err instanceof RecordingError)) throw err;
        process.stderr.write(`import-candles: ${(err as Error).message}\n`);
        process.exitCode = input ? EXIT.usage : EXIT.failure;
      }
    });
}
