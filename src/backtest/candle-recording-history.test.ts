import { describe, expect, it } from 'vitest';
import { RecordingError } from '../recording/recording-error.ts';
import { CandleRecordingHistory } from './candle-recording-history.ts';

describe('CandleRecordingHistory', () => {
  it('refuses a request with no calendar as a RecordingError (typed, not a bare Error)', async () => {
    const history = new CandleRecordingHistory('1m', []);
    const asked = history.candles({
      token: 3045,
      interval: '1m',
      from: 0,
      to: 60_000,
    } as Parameters<CandleRecordingHistory['candles']>[0]);
    await expect(asked).rejects.toBeInstanceOf(RecordingError);
  });
});
