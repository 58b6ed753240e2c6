import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_INSTRUMENT_MASTER_FORMAT,
  parseInstrumentMaster,
} from '../api/instrument-master-csv.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { InstrumentMaster } from '../market-data/instruments/instrument-master.ts';
import { INSTRUMENT_MASTER_FILE, Recorder } from '../recording/recorder.ts';
import { openRecordings } from '../recording/recording-set.ts';
import { SimExchange } from '../sim/sim-exchange.ts';
import { ReplaySource } from './replay-source.ts';
import { simExchangeSource } from './sim-exchange-source.ts';

const masterOf = (csv: string) =>
  new InstrumentMaster(parseInstrumentMaster(csv, DEFAULT_INSTRUMENT_MASTER_FORMAT).instruments);

describe("a backtest's instrument master", () => {
  it("is the simulator's, with a note, for the shipped sample day (recorded before masters were saved)", async () => {
    const set = await openRecordings('backtests/data/sample-day');
    const source = new ReplaySource(set, new VirtualClock(set.meta.startMs));
    const master = masterOf(await source.instrumentMaster());
    expect(source.instrumentMasterNote).toContain(`no ${INSTRUMENT_MASTER_FILE}`);
    expect(master.lookup({ exchange: 'NSE', symbol: 'SBIN-EQ' })?.token).toBe(3045);
    // The options the sample day quotes are the ones its master lists.
    const sim = new SimExchange({ clock: new VirtualClock(set.meta.startMs) });
    const option = sim.market.universe.optionsOf(26000)[0];
    expect(master.byToken(Number(option?.token), 'NFO')?.symbol).toBe(option?.symbol);
  });

  it('is the copy `record` saved beside the recording: the recorder writes what the source served, the replay reads it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rec-master-'));
    const clock = new VirtualClock(Date.parse('2026-01-05T04:00:00Z'));
    const recorder = Recorder.create({ dir, clock });
    const tapped = recorder.tap(simExchangeSource(new SimExchange({ clock })));
    const served = await tapped.instrumentMaster?.();
    recorder.close();
    expect(served).toBeDefined();
    expect(readFileSync(join(dir, INSTRUMENT_MASTER_FILE), 'utf8')).toBe(served);

    // A recording with its own copy: that copy, whatever the simulator would say.
    const copy = mkdtempSync(join(tmpdir(), 'rec-copy-'));
    cpSync(dir, copy, { recursive: true });
    const own = 'Exchange,Token,Symbol,LotSize,TickSize\nNSE,3045,SBIN-EQ,1,5\n';
    writeFileSync(join(copy, INSTRUMENT_MASTER_FILE), own);
    expect(existsSync(join(copy, 'meta.json'))).toBe(true);
    const source = new ReplaySource(await openRecordings(copy), clock);
    expect(await source.instrumentMaster()).toBe(own);
    expect(source.instrumentMasterNote).toBeUndefined();
  });
});
