import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Each door is imported by the package's own name, so these tests go through package.json
// "exports" exactly as a user's code would: a door missing from "exports", or a name
// dropped from a door, fails here.

/** The names `src/index.ts` exports, read from its syntax (types included). */
function exportedNames(file: string): { names: string[]; star: number } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
  const names: string[] = [];
  let star = 0;
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const clause = statement.exportClause;
    if (clause === undefined || ts.isNamespaceExport(clause)) star += 1;
    else for (const element of clause.elements) names.push(element.name.text);
  }
  return { names, star };
}

describe('the strategy door, tiqs-runner', () => {
  it('holds what a strategy file and its test need', async () => {
    const door = await import('tiqs-runner');
    for (const name of [
      'defineStrategy',
      'z',
      'createTestContext',
      'TradingCalendar',
      'roundToTick',
      'formatRupees',
      'parseRupees',
      'atmStrike',
      'pickByOffset',
      'pickByDelta',
      'selectExpiry',
      'MoneyFormatError',
    ]) {
      expect(door, name).toHaveProperty(name);
    }
  });

  it('names about 60 exports (at most 65), one by one, with no export *', () => {
    const { names, star } = exportedNames('src/index.ts');
    expect(star).toBe(0);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThan(20);
    // Issue 12: "at most about 60 names"; the strategy API v2 (issue 14) added the types an
    // author writes: Candle, CandleInterval, OpenOrder, TargetRequest, BracketIntent.
    expect(names.length).toBeLessThanOrEqual(65);
  });

  it('keeps the runtime, client, simulator and backtest out of it', async () => {
    const door = await import('tiqs-runner');
    for (const name of ['Kernel', 'TiqsClient', 'SimExchange', 'runBacktest', 'ExecutionEngine']) {
      expect(door, name).not.toHaveProperty(name);
    }
  });
});

describe('the subpath doors', () => {
  it('tiqs-runner/runtime holds the kernel, config, engine, journal and bus', async () => {
    const door = await import('tiqs-runner/runtime');
    for (const name of [
      'Kernel',
      'loadConfig',
      'parseConfig',
      'ConfigError',
      'ExecutionEngine',
      'MemoryJournal',
      'SqliteJournal',
      'MarketDataBus',
      'PaperBroker',
      'VirtualClock',
      'LiveClock',
      'CalendarStore',
      'createLogger',
    ]) {
      expect(door, name).toHaveProperty(name);
    }
  });

  it('tiqs-runner/client holds the client, its errors and pacing', async () => {
    const door = await import('tiqs-runner/client');
    for (const name of [
      'TiqsClient',
      'DEFAULT_BASE_URL',
      'TiqsError',
      'RefusedError',
      'RateLimitedError',
      'SessionError',
      'OutcomeUnknownError',
      'Pacer',
      'DEFAULT_RETRY',
      'EXCHANGES',
    ]) {
      expect(door, name).toHaveProperty(name);
    }
    const { TiqsError, RefusedError } = door;
    expect(RefusedError.prototype).toBeInstanceOf(TiqsError);
  });

  it('tiqs-runner/sim holds the simulator', async () => {
    const door = await import('tiqs-runner/sim');
    for (const name of ['SimExchange', 'startSimulator', 'OrderEngine', 'SimMarket', 'Prng']) {
      expect(door, name).toHaveProperty(name);
    }
  });

  it('tiqs-runner/backtest holds backtests, sweeps, reports and recording', async () => {
    const door = await import('tiqs-runner/backtest');
    for (const name of [
      'runBacktest',
      'loadBacktestSpec',
      'runSweep',
      'sweepGrid',
      'reportJson',
      'reportHtml',
      'writeReport',
      'recordSession',
      'readRecording',
      'Recorder',
    ]) {
      expect(door, name).toHaveProperty(name);
    }
  });
});
