import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProjectRootError, projectRoot } from '../../../src/backtest/queue/project-root.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const temp = tempDirs();

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
