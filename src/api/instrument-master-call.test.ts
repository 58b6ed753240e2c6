import { describe, expect, it } from 'vitest';
import { RefusedError } from './errors/refused-error.ts';
import { instrumentMasterCall } from './instrument-master-call.ts';
import { interpretAnswer } from './interpret-answer.ts';

const context = { now: 0, retryAfterMaxMs: 30_000, baseUrl: 'https://api.example.in' };
const answer = (text: string, status = 200) =>
  interpretAnswer(instrumentMasterCall(), new Response(text, { status }), text, context);

describe('instrumentMasterCall (GET /all)', () => {
  it('hands a 2xx CSV body over as it came', () => {
    const csv = 'Exchange,Token,Symbol,LotSize,TickSize\nNSE,3045,SBIN-EQ,1,5\n';
    expect(answer(csv)).toBe(csv);
  });

  it('refuses a failure envelope sent with HTTP 200 as the usual RefusedError, not as a CSV', () => {
    const envelope = JSON.stringify({
      status: 'error',
      message: 'Instrument file not ready',
      errorCode: 'SomethingWrongError',
    });
    let thrown: unknown;
    try {
      answer(envelope);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(RefusedError);
    expect(thrown).toMatchObject({
      status: 200,
      errorCode: 'SomethingWrongError',
      serviceMessage: 'Instrument file not ready',
    });
  });
});
