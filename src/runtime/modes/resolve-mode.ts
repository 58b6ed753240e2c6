import { backtestMode } from './backtest-mode.ts';
import type { ModeInput, ModeParts } from './mode-parts.ts';

/** A replayed market was asked for with a mode or options that cannot take one. */
export class ModeError extends Error {
  override readonly name = 'ModeError';
}

/**
 * The one place the mode is decided: an in-process `source` means a backtest (paper
 * fills on replayed data); otherwise `config.mode` picks live or paper over HTTP.
 *
 * @throws {ModeError} for a replayed market in live mode, or a market without its source.
 */
export async function resolveMode(input: ModeInput): Promise<ModeParts> {
  const { source, market, config } = input.options;
  if (source !== undefined || market !== undefined) {
    if (config.mode !== 'paper') {
      throw new ModeError(
        'a replayed market source needs mode: paper; a live broker cannot trade on replayed data',
      );
    }
    if (source === undefined) {
      throw new ModeError('a replayed market needs its source (holidays, option chains)');
    }
    return backtestMode(input, source);
  }
  // Imported when chosen: a backtest (and each sweep job) never loads the HTTP client,
  // ky, nor Node's fetch (undici), which ky probes as it loads.
  if (config.mode === 'live') return (await import('./live-mode.ts')).liveMode(input);
  return (await import('./paper-mode.ts')).paperMode(input);
}
