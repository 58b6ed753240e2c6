import { describe, expect, it } from 'vitest';
import { parseLog, unfinishedIntents } from './helpers/json-log.ts';
import { duplicateTags, type SimOrderView } from './helpers/sim-admin.ts';

const order = (id: string, tags: string, parentId: string | null = null): SimOrderView => ({
  id,
  tags,
  variety: 'regular',
  order: 'MKT',
  token: 3045,
  transactionType: 'B',
  quantity: 1,
  price: 0,
  triggerPrice: 0,
  modifications: 0,
  filled: 1,
  status: 'COMPLETE',
  parentId,
  placedAt: '',
});

// The e2e assertions are only as good as these checks: each must see what it looks for.
describe('e2e assertion helpers', () => {
  it('finds a tag placed twice, but not a cover stop leg sharing its main order tag', () => {
    expect(duplicateTags([order('1', 'a'), order('2', 'a', '1'), order('3', 'b')])).toEqual([]);
    expect(duplicateTags([order('1', 'a'), order('2', 'b'), order('3', 'a')])).toEqual(['a']);
  });

  it('finds a place intent without a terminal event', () => {
    const log = parseLog([
      '{"level":30,"msg":"intent","strategy":"s","intent":{"id":"p1","kind":"place"}}',
      '{"level":30,"msg":"intent","strategy":"s","intent":{"id":"p2","kind":"place"}}',
      'not json',
      '{"level":30,"msg":"OrderFilled","component":"execution","event":{"type":"OrderFilled","strategyId":"s","intentId":"p1"}}',
      '{"level":30,"msg":"OrderSubmitted","component":"execution","event":{"type":"OrderSubmitted","strategyId":"s","intentId":"p2"}}',
    ]);
    const intents = log
      .filter((l) => l.msg === 'intent')
      .map((l) => ({ strategy: 's', id: (l.intent as { id: string }).id, kind: 'place' }));
    const events = log
      .filter((l) => l.component === 'execution')
      .map((l) => l.event as { type: string; strategyId: string; intentId: string });
    expect(unfinishedIntents(intents, events).map((i) => i.id)).toEqual(['p2']);
  });
});
