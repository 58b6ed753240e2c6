import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** No `package.json` at or above a path: the spec is not inside a project checkout. */
export class ProjectRootError extends Error {
  override name = 'ProjectRootError';
  readonly from: string;

  constructor(from: string) {
    super(`no package.json at or above ${from}: a queued sweep needs the spec inside a project`);
    this.from = from;
  }
}

/**
 * The project a file or folder belongs to: the folder of the nearest `package.json` at or
 * above it (absolute). A submitter and a worker on another machine name the spec and the
 * strategies relative to it, so the same checkout resolves them alike wherever it sits.
 */
export function projectRoot(fromPath: string): string {
  const start = resolve(fromPath);
  let dir = existsSync(start) && statSync(start).isDirectory() ? start : dirname(start);
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new ProjectRootError(start);
    dir = up;
  }
}
