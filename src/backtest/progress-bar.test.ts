import { describe, expect, it } from 'vitest';
import { ProgressBar } from './progress-bar.ts';

/**
 * A terminal both streams write to, replayed as a screen: `\r` returns to the line's start,
 * `ESC[K` clears to its end, `\n` ends it. What a person would see, not the bytes.
 */
const CLEAR = '\u001b[K';
const PARTS = new RegExp(`(\r|\n|${CLEAR.replace('[', '\\[')})`);

class FakeTerminal {
  private readonly lines: string[] = [''];
  private col = 0;

  stream(isTTY: boolean) {
    return { isTTY, columns: 60, write: (text: string) => this.put(text) };
  }

  screen(): string[] {
    return [...this.lines];
  }

  private put(text: string): void {
    for (const part of text.split(PARTS)) {
      const row = this.lines.length - 1;
      const line = this.lines[row] ?? '';
      if (part === '\r') this.col = 0;
      else if (part === '\n') {
        this.lines.push('');
        this.col = 0;
      } else if (part === CLEAR) this.lines[row] = line.slice(0, this.col);
      else if (part !== '') {
        this.lines[row] = line.slice(0, this.col) + part + line.slice(this.col + part.length);
        this.col += part.length;
      }
    }
  }
}

describe('ProgressBar.print', () => {
  it('prints a log line above the bar and draws the bar again below it', () => {
    const term = new FakeTerminal();
    const stderr = term.stream(true);
    const stdout = term.stream(true);
    const bar = new ProgressBar(stderr, 'backtest');
    bar.update(0.25, '09:31 IST');
    bar.print(stdout, '09:31:02 IST  sma  BUY 10 SBIN-EQ @ ₹794.15 filled\n');
    bar.update(0.5);
    bar.print(stdout, 'second line\n');
    bar.done();
    const screen = term.screen();
    expect(screen[0]).toBe('09:31:02 IST  sma  BUY 10 SBIN-EQ @ ₹794.15 filled');
    expect(screen[1]).toBe('second line');
    expect(screen[2]).toMatch(/^backtest [█░]+ {2}50% $/);
    expect(screen[3]).toBe('');
    expect(screen).toHaveLength(4);
  });

  it('prints plainly before the bar shows, after it is done, and to a pipe', () => {
    const term = new FakeTerminal();
    const stderr = term.stream(true);
    const bar = new ProgressBar(stderr, 'backtest');
    const writes: string[] = [];
    const pipe = { isTTY: false, write: (t: string) => writes.push(t) };
    bar.print(term.stream(true), 'early\n');
    bar.update(0.1);
    bar.print(pipe, 'to a file\n');
    bar.done();
    bar.print(term.stream(true), 'late\n');
    expect(writes).toEqual(['to a file\n']);
    const screen = term.screen();
    expect(screen[0]).toBe('early');
    expect(screen[1]).toMatch(/^backtest [█░]+ {2}10% $/);
    expect(screen[2]).toBe('late');
  });

  it('draws nothing when its own stream is not a terminal', () => {
    const writes: string[] = [];
    const bar = new ProgressBar({ isTTY: false, write: (t: string) => writes.push(t) }, 'x');
    bar.update(0.5);
    bar.print({ isTTY: true, write: (t: string) => writes.push(t) }, 'line\n');
    bar.done();
    expect(writes).toEqual(['line\n']);
  });
});
