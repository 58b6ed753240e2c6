import { cpSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseBacktestSpec } from '../../../src/backtest/backtest-spec.ts';
import {
  CodeVersionError,
  checkBuildFresh,
  codeVersion,
  StaleBuildError,
} from '../../../src/backtest/queue/code-version.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const temp = tempDirs();
afterEach(() => {
  vi.useRealTimers();
});

const SPEC = `backtest:
  data: data/day
strategies:
  - id: s
    module: ../strategies/s.ts
    params: {}
`;

/** A project checkout: a strategy importing a local helper and packages, and a spec. */
function project(): string {
  const root = temp('q1-code-');
  mkdirSync(join(root, 'strategies', 'lib'), { recursive: true });
  mkdirSync(join(root, 'backtests'));
  writeFileSync(join(root, 'package.json'), '{"name":"my-bot"}');
  writeFileSync(
    join(root, 'strategies', 's.ts'),
    "import { defineStrategy } from 'tiqs-runner';\nimport { z } from 'zod';\nimport { fast } from './lib/helper.ts';\nexport default defineStrategy({ name: 's', params: z.object({}), setup: () => fast });\n",
  );
  writeFileSync(join(root, 'strategies', 'lib', 'helper.ts'), 'export const fast = 5;\n');
  writeFileSync(join(root, 'strategies', 'unused.ts'), 'export const x = 1;\n');
  writeFileSync(join(root, 'backtests', 'spec.yaml'), SPEC);
  return root;
}

const versionOf = (root: string, text = SPEC) =>
  codeVersion(parseBacktestSpec(text, join(root, 'backtests', 'spec.yaml'), {}));

const { version } = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8'),
) as { version: string };

describe('codeVersion', () => {
  it('is the package version plus a 16-hex digest, stable, and the same wherever the checkout sits', async () => {
    const root = project();
    const v = await versionOf(root);
    expect(v).toMatch(new RegExp(`^${version.replaceAll('.', '\\.')}\\+[0-9a-f]{16}$`));
    expect(await versionOf(root)).toBe(v);
    const elsewhere = join(temp('q1-other-'), 'checkout');
    cpSync(root, elsewhere, { recursive: true });
    expect(await versionOf(elsewhere)).toBe(v);
  });

  it('changes with the strategy and the local files it imports, not with other files', async () => {
    const root = project();
    const v = await versionOf(root);
    writeFileSync(join(root, 'strategies', 'unused.ts'), 'export const x = 2;\n');
    writeFileSync(join(root, 'backtests', 'notes.txt'), 'hello');
    expect(await versionOf(root)).toBe(v);

    writeFileSync(join(root, 'strategies', 'lib', 'helper.ts'), 'export const fast = 6;\n');
    const afterHelper = await versionOf(root);
    expect(afterHelper).not.toBe(v);

    const entry = join(root, 'strategies', 's.ts');
    writeFileSync(entry, `${readFileSync(entry, 'utf8')}// edited\n`);
    expect(await versionOf(root)).not.toBe(afterHelper);
  });

  it('finds the imports again when a file added beside one changes how it resolves', async () => {
    // The import graph is remembered by its files' and folders' identities: a new file in
    // a folder of the graph moves the folder's, so the graph is taken again.
    // Checked to fail: stamping the files alone (not their folders) kept the old graph.
    const root = project();
    const entry = join(root, 'strategies', 's.ts');
    writeFileSync(entry, "import { fast } from './lib/extra';\nexport default fast;\n");
    writeFileSync(join(root, 'strategies', 'lib', 'extra.ts'), 'export const fast = 1;\n');
    // The graph is remembered only for files settled 2 s before it was read: move the
    // clock on, so the memo (and its stamp) is what the second read goes through.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10_000);
    const v = await versionOf(root);
    expect(await versionOf(root)).toBe(v);
    // esbuild tries .tsx before .ts: the same import now names another file.
    writeFileSync(join(root, 'strategies', 'lib', 'extra.tsx'), 'export const fast = 2;\n');
    expect(await versionOf(root)).not.toBe(v);
    vi.useRealTimers();
  });

  it('covers every strategy of the spec', async () => {
    const root = project();
    writeFileSync(join(root, 'strategies', 't.ts'), 'export default 1;\n');
    const two = `${SPEC}  - id: t\n    module: ../strategies/t.ts\n    params: {}\n`;
    const v = await versionOf(root, two);
    expect(v).not.toBe(await versionOf(root));
    writeFileSync(join(root, 'strategies', 't.ts'), 'export default 2;\n');
    expect(await versionOf(root, two)).not.toBe(v);
  });

  it('fails clearly when a strategy imports a file that is not there', async () => {
    const root = project();
    writeFileSync(join(root, 'strategies', 's.ts'), "import './missing.ts';\n");
    const err = await versionOf(root).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CodeVersionError);
    expect((err as Error).message).toContain('spec.yaml');
    expect((err as Error).cause).toBeDefined();
  });

  it("takes this repository's own strategies (importing the framework's sources)", async () => {
    const repo = join(import.meta.dirname, '..', '..', '..');
    const spec = join(repo, 'backtests', 'opening-range-breakout.yaml');
    const v = await codeVersion(parseBacktestSpec(readFileSync(spec, 'utf8'), spec, {}));
    expect(v).toMatch(/^\d+\.\d+\.\d+.*\+[0-9a-f]{16}$/);
  });
});

