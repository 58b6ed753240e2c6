/** The simulator's operations, one per route of spec §4. */
export const ROUTE_IDS = [
  'quote',
  'quotes',
  'placeOrder',
  'modifyOrder',
  'cancelOrder',
  'orderDetails',
  'orderBook',
  'tradeBook',
  'holidays',
  'indexList',
  'optionChainSymbols',
  'optionChain',
  'greeks',
  'instrumentMaster',
  'candles',
] as const;
/** One operation of spec §4. */
export type RouteId = (typeof ROUTE_IDS)[number];

/** A request path matched to an operation, with its path parameters. */
export type RouteMatch =
  | { kind: 'route'; route: RouteId; params: readonly string[] }
  | { kind: 'method-not-allowed'; allow: readonly string[] }
  | { kind: 'not-found' };

type Table = ReadonlyArray<[RegExp, Readonly<Record<string, RouteId>>]>;

const TABLE: Table = [
  [/^\/info\/quote\/([^/]+)$/, { POST: 'quote' }],
  [/^\/info\/quotes\/([^/]+)$/, { POST: 'quotes' }],
  [/^\/order\/([^/]+)$/, { POST: 'placeOrder', GET: 'orderDetails' }],
  [/^\/order\/([^/]+)\/([^/]+)$/, { PATCH: 'modifyOrder', DELETE: 'cancelOrder' }],
  [/^\/user\/orders$/, { GET: 'orderBook' }],
  [/^\/user\/trades$/, { GET: 'tradeBook' }],
  [/^\/info\/holidays$/, { GET: 'holidays' }],
  [/^\/info\/index-list$/, { GET: 'indexList' }],
  [/^\/info\/option-chain-symbols$/, { GET: 'optionChainSymbols' }],
  [/^\/info\/option-chain$/, { POST: 'optionChain' }],
  [/^\/info\/greeks$/, { POST: 'greeks' }],
  // Beyond the spec (api-facts.md, "Instrument master"): a CSV file, not an envelope.
  [/^\/all$/, { GET: 'instrumentMaster' }],
  // Beyond the spec (api-facts.md, "Historical candles"): a bare JSON array.
  [/^\/candle\/([^/]+)\/([^/]+)\/([^/]+)$/, { GET: 'candles' }],
];

/**
 * Matches a method and a path (query string ignored) to an operation.
 *
 * @example
 * ```ts
 * matchRoute('PATCH', '/order/regular/1000000001');
 * // { kind: 'route', route: 'modifyOrder', params: ['regular', '1000000001'] }
 * ```
 */
export function matchRoute(method: string, url: string): RouteMatch {
  const path = url.split('?')[0] ?? '';
  for (const [pattern, methods] of TABLE) {
    const m = pattern.exec(path);
    if (m === null) continue;
    const route = methods[method.toUpperCase()];
    if (route === undefined) return { kind: 'method-not-allowed', allow: Object.keys(methods) };
    const params = m.slice(1).map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
    return { kind: 'route', route, params };
  }
  return { kind: 'not-found' };
}
