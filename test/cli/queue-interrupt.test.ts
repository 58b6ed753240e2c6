import { describe, expect, it } from 'vitest';
import { ProgressBar } from '../../src/backtest/progress-bar.ts';
import { interruptDecision } from '../../src/cli/commands/queue-interrupt.ts';

describe('interruptDecision (Ctrl-C on a queued sweep)', () => {
  const never = (): Promise<string | undefined> => {
    throw new Error('must not ask');
  };

  it('leaves the jobs by default: not a terminal, no answer, Enter or anything but r', async () => {
    expect(await interruptDecision('ask', 4, never, false)).toBe('leave');
    // Checked it can fail: with the default flipped (only l or leave leaves), this went red.
    for (const answer of [undefined, '', 'l', 'L', 'leave', 'yes'])
      expect(await interruptDecision('ask', 4, async () => answer, true)).toBe('leave');
  });

  it('removes on r or remove; --on-interrupt decides without asking', async () => {
    for (const answer of ['r', 'R', ' remove '])
      expect(await interruptDecision('ask', 4, async () => answer, true)).toBe('remove');
    expect(await interruptDecision('remove', 4, never, true)).toBe('remove');
    expect(await interruptDecision('leave', 4, never, true)).toBe('leave');
  });

  it('asks naming the unfinished jobs and the default', async () => {
    let asked = '';
    await interruptDecision(
      'ask',
      7,
      async (q) => {
        asked = q;
        return '';
      },
      true,
    );
    expect(asked).toMatch(/leave the 7 unfinished job\(s\) queued .*a rerun reattaches.*\[L\/r\]/);
  });
});

describe('ProgressBar.show', () => {
  it('redraws when the note changes at the same percent; update does not', () => {
    const writes: string[] = [];
    const stream = { isTTY: true, columns: 80, write: (t: string) => writes.push(t) };
    const bar = new ProgressBar(stream, 'sweep');
    bar.show(0.5, '2/4 done · 1 running');
    bar.show(0.5, '2/4 done · 1 running');
    bar.show(0.5, '2/4 done · 2 running');
    // Checked it can fail: with show() comparing the percent only (as update does), the
    // third call drew nothing and this counted 1.
    expect(writes).toHaveLength(2);
    expect(writes[1]).toContain('50% 2/4 done · 2 running');
    bar.update(0.5, 'other note');
    expect(writes).toHaveLength(2);
  });
});
