import type { BotControls, ControlRecord } from '../../runtime/bot-controls.ts';
import { pnlText, positionLines } from './alert-texts.ts';
import type { BotCommandPort } from './telegram-commands.ts';

const said = (r: ControlRecord): string =>
  `${r.action}${r.strategy === undefined ? '' : ` ${r.strategy}`}: ${r.outcome === 'done' ? r.detail : `${r.outcome} (${r.detail})`}`;

/**
 * The Telegram commands over the bot's controls: the answers a chat reads. Every
 * control is journalled and logged by `BotControls` with who asked.
 */
export function controlsPort(controls: BotControls): BotCommandPort {
  return {
    status: () => {
      const s = controls.status();
      const lines = [
        `${s.mode} bot: total ${pnlText(s.totals)}`,
        ...s.strategies.map(
          (x) =>
            `  ${x.id}: ${x.status}${x.paused ? ' (paused)' : ''}, ${pnlText(x)}, ${x.openPositions} open`,
        ),
        `working orders: ${s.orders.working.length}`,
        `market data: ${s.marketData.status}${s.marketData.staleTokens.length > 0 ? ` (stale: ${s.marketData.staleTokens.join(', ')})` : ''}`,
        `kill switch: ${s.killSwitch.tripped ? 'TRIPPED' : 'armed'}`,
      ];
      if (s.tradingPaused !== undefined) lines.push(`trading paused: ${s.tradingPaused}`);
      return lines.join('\n');
    },
    positions: () => positionLines(controls.status().positions),
    pause: (id, who) => said(controls.pauseStrategy(id, who)),
    resume: (id, who) => said(controls.resumeStrategy(id, who)),
    squareOff: async (who) => said(await controls.squareOffAll(who)),
  };
}