describe('checkBuildFresh', () => {
  /** A package folder: src/ with one source and one test, dist/ stamped at `stampAt` (s). */
  function built(stampAt: number | undefined, sourceAt: number, under = ''): string {
    const root = join(temp('f1-build-'), under);
    mkdirSync(join(root, 'src', 'x'), { recursive: true });
    mkdirSync(join(root, 'dist', 'bundle'), { recursive: true });
    writeFileSync(join(root, 'src', 'x', 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'src', 'x', 'a.test.ts'), 'newer, but a test\n');
    utimesSync(join(root, 'src', 'x', 'a.ts'), sourceAt, sourceAt);
    utimesSync(join(root, 'src', 'x', 'a.test.ts'), 4e9, 4e9);
    if (stampAt !== undefined) {
      writeFileSync(join(root, 'dist', '.build-stamp'), 'stamp\n');
      utimesSync(join(root, 'dist', '.build-stamp'), stampAt, stampAt);
    }
    return root;
  }

  it('passes a build stamped after every source (tests aside)', () => {
    const root = built(2e9, 1e9);
    expect(() => checkBuildFresh(root, join(root, 'dist', 'bundle', 'main.js'))).not.toThrow();
  });

  it('refuses dist/ (or its bundle) older than a source, or never stamped: run npm run build', () => {
    const stale = built(1e9, 2e9);
    for (const running of ['dist/bundle/main.js', 'dist/backtest/queue/code-version.js'])
      expect(() => checkBuildFresh(stale, join(stale, running))).toThrow(
        /older than its sources.*npm run build/,
      );
    const unstamped = built(undefined, 1e9);
    expect(() => checkBuildFresh(unstamped, join(unstamped, 'dist', 'cli', 'main.js'))).toThrow(
      StaleBuildError,
    );
    expect(new StaleBuildError('x')).toBeInstanceOf(CodeVersionError);
  });

  it('passes an installed package, which ships no stamp (final review: npm-installed workers exited 3)', () => {
    // Checked to fail: without the node_modules rule this threw StaleBuildError.
    const installed = built(undefined, 1e9, join('node_modules', 'tiqs-runner'));
    expect(() =>
      checkBuildFresh(installed, join(installed, 'dist', 'cli', 'main.js')),
    ).not.toThrow();
  });

  it('does not apply to code running from src/ (vitest)', () => {
    const stale = built(1e9, 2e9);
    expect(() => checkBuildFresh(stale, join(stale, 'src', 'x', 'a.ts'))).not.toThrow();
  });
});
