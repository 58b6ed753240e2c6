import { readFile } from 'node:fs/promises';

/** Reads an access token from a file (its first line); empty when there is no file. */
export async function readTokenFile(path: string | undefined): Promise<string> {
  if (path === undefined) return '';
  const text = await readFile(path, 'utf8');
  return text.split('\n')[0]?.trim() ?? '';
}
