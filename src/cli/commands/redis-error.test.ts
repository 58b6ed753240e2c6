import { ReplyError } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { isRedisError } from './redis-error.ts';

// How I checked it can fail: with the `instanceof ReplyError` line removed and the name
// check too, the first case failed (a Redis reply taken for a bug would exit the worker).
describe('isRedisError: what a queue worker shrugs off, and what ends it', () => {
  it("tells ioredis's reply errors by class", () => {
    const reply = new ReplyError('ERR unknown command') as Error;
    expect(isRedisError(reply)).toBe(true);
  });

  it('tells connection failures and refused credentials by their messages', () => {
    expect(isRedisError(new Error('connect ECONNREFUSED 127.0.0.1:6390'))).toBe(true);
    expect(isRedisError(new Error('Connection is closed.'))).toBe(true);
    expect(isRedisError(new Error('WRONGPASS invalid username-password pair'))).toBe(true);
  });

  it('takes anything else for a bug', () => {
    expect(isRedisError(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(
      false,
    );
    expect(isRedisError('ECONNRESET')).toBe(false);
    expect(isRedisError(undefined)).toBe(false);
  });
});
