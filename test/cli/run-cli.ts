import { main } from '../../src/cli/main.ts';

/** Runs the CLI in-process, capturing stdout, stderr and the exit code. */
export async function runCli(
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    const code = await main(['node', 'tiqs-runner', ...args]);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    process.exitCode = before;
  }
}
