import type { BotStatus } from '../../src/runtime/bot-controls.ts';

/** A paper bot's status at `at` with nothing going on but `realised` paise of PnL. */
export const quietStatus = (at: number, realised = 0): BotStatus => ({
  at,
  mode: 'paper',
  strategies: [],
  positions: [],
  totals: { realised, unrealised: 0 },
  orders: { working: [], recent: [] },
  marketData: { status: 'ok', staleTokens: [], rejectedTokens: [], quoteTokens: 0 },
  killSwitch: { tripped: false, flattenOnKill: true },
  controls: [],
});
