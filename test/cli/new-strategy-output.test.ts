import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

/** The compiler's complaints about `files`, under the project's own tsconfig. */
function typeErrors(files: string[]): string[] {
  const config = ts.readConfigFile('tsconfig.json', (f) => ts.sys.readFile(f));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, process.cwd());
  const program = ts.createProgram({ rootNames: files, options });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('tiqs-runner new-strategy output', () => {
  it('is formatted, lint-clean and typechecks, as npm test requires of strategies/', async () => {
    // A folder beside strategies/, so the scaffold's '../src/index.ts' resolves as it does there.
    const dir = mkdtempSync(join(process.cwd(), 'scaffold-check-'));
    try {
      const r = await runCli('new-strategy', 'mean-reversion', '--dir', dir);
      expect(r.code).toBe(0);
      const files = [join(dir, 'mean-reversion.ts'), join(dir, 'mean-reversion.test.ts')];
      // The project's biome.json: the formatter's layout and the linter's rules.
      const biome = spawnSync('node_modules/.bin/biome', ['check', '--colors=off', ...files], {
        encoding: 'utf8',
      });
      expect(biome.stdout + biome.stderr).not.toMatch(/×|Formatter would have printed/);
      expect(biome.status).toBe(0);
      expect(typeErrors(files)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
