import { describe, expect, it } from 'vitest';
import { fillDayTime } from './fill-day.ts';
import type { TrackedOrder } from './tracked-order.ts';

describe('fillDayTime', () => {
  const placedAt = Date.parse('2026-11-23T15:29:00+05:30');
  const learntAt = Date.parse('2026-11-24T09:16:00+05:30');
  const order = (amo: boolean) =>
    ({ placedAt, request: { amo } }) as unknown as Pick<TrackedOrder, 'placedAt' | 'request'>;

  it("places a day order's fill on its placement's day, however late it is learnt", () => {
    expect(fillDayTime(order(false), learntAt)).toBe(placedAt);
  });

  it("places an after-market order's fill when it is learnt (it fills in the next session)", () => {
    expect(fillDayTime(order(true), learntAt)).toBe(learntAt);
  });
});
