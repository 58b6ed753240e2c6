import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProjectRootError, projectRoot } from '../../../src/backtest/queue/project-root.ts';

const made: string[] = [];
/** A fresh temp folder, removed after the file's tests. */
function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('projectRoot', () => {
  const top = temp('q1-root-');
  const project = join(top, 'bot');
  mkdirSync(join(project, 'backtests', 'specs'), { recursive: true });
  writeFileSync(join(project, 'package.json'), '{}');
  writeFileSync(join(project, 'backtests', 'specs', 'sma.yaml'), 'x: 1');

  it('is the folder of the nearest package.json above a file', () => {
    expect(projectRoot(join(project, 'backtests', 'specs', 'sma.yaml'))).toBe(project);
  });

  it('starts at a folder itself, and at a path not yet written', () => {
    expect(projectRoot(project)).toBe(project);
    expect(projectRoot(join(project, 'backtests', 'new.yaml'))).toBe(project);
  });

  it('is this repository for its own specs', () => {
    expect(projectRoot(join(import.meta.dirname, 'project-root.test.ts'))).toBe(
      join(import.meta.dirname, '..', '..', '..'),
    );
  });

  it('fails clearly outside any project', () => {
    expect(() => projectRoot(join(top, 'loose.yaml'))).toThrow(ProjectRootError);
  });
});
