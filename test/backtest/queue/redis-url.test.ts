import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  parseQueueUrl,
  QueueUrlError,
  redactQueueUrl,
} from '../../../src/backtest/queue/redis-url.ts';

describe('parseQueueUrl', () => {
  it('reads host, port and db', () => {
    expect(parseQueueUrl('redis://10.0.0.5:6380/2', '--queue')).toEqual({
      host: '10.0.0.5',
      port: 6380,
      db: 2,
    });
  });

  it('defaults the port to 6379 and the db to 0', () => {
    expect(parseQueueUrl('redis://queue.lan', '--queue')).toEqual({
      host: 'queue.lan',
      port: 6379,
      db: 0,
    });
  });

  it('reads credentials (decoded), IPv6 hosts and TLS', () => {
    expect(parseQueueUrl('rediss://bot:p%40ss@[::1]:7000/1', '--queue')).toEqual({
      host: '::1',
      port: 7000,
      db: 1,
      username: 'bot',
      password: 'p@ss',
      tls: { servername: '::1' },
    });
  });

  it.each([
    ['localhost:6379', 'scheme'],
    ['http://localhost:6379', 'scheme'],
    ['redis://localhost:6379/queue', 'not a number'],
    ['redis://localhost:6379/0?family=6', 'query'],
    ['nonsense', 'not a URL'],
  ])('refuses %s, naming the flag', (url, problem) => {
    const err = (() => {
      try {
        parseQueueUrl(url, '--queue');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(QueueUrlError);
    expect((err as QueueUrlError).message).toMatch(/^--queue: /);
    expect((err as QueueUrlError).message).toContain(problem);
    expect((err as QueueUrlError).where).toBe('--queue');
  });

  it('never carries a password anywhere in the error, cause included', () => {
    for (const bad of [
      'redis://bot:s3cret-pw@bad host:6379',
      'redis://bot:s3c@ret-pw@host:6379/x',
    ]) {
      const err = (() => {
        try {
          parseQueueUrl(bad, '--queue');
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(QueueUrlError);
      expect(inspect(err, { depth: 10, showHidden: true })).not.toContain('ret-pw');
    }
  });

  it('never puts a password in an error message', () => {
    const bad = 'redis://bot:s3cret-pw@localhost:6379/zero';
    expect(() => parseQueueUrl(bad, '--queue')).toThrow(QueueUrlError);
    try {
      parseQueueUrl(bad, '--queue');
    } catch (err) {
      expect(String((err as Error).message)).not.toContain('s3cret-pw');
      expect(String((err as Error).message)).toContain('redis://bot:***@localhost:6379/zero');
    }
  });
});

describe('redactQueueUrl', () => {
  it('masks the password only', () => {
    expect(redactQueueUrl('redis://bot:s3cret@host:6379/1')).toBe('redis://bot:***@host:6379/1');
    expect(redactQueueUrl('redis://:s3cret@host:6379')).toBe('redis://:***@host:6379');
    expect(redactQueueUrl('redis://host:6379/1')).toBe('redis://host:6379/1');
    expect(redactQueueUrl('redis://bot@host:6379')).toBe('redis://bot@host:6379');
    expect(redactQueueUrl('redis://bot:p@ss@host:6379/1')).toBe('redis://bot:***@host:6379/1');
    expect(redactQueueUrl('redis://host:6379/0@x')).toBe('redis://host:6379/0@x');
  });

  it('masks a password after a raw @ in the user name, and one holding a raw /', () => {
    // Node's URL (and ioredis) take the first; the second does not parse.
    expect(redactQueueUrl('redis://us@er:secretPW@127.0.0.1:1')).toBe(
      'redis://us%40er:***@127.0.0.1:1',
    );
    expect(redactQueueUrl('redis://:se/cretPW@127.0.0.1:1')).toBe('redis://***@127.0.0.1:1');
    expect(redactQueueUrl('redis://u:a/b@c/d@h:1/2')).toBe('redis://***@h:1');
    expect(redactQueueUrl('redis://h:6379/0?password=secretPW')).toBe('redis://h:6379/0');
    expect(redactQueueUrl('nonsense:secretPW@h')).toBe('***@h');
  });

  it('never shows what follows // beyond a host guess when the text does not parse', () => {
    for (const bad of [
      'redis://:se/cretPW@127.0.0.1:1',
      'redis://a b:secretPW@host:1',
      'redis://user:secretPW@ho st:1/0',
      'redis://:secretPW@:notaport',
    ]) {
      expect(redactQueueUrl(bad)).not.toContain('secretPW');
      expect(redactQueueUrl(bad)).not.toContain('cretPW');
    }
    for (const bad of ['redis://us@er:secretPW@127.0.0.1:1', 'redis://:se/cretPW@127.0.0.1:1']) {
      expect(() => parseQueueUrl(bad, '--queue')).not.toThrow(/secretPW|cretPW/);
    }
  });
});
