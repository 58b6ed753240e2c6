import { stdSerializers } from 'pino';
import { describe, expect, it } from 'vitest';
import { PrettyLines } from './pretty-lines.ts';

const INFO = 30;
const DEBUG = 20;
/** 2026-11-20 09:31:02 IST, as the kernel's clock stamps it. */
const AT = '2026-11-20T09:31:02.000+05:30';
const SBIN = { side: 'B', quantity: 10, symbol: 'SBIN-EQ', token: 3045, orderType: 'MKT' };

function line(record: Record<string, unknown>, level = INFO, symbols?: Record<number, string>) {
  const lines = new PrettyLines({
    level,
    ...(symbols === undefined ? {} : { context: { symbolOf: (t: number) => symbols[t] } }),
  });
  lines.format(JSON.stringify({ level: INFO, marketTime: AT, msg: 'first' }));
  return lines.format(JSON.stringify({ level: INFO, marketTime: AT, ...record }));
}

function event(type: string, fields: Record<string, unknown>, order: unknown = SBIN) {
  return {
    component: 'execution',
    strategy: 'sma',
    msg: type,
    event: { type, strategyId: 'sma', intentId: 'p1', tag: 'sma-x-1', at: 0, ...fields },
    ...(order === null ? {} : { order }),
  };
}

