/**
 * What log lines are told about the bot they come from, bound once the bot exists (the
 * logger is made first): the market clock and the instrument master. Both are read at
 * each line, so a backtest's virtual clock stamps its lines with simulated time.
 *
 * @example
 * ```ts
 * const context: LogContext = {};
 * const logger = createLogger({ context });
 * const kernel = await Kernel.create({ config, configFile, logger });
 * context.now = () => kernel.clock.now();
 * context.symbolOf = (token) => kernel.instruments.byToken(token)?.symbol;
 * ```
 */
export interface LogContext {
  /** Market time, epoch ms (the kernel's clock: virtual in a backtest, the simulator's in paper). */
  now?: () => number;
  /** A token's trading symbol, when the instrument master knows it. */
  symbolOf?: (token: number) => string | undefined;
}

/** Where formatted lines go: stdout, or a writer that keeps a progress bar whole. */
export interface LogSink {
  write(text: string): unknown;
  /** A terminal: `logging.format: auto` is pretty on one. */
  readonly isTTY?: boolean;
}
