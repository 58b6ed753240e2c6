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
  private lastNote = '';
  /** The bar as last drawn, redrawn under a line printed while it shows. */
  private drawn = '';
  private finished = false;

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
    this.draw(pct, note);
  }

  /**
   * Redraws at `fraction` with a status `note` whenever either changed (a queued sweep's
   * counts: running jobs and workers change while the percent does not). Callers call it
   * on their own beat, not per event: each change is a write.
   */
  show(fraction: number, note: string): void {
    if (!this.enabled) return;
    const pct = Math.max(0, Math.min(100, Math.floor(fraction * 100)));
    if (pct === this.lastDrawn && note === this.lastNote) return;
    this.draw(pct, note);
  }

  private draw(pct: number, note: string): void {
    this.lastDrawn = pct;
    this.lastNote = note;
    const width = Math.max(10, Math.min(40, (this.stream.columns ?? 80) - 40));
    const full = Math.round((pct / 100) * width);
    const bar = `${'█'.repeat(full)}${'░'.repeat(width - full)}`;
    this.drawn = `${this.label} ${bar} ${String(pct).padStart(3)}% ${note}`;
    this.stream.write(`\r${this.drawn}\u001b[K`);
  }

  /**
   * Prints `text` (whole lines, e.g. log lines) to `out` without breaking the bar: while
   * the bar shows and `out` is a terminal too, the bar's line is cleared, the text printed
   * and the bar drawn again below it. The one writer of both, so neither cuts the other.
   */
  print(out: ProgressStream, text: string): void {
    const showing = this.enabled && this.drawn !== '' && !this.finished && out.isTTY === true;
    if (showing) this.stream.write('\r\u001b[K');
    out.write(text);
    if (showing) this.stream.write(`${this.drawn}\u001b[K`);
  }

  /** Ends the line. */
  done(): void {
    if (this.enabled && this.lastDrawn >= 0 && !this.finished) this.stream.write('\n');
    this.finished = true;
  }
}
