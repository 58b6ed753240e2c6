import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { quoteFileChunks } from './quote-file-chunks.ts';
import { RecordingError } from './recording-error.ts';

/** 600 KiB of bytes that name their own offset: three chunks of a plain file. */
function bytes(): Buffer {
  const b = Buffer.alloc(600 * 1024);
  for (let i = 0; i < b.length; i += 4) b.writeUInt32LE(i, i);
  return b;
}

function file(name: string, content: Buffer): string {
  const path = join(mkdtempSync(join(tmpdir(), 'tr-chunks-')), name);
  writeFileSync(path, content);
  return path;
}

/** This process's open file descriptors (Linux). */
const openFds = (): number => readdirSync('/proc/self/fd').length;

async function readAll(path: string): Promise<{ data: Buffer; chunks: number }> {
  const parts: Buffer[] = [];
  // Each chunk is copied: it is valid only until the next one is asked for.
  for await (const chunk of quoteFileChunks(path)) parts.push(Buffer.from(chunk));
  return { data: Buffer.concat(parts), chunks: parts.length };
}

describe('quoteFileChunks', () => {
  it('reads a plain file whole, 256 KiB at a time, and a gzip’d one the same', async () => {
    const content = bytes();
    const plain = await readAll(file('quotes.bin', content));
    expect(plain.chunks).toBe(3);
    expect(plain.data.equals(content)).toBe(true);
    const gz = await readAll(file('quotes.bin.gz', gzipSync(content)));
    expect(gz.data.equals(content)).toBe(true);
  });

  it('turns the event loop before each chunk: timers, signals and IPC are not starved', async () => {
    // Synchronous reads with no turn would hand over every chunk in microtasks, and a
    // setImmediate queued by the consumer would wait for the end of the file (checked by
    // removing the turn from rawChunks: this test then fails).
    const path = file('quotes.bin', bytes());
    const seen: string[] = [];
    let n = 0;
    for await (const _ of quoteFileChunks(path)) {
      n += 1;
      seen.push(`chunk ${n}`);
      setImmediate(() => seen.push(`immediate after ${n}`));
    }
    expect(seen).toEqual([
      'chunk 1',
      'immediate after 1',
      'chunk 2',
      'immediate after 2',
      'chunk 3',
      'immediate after 3',
    ]);
  });

  // Open descriptors are counted in /proc/self/fd: Linux only.
  it.skipIf(process.platform !== 'linux')(
    'closes the file when the consumer stops early, and after the last chunk',
    async () => {
      const path = file('quotes.bin', bytes());
      const before = openFds();
      for await (const _ of quoteFileChunks(path)) {
        expect(openFds()).toBe(before + 1);
        break;
      }
      expect(openFds()).toBe(before);
      await readAll(path);
      expect(openFds()).toBe(before);
    },
  );

  it('names the file when it cannot be read', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'tr-chunks-')), 'nope.bin');
    const err = await readAll(missing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecordingError);
    expect((err as RecordingError).message).toBe(`${missing}: cannot read the quote file`);
  });
});
