import { describe, expect, it } from 'vitest';
import { raceAbort } from './abortable-exchange.ts';

describe('raceAbort', () => {
  it('rejects at the abort and cancels the body of an answer that arrives later', async () => {
    // Checked to fail: without discarding the late answer, `cancelled` stays false and
    // the late response's socket would stay open until a garbage collection.
    let answer: (value: { body: { cancel: () => Promise<void> } }) => void = () => {};
    const work = new Promise<{ body: { cancel: () => Promise<void> } }>((resolve) => {
      answer = resolve;
    });
    const controller = new AbortController();
    const raced = raceAbort(work, controller.signal);
    controller.abort(new Error('deadline'));
    await expect(raced).rejects.toThrow('deadline');
    let cancelled = false;
    answer({
      body: {
        cancel: () => {
          cancelled = true;
          return Promise.resolve();
        },
      },
    });
    await work;
    await Promise.resolve();
    expect(cancelled).toBe(true);
  });

  it('settles like the work when it wins, and cancels nothing', async () => {
    let cancelled = false;
    const response = {
      body: {
        cancel: () => {
          cancelled = true;
          return Promise.resolve();
        },
      },
    };
    const controller = new AbortController();
    await expect(raceAbort(Promise.resolve(response), controller.signal)).resolves.toBe(response);
    controller.abort();
    await Promise.resolve();
    expect(cancelled).toBe(false);
  });
});
