import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BlobMissingError } from '../../../src/backtest/queue/blob-copy.ts';
import { DataDirStore } from '../../../src/backtest/queue/data-dir-store.ts';
import { DataDigestError } from '../../../src/backtest/queue/fetch-data.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const temp = tempDirs();

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('DataDirStore', () => {
  const setup = () => {
    const dir = temp('q1-dds-');
    const shared = join(dir, 'shared');
    const source = join(dir, 'quotes.bin');
    writeFileSync(source, 'ticks');
    const file = { path: 'quotes.bin', size: 5, sha256: sha('ticks') };
    return { dir, shared, source, file, store: new DataDirStore(shared) };
  };

  it('keeps a file as <dir>/<sha256>, once, and gives it back verified', async () => {
    const { dir, shared, source, file, store } = setup();
    expect(await store.has(file.sha256)).toBe(false);
    expect(await store.put(source, file)).toBe('uploaded');
    expect(readdirSync(shared)).toEqual([file.sha256]);
    expect(await store.put(source, file)).toBe('reused');
    await store.get(file.sha256, join(dir, 'back'));
    expect(readFileSync(join(dir, 'back'), 'utf8')).toBe('ticks');
  });

  it('refuses a stored file whose bytes changed, and a file not stored', async () => {
    const { dir, shared, source, file, store } = setup();
    await store.put(source, file);
    writeFileSync(join(shared, file.sha256), 'tampered');
    await expect(store.get(file.sha256, join(dir, 'back'))).rejects.toThrow(DataDigestError);
    expect(existsSync(join(dir, 'back'))).toBe(false);
    await expect(store.get(sha('other'), join(dir, 'back'))).rejects.toThrow(BlobMissingError);
  });

  it('stores nothing under a digest the file no longer has', async () => {
    const { shared, source, file, store } = setup();
    await expect(store.put(source, { ...file, sha256: sha('old') })).rejects.toThrow(
      DataDigestError,
    );
    expect(readdirSync(shared)).toEqual([]);
  });
});
