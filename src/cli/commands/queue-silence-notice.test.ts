import { describe, expect, it } from 'vitest';
import { SilenceNotice, silenceNote } from './queue-silence-notice.ts';

const URL = 'redis://:***@10.0.0.5:6379';

describe('SilenceNotice', () => {
  it('says a silence past 10 s, then every 30 s, and when Redis answers again', () => {
    const notice = new SilenceNotice(URL);
    const said: [number, string][] = [];
    for (let ms = 0; ms <= 75_000; ms += 1_000) {
      const line = notice.line(ms);
      if (line !== undefined) said.push([ms, line]);
    }
    const back = notice.line(0);
    expect(said).toEqual([
      [10_000, `${URL} not answering for 10 s; waiting (Ctrl-C to stop)`],
      [40_000, `${URL} not answering for 40 s; waiting (Ctrl-C to stop)`],
      [70_000, `${URL} not answering for 70 s; waiting (Ctrl-C to stop)`],
    ]);
    expect(back).toBe(`${URL} answering again after 75 s`);
    // A short blip (a restart) is not said, nor its end.
    expect(notice.line(4_000)).toBeUndefined();
    expect(notice.line(0)).toBeUndefined();
  });

  it('the bar names Redis while it is silent', () => {
    expect(silenceNote(0)).toBeUndefined();
    expect(silenceNote(4_999)).toBeUndefined();
    expect(silenceNote(12_400)).toBe('Redis not answering for 12 s');
  });
});
