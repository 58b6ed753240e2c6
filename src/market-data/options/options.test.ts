import { describe, expect, it } from 'vitest';
import type { OptionChainEntry } from '../../api/schemas/utilities.ts';
import { atmStrike, nearestStrike, strikeStep } from './atm-strike.ts';
import { expiryDay, nearestMonthlyExpiry, nearestWeeklyExpiry, selectExpiry } from './expiry.ts';
import { type OptionChainSource, resolveOptionChain } from './option-chain-resolver.ts';
import type { OptionContract } from './option-contract.ts';
import { pickByDelta, pickByOffset } from './pick-strike.ts';

const FRI_20_NOV = Date.parse('2026-11-20T04:00:00Z'); // 09:30 IST
const EXPIRIES = ['03-DEC-2026', '19-NOV-2026', '26-NOV-2026', '24-NOV-2026', '31-DEC-2026'];

function entry(strike: string, optionType: 'CE' | 'PE', token: number): OptionChainEntry {
  return {
    exchange: 'NFO',
    symbol: `NIFTY${strike}${optionType}`,
    token: String(token),
    optionType,
    strikePrice: strike,
    pricePrecision: '2',
    tickSize: '0.05',
    lotSize: '75',
  };
}

const STRIKES = ['24400.00', '24450.00', '24500.00', '24550.00', '24600.00'];
const ENTRIES = [
  ...STRIKES.map((s, i) => entry(s, 'CE', 100 + i)),
  ...STRIKES.map((s, i) => entry(s, 'PE', 200 + i)),
];

describe('options helpers', () => {
  it('parses expiries and picks the nearest weekly and monthly one', () => {
    expect(expiryDay('26-NOV-2026')).toBe(Date.UTC(2026, 10, 26) / 86_400_000);
    expect(expiryDay('31-NOV-2026')).toBeUndefined();
    expect(nearestWeeklyExpiry(EXPIRIES, FRI_20_NOV)).toBe('24-NOV-2026');
    expect(nearestMonthlyExpiry(EXPIRIES, FRI_20_NOV)).toBe('26-NOV-2026');
    // On expiry day itself (IST), that expiry still counts.
    expect(nearestWeeklyExpiry(EXPIRIES, Date.parse('2026-11-23T20:00:00Z'))).toBe('24-NOV-2026');
    expect(nearestMonthlyExpiry(EXPIRIES, Date.parse('2026-11-27T04:00:00Z'))).toBe('31-DEC-2026');
    expect(selectExpiry(EXPIRIES, { date: '03-DEC-2026' }, FRI_20_NOV)).toBe('03-DEC-2026');
    expect(selectExpiry(EXPIRIES, { date: '04-DEC-2026' }, FRI_20_NOV)).toBeUndefined();
  });

  it('computes the ATM strike from the LTP', () => {
    expect(atmStrike(2_452_510, 5_000)).toBe(2_455_000);
    expect(atmStrike(2_452_490, 5_000)).toBe(2_450_000);
    expect(atmStrike(2_452_500, 5_000)).toBe(2_455_000);
    expect(strikeStep([2_450_000, 2_440_000, 2_445_000])).toBe(5_000);
    expect(nearestStrike([2_440_000, 2_450_000], 2_445_000)).toBe(2_450_000);
  });

  it('resolves a chain and picks strikes by offset and by delta', async () => {
    const requests: unknown[] = [];
    const source: OptionChainSource = {
      optionChainSymbols: async () => ({ NIFTY: EXPIRIES }),
      optionChain: async (req) => {
        requests.push(req);
        return ENTRIES;
      },
    };
    const clock = { now: () => FRI_20_NOV, scheduler: undefined as never };
    const r = await resolveOptionChain(source, clock, {
      underlying: 'NIFTY',
      underlyingToken: 26000,
      expiry: 'monthly',
      count: 5,
    });
    expect(requests).toEqual([
      { token: '26000', exchange: 'INDEX', count: '5', expiry: '26-NOV-2026' },
    ]);
    if (!r.ok) throw new Error(r.message);
    const { chain } = r;
    expect(chain.step).toBe(5_000);
    expect(chain.calls.map((c) => c.strike)).toEqual([
      2_440_000, 2_445_000, 2_450_000, 2_455_000, 2_460_000,
    ]);
    const all: OptionContract[] = [...chain.calls, ...chain.puts];
    expect(pickByOffset(all, 2_451_000, 'CE', 0)?.token).toBe(102);
    expect(pickByOffset(all, 2_451_000, 'CE', 2)?.token).toBe(104);
    expect(pickByOffset(all, 2_451_000, 'PE', -1)?.token).toBe(201);
    expect(pickByOffset(all, 2_451_000, 'PE', -3)).toBeUndefined();

    const deltas = [0.8, 0.65, 0.5, 0.32, 0.2];
    const withGreeks = all.map((contract, i) => ({
      contract,
      greeks: {
        iv: 0.15,
        delta: contract.optionType === 'CE' ? (deltas[i % 5] ?? 0) : (deltas[i % 5] ?? 0) - 1,
        gamma: 0,
        theta: 0,
        vega: 0,
      },
    }));
    expect(pickByDelta(withGreeks, 'CE', 0.3)?.contract.token).toBe(103);
    expect(pickByDelta(withGreeks, 'PE', -0.35)?.contract.token).toBe(201);
  });

  it('reports an unknown underlying or expiry as an outcome, not an exception', async () => {
    const source: OptionChainSource = {
      optionChainSymbols: async () => ({ NIFTY: EXPIRIES }),
      optionChain: async () => [],
    };
    const clock = { now: () => FRI_20_NOV, scheduler: undefined as never };
    const base = { underlyingToken: 26000, expiry: 'weekly' as const };
    expect(await resolveOptionChain(source, clock, { ...base, underlying: 'X' })).toMatchObject({
      ok: false,
      reason: 'unknown-underlying',
    });
    expect(
      await resolveOptionChain(source, clock, {
        ...base,
        underlying: 'NIFTY',
        expiry: { date: '01-JAN-2027' },
      }),
    ).toMatchObject({ ok: false, reason: 'no-such-expiry' });
    expect(await resolveOptionChain(source, clock, { ...base, underlying: 'NIFTY' })).toMatchObject(
      {
        ok: false,
        reason: 'empty-chain',
      },
    );
  });
});
