import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { parseConfig } from '../config/load-config.ts';
import type { MarketSource } from '../market-data/market-source.ts';
import { INSTRUMENT_MASTER_FILE, Recorder } from '../recording/recorder.ts';
import {
  InstrumentMasterUnavailableError,
  instrumentMasterFor,
  loadInstrumentMaster,
} from './instrument-master-for.ts';

const logger = pino({ level: 'silent' });
const configWith = (instruments: string) =>
  parseConfig(
    `mode: paper\nstrategies: [{ id: a, module: x.ts }]\n${instruments}`,
    'config/test.yaml',
    {},
  );

/** A source whose instrument master is missing (a service without `GET /all`). */
const noMaster = { instrumentMasterNote: undefined } as unknown as MarketSource;

describe('loadInstrumentMaster', () => {
  const clock = new VirtualClock(Date.parse('2026-01-05T04:00:00Z'));

  it('starts without a master by default: lookups miss', async () => {
    const config = configWith('');
    const store = instrumentMasterFor(
      { clock, networkClock: clock, quoteSource: noMaster },
      config,
      logger,
    );
    await loadInstrumentMaster(store, noMaster, config, logger);
    expect(store.status.origin).toBe('none');
    expect(store.status.problem).toBe('the market-data source serves no instrument master');
    expect(store.byToken(3045)).toBeUndefined();
  });

  it('refuses to start without one when instruments.required is set', async () => {
    const config = configWith('instruments:\n  required: true\n');
    const store = instrumentMasterFor(
      { clock, networkClock: clock, quoteSource: noMaster },
      config,
      logger,
    );
    await expect(loadInstrumentMaster(store, noMaster, config, logger)).rejects.toThrow(
      InstrumentMasterUnavailableError,
    );
  });

  it('reads the file with the configured column map and tick unit', async () => {
    const config = configWith(
      'instruments:\n  tickUnit: rupees\n  columns: { token: tok, symbol: tsym }\n',
    );
    const source = {
      instrumentMaster: async () => 'Exchange,tok,tsym,LotSize,TickSize\nNSE,3045,SBIN-EQ,1,0.05\n',
    } as unknown as MarketSource;
    const store = instrumentMasterFor(
      { clock, networkClock: clock, quoteSource: source },
      config,
      logger,
    );
    await loadInstrumentMaster(store, source, config, logger);
    expect(store.lookup({ exchange: 'NSE', symbol: 'SBIN-EQ' })).toEqual({
      exchange: 'NSE',
      token: 3045,
      symbol: 'SBIN-EQ',
      lotSize: 1,
      tickSize: 5,
    });
  });

  it('gives up on a service that never answers after instruments.timeoutMs (network time), and starts without', async () => {
    const config = configWith('instruments:\n  timeoutMs: 5000\n');
    const network = new VirtualClock(Date.parse('2026-01-05T04:00:00Z'));
    const hanging = {
      instrumentMaster: (signal?: AbortSignal) =>
        new Promise<string>((_resolve, reject) =>
          signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    } as unknown as MarketSource;
    const store = instrumentMasterFor(
      { clock, networkClock: network, quoteSource: hanging },
      config,
      logger,
    );
    let done = false;
    const loading = loadInstrumentMaster(store, hanging, config, logger).then(() => {
      done = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    network.advanceBy(4_999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    network.advanceBy(1);
    await loading;
    expect(store.status.origin).toBe('none');
    expect(store.status.problem).toBe(
      'no instrument master within instruments.timeoutMs (5000 ms)',
    );
  });

  it("hands `record` the master in use, also when it came from the day's cache and the source was never asked", async () => {
    const config = configWith('broker:\n  baseUrl: embedded\n');
    const stateDir = mkdtempSync(join(tmpdir(), 'master-for-state-'));
    const cached = 'Exchange,Token,Symbol,LotSize,TickSize\nNSE,3045,SBIN-EQ,1,5\n';
    writeFileSync(join(stateDir, 'instruments-embedded-2026-01-05.csv'), cached);
    const recording = mkdtempSync(join(tmpdir(), 'master-for-rec-'));
    const recorder = Recorder.create({ dir: recording, clock });
    let asked = 0;
    const source = {
      instrumentMaster: async () => {
        asked += 1;
        return 'Exchange,Token,Symbol,LotSize,TickSize\nNSE,1,OTHER-EQ,1,5\n';
      },
    } as unknown as MarketSource;
    const quoteSource = recorder.tap(source);
    const store = instrumentMasterFor(
      { clock, networkClock: clock, quoteSource, stateDir, recorder },
      config,
      logger,
    );
    await loadInstrumentMaster(store, quoteSource, config, logger);
    expect(store.status.origin).toBe('cache');
    expect(asked).toBe(0);
    expect(readFileSync(join(recording, INSTRUMENT_MASTER_FILE), 'utf8')).toBe(cached);
    recorder.close();
  });
});
