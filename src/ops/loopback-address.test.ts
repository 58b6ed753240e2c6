import { describe, expect, it } from 'vitest';
import { isLoopbackAddress } from './loopback-address.ts';

describe('isLoopbackAddress', () => {
  it('takes 127/8, ::1 in any spelling, mapped 127.x and localhost; nothing else', () => {
    const loop = ['127.0.0.1', '127.8.9.10', '::1', '0:0:0:0:0:0:0:1', '[::1]', '::ffff:127.0.0.1'];
    const open = ['0.0.0.0', '::', '192.168.1.5', '::ffff:10.0.0.1', 'bot.lan', '128.0.0.1'];
    expect(loop.filter((a) => !isLoopbackAddress(a))).toEqual([]);
    expect(open.filter((a) => isLoopbackAddress(a))).toEqual([]);
    expect(isLoopbackAddress('LocalHost')).toBe(true);
  });
});
