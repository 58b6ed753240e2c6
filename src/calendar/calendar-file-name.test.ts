import { describe, expect, it } from 'vitest';
import { calendarFileName } from './calendar-file-name.ts';

describe('calendarFileName', () => {
  it('names the file after a source key as it is', () => {
    expect(calendarFileName('embedded')).toBe('holidays-embedded.json');
    expect(calendarFileName('3f0c6a1b2d4e')).toBe('holidays-3f0c6a1b2d4e.json');
  });

  it('digests any other id, so no URL or path reaches a file name', () => {
    const name = calendarFileName('https://user:secret@api.example.in');
    expect(name).toMatch(/^holidays-[0-9a-f]{12}\.json$/);
    expect(name).not.toContain('secret');
    expect(calendarFileName('../etc')).toMatch(/^holidays-[0-9a-f]{12}\.json$/);
  });
});
