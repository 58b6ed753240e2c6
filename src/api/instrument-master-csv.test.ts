import { describe, expect, it } from 'vitest';
import {
  DEFAULT_INSTRUMENT_MASTER_FORMAT,
  InstrumentMasterFormatError,
  parseInstrumentMaster,
} from './instrument-master-csv.ts';

const HEADER =
  'Exchange,Token,Symbol,Name,Segment,Expiry,OptionType,StrikePrice,LotSize,TickSize,PricePrecision,Multiplier,PriceMultiplier';

const FILE = [
  HEADER,
  'NSE,3045,SBIN-EQ,STATE BANK OF INDIA,EQ,,,0,1,5,2,1,1.0',
  'NFO,40000,NIFTY27JAN26C25800,NIFTY,OPTIDX,27-JAN-2026,CE,25800.00,65,5,2,1,1.0',
  'MCX,1,GOLD,GOLD,FUT,,,0,1,100,2,1,1.0',
  '"NSE",2885,"RELIANCE-EQ","RELIANCE, INDUSTRIES",EQ,,,,1,5,2,1,1.0',
].join('\n');

describe('parseInstrumentMaster', () => {
  it('reads a good file by header name: paise ticks, rupee strikes in paise, derivatives terms', () => {
    const parsed = parseInstrumentMaster(FILE, DEFAULT_INSTRUMENT_MASTER_FORMAT);
    expect(parsed.skipped).toEqual([]);
    expect(parsed.otherExchanges).toBe(1);
    expect(parsed.instruments).toEqual([
      {
        exchange: 'NSE',
        token: 3045,
        symbol: 'SBIN-EQ',
        lotSize: 1,
        tickSize: 5,
        pricePrecision: 2,
      },
      {
        exchange: 'NFO',
        token: 40000,
        symbol: 'NIFTY27JAN26C25800',
        lotSize: 65,
        tickSize: 5,
        pricePrecision: 2,
        expiry: '27-JAN-2026',
        optionType: 'CE',
        strike: 2_580_000,
      },
      {
        exchange: 'NSE',
        token: 2885,
        symbol: 'RELIANCE-EQ',
        lotSize: 1,
        tickSize: 5,
        pricePrecision: 2,
      },
    ]);
  });

  it('follows a column map and a rupee tick unit', () => {
    const text = 'exch,tok,tsym,ls,ts\nNSE,3045,SBIN-EQ,1,0.05\n';
    const format = {
      ...DEFAULT_INSTRUMENT_MASTER_FORMAT,
      tickUnit: 'rupees' as const,
      columns: {
        ...DEFAULT_INSTRUMENT_MASTER_FORMAT.columns,
        exchange: 'exch',
        token: 'tok',
        symbol: 'tsym',
        lotSize: 'ls',
        tickSize: 'ts',
      },
    };
    expect(parseInstrumentMaster(text, format).instruments).toEqual([
      { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ', lotSize: 1, tickSize: 5 },
    ]);
  });

  it('refuses unknown headers, listing the headers it saw and the missing columns', () => {
    const text = 'exch,tok,tsym,LotSize,TickSize\nNSE,3045,SBIN-EQ,1,5\n';
    let caught: unknown;
    try {
      parseInstrumentMaster(text, DEFAULT_INSTRUMENT_MASTER_FORMAT);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InstrumentMasterFormatError);
    const err = caught as InstrumentMasterFormatError;
    expect(err.headers).toEqual(['exch', 'tok', 'tsym', 'LotSize', 'TickSize']);
    expect(err.message).toContain('headers seen: exch, tok, tsym, LotSize, TickSize');
    expect(err.message).toContain('exchange ("Exchange"), token ("Token"), symbol ("Symbol")');
    expect(err.message).toContain('instruments.columns');
  });

  it('refuses text that is not CSV', () => {
    expect(() =>
      parseInstrumentMaster('Exchange,Token\n"NSE,3045\n', DEFAULT_INSTRUMENT_MASTER_FORMAT),
    ).toThrow(InstrumentMasterFormatError);
  });

  it('skips a bad row and names its line, counting empty lines; the others still count', () => {
    const text = [
      HEADER,
      'NSE,3045,SBIN-EQ,SBI,EQ,,,0,1,5,2,1,1.0',
      '',
      'NSE,abc,INFY-EQ,INFOSYS,EQ,,,0,1,5,2,1,1.0',
      'NSE,1594,INFY-EQ,INFOSYS,EQ,,,0,0,5,2,1,1.0',
      'NSE,11536,TCS-EQ,TCS,EQ,,,0,1,0.05,2,1,1.0',
    ].join('\n');
    const parsed = parseInstrumentMaster(text, DEFAULT_INSTRUMENT_MASTER_FORMAT);
    expect(parsed.instruments.map((i) => i.token)).toEqual([3045]);
    expect(parsed.skipped).toEqual([
      { line: 4, reason: 'token "abc" is not a positive integer' },
      { line: 5, reason: 'lot size "0" is not a positive integer' },
      {
        line: 6,
        reason:
          'tick size "0.05" is not a positive whole number of paise (instruments.tickUnit is paise)',
      },
    ]);
  });
});
