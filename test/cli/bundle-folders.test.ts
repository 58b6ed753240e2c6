import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deadPid } from '../helpers/dead-pid.ts';

// The bundle's versioned folders (scripts/bundle-folders.mjs, review 13 M3): a build never
// removes or rewrites a folder a running process may still load from.
interface BundleFolders {
  RETIRED_MS: number;
  POINTER: string;
  publish(dist: string, name: string, stamp: number): void;
  currentFolder(dist: string): string | undefined;
  retireOld(dist: string, current: string, now?: number): string[];
}
const folders = (await import(
  pathToFileURL(resolve('scripts/bundle-folders.mjs')).href
)) as BundleFolders;

const DAY = 24 * 60 * 60_000;
const GRACE = 10 * 60_000;
const NOW = Date.parse('2026-11-24T06:00:00Z');

function folder(dist: string, name: string, opts: { retiredAt?: number; holder?: number } = {}) {
  const dir = join(dist, name);
  mkdirSync(join(dir, '.holders'), { recursive: true });
  writeFileSync(join(dir, 'main.js'), '');
  writeFileSync(join(dir, 'chunk-ABC.js'), '');
  if (opts.retiredAt !== undefined) {
    writeFileSync(join(dir, '.retired'), '');
    utimesSync(join(dir, '.retired'), opts.retiredAt / 1000, opts.retiredAt / 1000);
  }
  if (opts.holder !== undefined) writeFileSync(join(dir, '.holders', String(opts.holder)), '');
}

describe('bundle folders: an old build is removed only when long replaced and unheld', () => {
  it('marks replaced folders stale from now, and removes only those stale past the grace and unheld', async () => {
    // Checked to fail: judging by the files' own mtimes (as dropStale did) removes the folder
    // replaced just now whose chunks were built two days ago; ignoring holders removes the
    // folder a live process runs from.
    const dist = mkdtempSync(join(tmpdir(), 'bundle-folders-'));
    const old = NOW - 2 * DAY;
    folder(dist, 'bundle-new-1');
    folder(dist, 'bundle-justreplaced-1');
    utimesSync(join(dist, 'bundle-justreplaced-1', 'chunk-ABC.js'), old / 1000, old / 1000);
    folder(dist, 'bundle-held-1', { retiredAt: old, holder: process.pid });
    folder(dist, 'bundle-deadholder-1', { retiredAt: old, holder: await deadPid() });
    folder(dist, 'bundle-recent-1', { retiredAt: NOW - GRACE + 1 });
    folder(dist, 'bundle-x', { retiredAt: old });
    // The flat folder of earlier versions (its processes write no holder file): a day.
    folder(dist, 'bundle', { retiredAt: NOW - DAY / 2 });
    mkdirSync(join(dist, 'cli'));

    const removed = folders.retireOld(dist, 'bundle-new-1', NOW);

    expect(removed.sort()).toEqual(['bundle-deadholder-1', 'bundle-x']);
    for (const kept of [
      'bundle-new-1',
      'bundle-justreplaced-1',
      'bundle-held-1',
      'bundle-recent-1',
      'bundle',
    ])
      expect(existsSync(join(dist, kept, 'chunk-ABC.js'))).toBe(true);
    expect(existsSync(join(dist, 'cli'))).toBe(true);
    expect(existsSync(join(dist, 'bundle-new-1', '.retired'))).toBe(false);
    // Stale from this build on: removed only the grace after it.
    expect(statSync(join(dist, 'bundle-justreplaced-1', '.retired')).mtimeMs).toBe(NOW);
    expect(folders.retireOld(dist, 'bundle-new-1', NOW + GRACE - 1)).not.toContain(
      'bundle-justreplaced-1',
    );
    expect(folders.retireOld(dist, 'bundle-new-1', NOW + GRACE + 1)).toContain(
      'bundle-justreplaced-1',
    );
    // A held one stays for as long as its process lives, however long.
    expect(folders.retireOld(dist, 'bundle-new-1', NOW + 30 * DAY)).toContain('bundle');
    expect(existsSync(join(dist, 'bundle-held-1', 'main.js'))).toBe(true);
  });

  it('names the current folder through a pointer replaced whole, its mtime the stamp', () => {
    const dist = mkdtempSync(join(tmpdir(), 'bundle-pointer-'));
    expect(folders.currentFolder(dist)).toBeUndefined();
    folders.publish(dist, 'bundle-abc-1', NOW);
    expect(folders.currentFolder(dist)).toBe('bundle-abc-1');
    expect(statSync(join(dist, folders.POINTER)).mtimeMs).toBe(NOW);
    folders.publish(dist, 'bundle-abd-2', NOW + 1000);
    expect(readFileSync(join(dist, folders.POINTER), 'utf8')).toBe('bundle-abd-2\n');
  });
});
