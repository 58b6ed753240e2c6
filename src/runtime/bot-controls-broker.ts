import type { Broker } from '../execution/broker.ts';

/** Net quantity by token as the broker's trade book shows it today. */
export interface BrokerNet {
  token: number;
  symbol: string;
  netQuantity: number;
}

/**
 * Each instrument's net quantity from the broker's own trade book (buys less sells of
 * today's fills), so an operator can check what the bot believes against the broker.
 */
export async function brokerNetPositions(
  broker: Broker,
  signal?: AbortSignal,
): Promise<BrokerNet[]> {
  const nets = new Map<number, BrokerNet>();
  for (const fill of await broker.tradeBook(signal)) {
    const token = Number(fill.token);
    const quantity = Number(fill.fillQuantity || fill.fillShares || '0');
    const signed = fill.transactionType === 'S' ? -quantity : quantity;
    const net = nets.get(token) ?? { token, symbol: fill.symbol, netQuantity: 0 };
    net.netQuantity += signed;
    nets.set(token, net);
  }
  return [...nets.values()].sort((a, b) => a.token - b.token);
}
