/** Where a progress bar draws: a stream and whether it is a terminal. */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/**
 * A one-line progress bar redrawn with `\r`, on a terminal only (a log file or a pipe
 * gets nothing). Thirty lines of our own instead of a dependency: it needs no
 * multi-bar, no ETA formatting and no terminal detection beyond `isTTY`.
 *
 * @example
 * ```ts
 * const bar = new ProgressBar(process.stderr, 'replaying');
 * bar.update(0.5, '09:45 IST');
 * bar.done();
 * ```
 */
export class ProgressBar {
  private lastDrawn = -1;

  constructor(
    private readonly stream: ProgressStream,
    private readonly label: string,
  ) {}

  /** Whether anything is drawn at all. */
  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  /** Redraws at `fraction` (0..1) when the whole percent changed. */
  update(fraction: number, note = ''): void {
    if (!this.enabled) return;
    const pct = Math.max(0, Math.min(100, Math.floor(fraction * 100)));
    if (pct === this.lastDrawn) return;
    this.lastDrawn = pct;
    const width = Math.max(10, Math.min(40, (this.stream.columns ?? 80) - 40));
    const full = Math.round((pct / 100) * width);
    const bar = `${'█'.repeat(full)}${'░'.repeat(width - full)}`;
    this.stream.write(`\r${this.label} ${bar} ${String(pct).padStart(3)}% ${note}\u001b[K`);
  }

  /** Ends the line. */
  done(): void {
    if (this.enabled && this.lastDrawn >= 0) this.stream.write('\n');
  }
}
