#!/usr/bin/env node
// Runs every bench/*.bench.ts in its own process, one after another, and fails if any does.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'bench');
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const started = Date.now();
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(dir, file)], {
    cwd: root,
    stdio: 'inherit',
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (run.status === 0) {
    console.log(`--- ${file}: ok (${seconds} s)`);
  } else {
    failed += 1;
    console.log(`--- ${file}: FAILED (exit ${run.status ?? run.signal}, ${seconds} s)`);
  }
}
console.log(`\n${files.length - failed}/${files.length} benchmarks passed`);
process.exit(failed === 0 ? 0 : 1);
