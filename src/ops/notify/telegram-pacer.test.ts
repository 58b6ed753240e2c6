import { describe, expect, it } from 'vitest';
import { TelegramPacer } from './telegram-pacer.ts';

describe('TelegramPacer (injected clock)', () => {
  it('spaces messages to one chat a second apart, other chats free', () => {
    let now = 10_000;
    const pacer = new TelegramPacer(() => now);
    expect(pacer.delayMs('1')).toBe(0);
    pacer.sent('1');
    now += 300;
    expect(pacer.delayMs('1')).toBe(700);
    expect(pacer.delayMs('2')).toBe(0);
    now += 700;
    expect(pacer.delayMs('1')).toBe(0);
  });

  it('holds the 31st message of any second until the first of them is a second old', () => {
    let now = 50_000;
    const pacer = new TelegramPacer(() => now);
    for (let chat = 0; chat < 30; chat++) {
      expect(pacer.delayMs(String(chat))).toBe(0);
      pacer.sent(String(chat));
      now += 10;
    }
    // 30 sent from 50 000 to 50 290; now 50 300: the next waits until 51 000.
    expect(pacer.delayMs('99')).toBe(700);
    now = 51_000;
    expect(pacer.delayMs('99')).toBe(0);
  });
});
