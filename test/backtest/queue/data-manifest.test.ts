import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFolderError, dataManifest } from '../../../src/backtest/queue/data-manifest.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const temp = tempDirs();

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('dataManifest', () => {
  it('lists every file recursively, sorted, with size and sha256', async () => {
    const dir = temp('q1-manifest-');
    mkdirSync(join(dir, 'day-2'));
    mkdirSync(join(dir, 'day-1'));
    writeFileSync(join(dir, 'meta.json'), '{"a":1}');
    writeFileSync(join(dir, 'day-2', 'quotes.bin'), 'two');
    writeFileSync(join(dir, 'day-1', 'quotes.bin'), 'one!');
    writeFileSync(join(dir, 'B.txt'), '');
    symlinkSync(join(dir, 'meta.json'), join(dir, 'link.json'));
    expect(await dataManifest(dir)).toEqual([
      { path: 'B.txt', size: 0, sha256: sha('') },
      { path: 'day-1/quotes.bin', size: 4, sha256: sha('one!') },
      { path: 'day-2/quotes.bin', size: 3, sha256: sha('two') },
      { path: 'link.json', size: 7, sha256: sha('{"a":1}') },
      { path: 'meta.json', size: 7, sha256: sha('{"a":1}') },
    ]);
  });

  it('fails clearly for a missing folder or a file', async () => {
    const dir = temp('q1-manifest-');
    await expect(dataManifest(join(dir, 'nope'))).rejects.toThrow(DataFolderError);
    await expect(dataManifest(join(dir, 'nope'))).rejects.toThrow(/nope: not found/);
    writeFileSync(join(dir, 'file'), 'x');
    await expect(dataManifest(join(dir, 'file'))).rejects.toThrow(/not a folder/);
  });
});
