import { APP_ID, TOKEN } from './e2e-world.ts';
import type { SimOrderView } from './sim-admin.ts';

/** Paise as the service's rupee decimal text. */
const rupees = (paise: number): string => (paise / 100).toFixed(2);

/**
 * Modifies an order at the simulator through the service's own route (`PATCH
 * /order/regular/:id`), as a trader would by hand while the bot is down: a limit order
 * at `price` (paise), the rest as it was. Rejects on any answer but 200.
 */
export async function modifyByHand(
  url: string,
  order: SimOrderView,
  price: number,
  product = 'I',
): Promise<void> {
  const res = await fetch(`${url}/order/regular/${order.id}`, {
    method: 'PATCH',
    headers: { appId: APP_ID, token: TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({
      exchange: 'NSE',
      token: String(order.token),
      quantity: String(order.quantity),
      disclosedQty: '0',
      product,
      transactionType: order.transactionType,
      order: 'LMT',
      price: rupees(price),
      triggerPrice: '0',
      validity: 'DAY',
      tags: order.tags,
      amo: false,
    }),
    signal: AbortSignal.timeout(5_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`modify ${order.id} by hand: ${res.status} ${text}`);
}
