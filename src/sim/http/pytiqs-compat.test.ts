import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import { formatRupees } from '../../domain/money.ts';
import { type RunningSimulator, startSimulator } from './start-simulator.ts';

/** Monday 5 Jan 2026, 09:30 IST. */
const MON_0930 = Date.parse('2026-01-05T04:00:00Z');
const HEADERS = { appId: 'sim-app', token: 'sim-token', 'content-type': 'application/json' };

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(): Promise<RunningSimulator> {
  sim = await startSimulator({ clock: new VirtualClock(MON_0930) });
  return sim;
}

async function call(s: RunningSimulator, method: string, path: string, body?: unknown) {
  const init: RequestInit = { method, headers: HEADERS };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await fetch(`${s.url}${path}`, init);
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** A resting cover buy 2% under the market, its stop 4% under: it stays OPEN. */
async function restingCover(s: RunningSimulator) {
  const q = await call(s, 'POST', '/info/quote/ltp', { token: 3045 });
  const ltp = (q.json.data as { ltp: number }).ltp;
  const onTick = (paise: number) => Math.floor(paise / 5) * 5;
  const price = onTick(ltp * 0.98);
  const stop = onTick(ltp * 0.96);
  const body = {
    exchange: 'NSE',
    token: '3045',
    symbol: 'SBIN-EQ',
    quantity: '5',
    disclosedQty: '0',
    product: 'I',
    transactionType: 'B',
    order: 'LMT',
    price: formatRupees(price),
    triggerPrice: '0',
    validity: 'DAY',
    tags: 'pytiqs-1',
    amo: false,
    bookLossPrice: formatRupees(stop),
  };
  const placed = await call(s, 'POST', '/order/cover', body);
  expect(placed.status).toBe(200);
  const id = (placed.json.data as { orderNo: string }).orderNo;
  return { id, body, price, stop };
}

describe('the simulator accepts what the official client (pytiqs) sends', () => {
  // Checked by restoring the engine's variety check: both tests fail with 400
  // "is a cover order, not regular".
  it('modifies a cover order at /order/regular/<id>, keeping bookLossPrice when sent empty', async () => {
    const s = await start();
    const { id, body, price, stop } = await restingCover(s);
    const { symbol: _symbol, ...modify } = body;
    const newPrice = price - 5;
    const r = await call(s, 'PATCH', `/order/regular/${id}`, {
      ...modify,
      price: formatRupees(newPrice),
      bookLossPrice: '',
      bookProfitPrice: '',
    });
    expect(r.status).toBe(200);
    const order = s.exchange.engine.order(id);
    expect(order?.params).toMatchObject({ variety: 'cover', price: newPrice, bookLossPrice: stop });
    expect(order?.status).toBe('OPEN');
  });

  it('cancels a cover order at /order/regular/<id>', async () => {
    const s = await start();
    const { id } = await restingCover(s);
    const r = await call(s, 'DELETE', `/order/regular/${id}`);
    expect(r.status).toBe(200);
    expect(s.exchange.engine.order(id)?.status).toBe('CANCELED');
  });

  it('still refuses an unknown order id with 404, whatever the path variety', async () => {
    const s = await start();
    expect((await call(s, 'DELETE', '/order/regular/999')).status).toBe(404);
    expect((await call(s, 'DELETE', '/order/cover/999')).status).toBe(404);
  });
});
