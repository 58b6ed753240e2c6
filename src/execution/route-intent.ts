import type { RoutedIntent } from '../domain/intents.ts';
import type { Amendments } from './amendment.ts';
import type { BracketManager } from './brackets/bracket-manager.ts';
import type { EngineCore } from './engine-core.ts';
import type { Placements } from './placement.ts';
import { squareOff } from './square-off.ts';

/** The parts that carry intents out. */
export interface IntentRoutes {
  core: EngineCore;
  placements: Placements;
  amendments: Amendments;
  brackets: BracketManager;
}

/**
 * Sends an intent that passed the engine's guards to the part that carries it out; a
 * broker failure becomes an event (or a pause), never an exception.
 */
export async function routeIntent(routes: IntentRoutes, intent: RoutedIntent): Promise<void> {
  const { core, placements, amendments, brackets } = routes;
  try {
    switch (intent.kind) {
      case 'place':
        await placements.place(intent);
        break;
      case 'modify':
        await amendments.modify(intent);
        break;
      case 'cancel':
        await amendments.cancel(intent);
        break;
      case 'squareOff':
        // A square-off ends the brackets it closes (of its product, when it has one):
        // their legs are cancelled with the rest, and nothing re-places them.
        brackets.endFor(
          intent.strategyId,
          intent.token,
          intent.reason ?? 'square-off',
          intent.product,
        );
        await squareOff(core, intent);
        break;
      case 'bracket':
        await brackets.open(intent);
        break;
    }
  } catch (err) {
    core.onBrokerError(intent, err);
  }
}
