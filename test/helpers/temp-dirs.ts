import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A maker of fresh temp folders for one test file, every one removed after the file's
 * tests. Call it at the file's top level: it registers that file's `afterAll`.
 *
 * @example
 * ```ts
 * const temp = tempDirs();
 * const dir = temp('blob-store-');
 * ```
 */
export function tempDirs(): (prefix: string) => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  return (prefix) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
