import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_INSTRUMENT_MASTER_FORMAT,
  parseInstrumentMaster,
} from '../../api/instrument-master-csv.ts';
import { TiqsClient } from '../../api/tiqs-client.ts';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import { SIM_MASTER_HEADERS } from '../market/instrument-master-file.ts';
import { type RunningSimulator, startSimulator } from './start-simulator.ts';

const MON_0930 = Date.parse('2026-01-05T04:00:00Z');
const AUTH = { appId: 'sim-app', token: 'sim-token' };

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe('simulator GET /all (instrument master)', () => {
  it('serves a CSV file outside the envelope, with the documented header row', async () => {
    sim = await startSimulator({ clock: new VirtualClock(MON_0930) });
    const res = await fetch(`${sim.url}/all`, { headers: AUTH });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    const text = await res.text();
    const [header, ...rows] = text.trimEnd().split('\n');
    expect(header).toBe(SIM_MASTER_HEADERS.join(','));
    expect(header).toBe(
      'Exchange,Token,Symbol,Name,Segment,Expiry,OptionType,StrikePrice,LotSize,TickSize,PricePrecision,Multiplier,PriceMultiplier',
    );
    expect(rows).toContain('NSE,3045,SBIN-EQ,STATE BANK OF INDIA,EQ,,,0,1,5,2,1,1.0');
    expect(rows).toContain('NSE,26000,NIFTY,NIFTY 50,INDEX,,,0,1,1,2,1,1.0');
    // Every instrument the simulator quotes: 2 indexes, 6 equities, 2 × 4 expiries × 41 strikes × CE/PE.
    expect(rows.length).toBe([...sim.exchange.market.universe.all()].length);
    expect(rows.length).toBe(8 + 2 * 4 * 41 * 2);
  });

  it('asks for credentials like every route', async () => {
    sim = await startSimulator({ clock: new VirtualClock(MON_0930) });
    const res = await fetch(`${sim.url}/all`);
    expect(res.status).toBe(401);
  });

  it('reaches the client as text that parses into the quoted instruments, option terms included', async () => {
    sim = await startSimulator({ clock: new VirtualClock(MON_0930) });
    const client = new TiqsClient({ baseUrl: sim.url, ...AUTH });
    const csv = await client.instrumentMaster();
    const { instruments, skipped } = parseInstrumentMaster(csv, DEFAULT_INSTRUMENT_MASTER_FORMAT);
    expect(skipped).toEqual([]);
    const option = sim.exchange.market.universe.optionsOf(26000)[0];
    expect(option?.option).toBeDefined();
    const parsed = instruments.find((i) => i.token === option?.token);
    expect(parsed).toEqual({
      exchange: 'NFO',
      token: option?.token,
      symbol: option?.symbol,
      lotSize: 65,
      tickSize: 5,
      pricePrecision: 2,
      expiry: option?.option?.expiry,
      optionType: option?.option?.optionType,
      strike: option?.option?.strike,
    });
  });
});
