import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { OrderIntent } from '../domain/intents.ts';
import { MemoryJournal } from '../execution/journal.ts';
import { memoryLogger } from '../market-data/testing/fake-quote-source.ts';
import { ControlState } from './bot-controls-state.ts';

const entry = { kind: 'place', id: 'e1' } as OrderIntent;

describe('ControlState', () => {
  it('logs a paused strategy’s dropped entries at info, once a minute per strategy', () => {
    const { logger, lines } = memoryLogger();
    let now = 0;
    const state = new ControlState(new MemoryJournal(), logger, () => now);
    state.setPaused('sma', true);
    state.setPaused('orb', true);
    for (let i = 0; i < 10; i++) {
      expect(state.allows(entry, 'sma')).toBe(false);
      now += 5_000;
    }
    expect(state.allows(entry, 'orb')).toBe(false);
    expect(state.allows({ kind: 'cancel', id: 'c' } as OrderIntent, 'sma')).toBe(true);
    now = 60_000;
    expect(state.allows(entry, 'sma')).toBe(false);
    const dropped = lines.filter((l) => l.msg.startsWith('strategy paused by an operator'));
    expect(dropped.map((l) => [l.level, l.droppedSinceLastLine])).toEqual([
      [30, 0],
      [30, 0],
      [30, 9],
    ]);
  });

  it('names who paused a strategy, kept across a restart in the journal', () => {
    const journal = new MemoryJournal();
    const first = new ControlState(journal, pino({ level: 'silent' }));
    first.setPaused('sma', true);
    first.record({
      at: 1,
      who: 'telegram:42',
      action: 'pause',
      strategy: 'sma',
      outcome: 'done',
      detail: '',
    });
    first.setPaused('orb', true);
    first.record({ at: 2, who: 'dashboard', action: 'squareOffAll', outcome: 'done', detail: '' });
    const again = new ControlState(journal, pino({ level: 'silent' }));
    expect(again.paused()).toEqual(['orb', 'sma']);
    expect(again.pausedBy('sma')).toBe('dashboard');
    expect(again.pausedBy('orb')).toBe('dashboard');
    expect(again.pausedBy('none')).toBeUndefined();
  });
});