describe('PrettyLines', () => {
  it('writes a fill as a trade, in market time (IST), rupees and the symbol', () => {
    const fill = event('OrderFilled', {
      orderId: '9000000035',
      fillId: 'f1',
      fillQuantity: 10,
      fillPrice: 79415,
      filledQuantity: 10,
      averagePrice: 79415,
      quantity: 10,
    });
    expect(line(fill)).toBe(
      '09:31:02 IST  sma  BUY 10 SBIN-EQ @ ₹794.15 filled (order 9000000035)\n',
    );
  });

  it('converts UTC market time and wall time to IST', () => {
    expect(line({ marketTime: '2026-11-20T04:01:02.000Z', msg: 'x' })).toMatch(/^09:31:02 IST /);
    const wall = Date.parse('2026-11-20T10:00:00.000+05:30');
    expect(line({ marketTime: undefined, time: wall, msg: 'x' })).toMatch(/^10:00:00 IST /);
  });

  it('starts each IST day with a line naming it', () => {
    const lines = new PrettyLines({ level: INFO });
    const at = (iso: string) => JSON.stringify({ level: INFO, marketTime: iso, msg: 'tick' });
    expect(lines.format(at('2026-11-20T15:29:00.000+05:30'))).toBe(
      '── 2026-11-20 Fri IST ──\n15:29:00 IST  -  tick\n',
    );
    expect(lines.format(at('2026-11-20T15:30:00.000+05:30'))).toBe('15:30:00 IST  -  tick\n');
    expect(lines.format(at('2026-11-23T09:15:00.000+05:30'))).toBe(
      '── 2026-11-23 Mon IST ──\n09:15:00 IST  -  tick\n',
    );
  });

  it('writes partial fills with progress and average', () => {
    const partial = event(
      'OrderPartiallyFilled',
      {
        orderId: '9',
        fillQuantity: 60,
        fillPrice: 79680,
        filledQuantity: 60,
        averagePrice: 79680,
        quantity: 100,
      },
      { ...SBIN, side: 'S', quantity: 100 },
    );
    expect(line(partial)).toBe(
      '09:31:02 IST  sma  SELL 60 SBIN-EQ @ ₹796.80 partially filled, 60/100 (order 9)\n',
    );
    const last = event(
      'OrderFilled',
      {
        orderId: '9',
        fillQuantity: 40,
        fillPrice: 79670,
        filledQuantity: 100,
        averagePrice: 79676,
        quantity: 100,
      },
      { ...SBIN, side: 'S', quantity: 100 },
    );
    expect(line(last)).toBe(
      '09:31:02 IST  sma  SELL 40 SBIN-EQ @ ₹796.70 filled, 100/100 at avg ₹796.76 (order 9)\n',
    );
  });

  it('writes rejections and denials as warnings with the reason and the order', () => {
    const lmt = { ...SBIN, orderType: 'LMT', price: 1_23_45_600 };
    const rejected = {
      level: 40,
      ...event('OrderRejected', { reason: 'no market data yet' }, lmt),
    };
    expect(line(rejected)).toBe(
      '09:31:02 IST  sma  WARN  BUY 10 SBIN-EQ LMT @ ₹1,23,456.00 rejected: no market data yet\n',
    );
    const denied = { level: 40, ...event('OrderDenied', { reason: 'max open orders' }) };
    expect(line(denied)).toBe(
      '09:31:02 IST  sma  WARN  BUY 10 SBIN-EQ MKT denied: max open orders\n',
    );
  });

  it('names the framework’s own orders: square-off, kill switch, bracket legs', () => {
    const sq = event(
      'OrderFilled',
      {
        intentId: 'auto-eod-1:3045',
        orderId: '7',
        fillQuantity: 10,
        fillPrice: 100,
        filledQuantity: 10,
        quantity: 10,
      },
      { ...SBIN, side: 'S' },
    );
    expect(line(sq)).toContain('SELL 10 SBIN-EQ @ ₹1.00 filled (order 7, square-off)');
    const leg = event(
      'OrderCancelled',
      { intentId: 'b1#2/tp', orderId: '8', filledQuantity: 0 },
      { ...SBIN, side: 'S', orderType: 'LMT', price: 80000 },
    );
    expect(line(leg)).toContain(
      'SELL 10 SBIN-EQ LMT @ ₹800.00 cancelled, 0 filled (order 8, bracket b1 target)',
    );
    const kill = event('OrderSubmitted', { intentId: 'kill-5' }, { ...SBIN, side: 'S' });
    expect(line(kill, DEBUG)).toContain('sma  SELL 10 SBIN-EQ MKT placed (kill switch)');
  });

  it('without the order (recovered from the journal) names the intent', () => {
    const fill = event(
      'OrderFilled',
      { orderId: '9', fillQuantity: 5, fillPrice: 79415, filledQuantity: 5, quantity: 5 },
      null,
    );
    expect(line(fill)).toBe('09:31:02 IST  sma  order p1 @ ₹794.15 filled (order 9)\n');
  });

  it('shows routine steps (intents, plots, placed, accepted, opened) only at debug', () => {
    for (const record of [
      { level: 20, strategy: 'sma', msg: 'plot', plot: 'fast', value: 1 },
      { strategy: 'sma', msg: 'intent', intent: { id: 'p1' } },
      event('OrderSubmitted', {}),
      event('OrderAccepted', { orderId: '9' }),
      event('OrderOpened', { orderId: '9' }),
      { level: 40, component: 'execution', msg: 'intent denied', reason: 'x' },
    ]) {
      expect(line(record)).toBe('');
      expect(line(record, DEBUG)).toMatch(/^09:31:02 IST {2}/);
    }
    expect(line(event('OrderAccepted', { orderId: '9' }), DEBUG)).toContain(
      'BUY 10 SBIN-EQ accepted (order 9)',
    );
  });

  it('writes any other record as its message and compact fields, money in rupees, tokens as symbols', () => {
    const record = {
      strategy: 'sma',
      msg: 'golden cross',
      close: 79965,
      fast: 80043.33333333333,
      token: 3045,
      other: 99,
      quote: { token: 2885, ltp: 250050 },
      err: { type: 'TypeError', message: 'boom', stack: 'long' },
    };
    expect(line(record, INFO, { 3045: 'SBIN-EQ', 2885: 'RELIANCE-EQ' })).toBe(
      '09:31:02 IST  sma  golden cross  close=₹799.65 fast=80043.33 token=SBIN-EQ other=99 quote={token: RELIANCE-EQ, ltp: ₹2,500.50} err=TypeError: boom\n',
    );
    // A backtest's wall time beside its simulated time is for machines only.
    expect(line({ component: 'kernel', msg: 'x', wallTime: 1795490757736 })).toBe(
      '09:31:02 IST  kernel  x\n',
    );
    expect(line({ component: 'candles', msg: 'cold', token: 1 }, INFO, {})).toBe(
      '09:31:02 IST  candles  cold  token=1\n',
    );
  });

  it('shows money written as rupee text with ₹, and a price map by token by symbol', () => {
    const summary = {
      component: 'summary',
      // Not the periodic summary's own messages: those print as a table (summary-lines.test.ts).
      msg: 'prices',
      ltp: { 3045: '801.90', 7: '1.5' },
    };
    expect(line(summary, INFO, { 3045: 'SBIN-EQ' })).toBe(
      '09:31:02 IST  summary  prices  ltp={7: ₹1.50, SBIN-EQ: ₹801.90}\n',
    );
    const pnl = {
      strategy: 'sma',
      msg: 'day PnL',
      realised: '-487.35',
      unrealised: '123456.00',
      averagePrice: '₹1399.05',
      openPositions: 0,
    };
    expect(line(pnl)).toBe(
      '09:31:02 IST  sma  day PnL  realised=-₹487.35 unrealised=₹1,23,456.00 averagePrice=₹1,399.05 openPositions=0\n',
    );
  });

  it('labels errors and passes a line that is not JSON through', () => {
    expect(line({ level: 50, component: 'kernel', msg: 'failed' })).toBe(
      '09:31:02 IST  kernel  ERROR  failed\n',
    );
    expect(new PrettyLines({ level: INFO }).format('not json')).toBe('not json\n');
  });

  it("prints an error's stack and its causes under an ERROR line, so a crash can be located", () => {
    const inner = new Error('socket hang up');
    const err = new TypeError("Cannot read properties of undefined (reading 'x')", {
      cause: inner,
    });
    // As pino writes it: its err serialiser appends each cause's stack (`caused by: …`).
    const record = {
      level: 50,
      strategy: 'sma',
      msg: 'strategy failed',
      err: stdSerializers.err(err),
    };
    const text = line(record);
    const [first, ...trace] = text.split('\n');
    expect(first).toBe(
      "09:31:02 IST  sma  ERROR  strategy failed  err=TypeError: Cannot read properties of undefined (reading 'x'): socket hang up",
    );
    // This file's frame (where the error was made) and the cause with its own frames.
    expect(trace[0]).toMatch(/^ {6}at .*pretty-lines\.test\.ts:\d+:\d+/);
    const caused = trace.indexOf('    caused by: Error: socket hang up');
    expect(caused).toBeGreaterThan(0);
    expect(trace[caused + 1]).toMatch(/^ {6}at .*pretty-lines\.test\.ts:\d+:\d+/);
    expect(text.endsWith('\n')).toBe(true);
    // Below ERROR the line stays one line (a warning's cause is in its message).
    expect(line({ ...record, level: 40 }).split('\n')).toHaveLength(2);
  });
});
