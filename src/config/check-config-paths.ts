import { constants, existsSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ConfigError, type ConfigProblem } from './config-error.ts';
import type { RunnerConfig } from './config-schema.ts';

/** Why a folder the bot must write into cannot be used, or `undefined` if it can. */
async function folderProblem(dir: string): Promise<string | undefined> {
  // Walk up to the nearest existing entry: that is where mkdir -p would start.
  let at = dir;
  for (;;) {
    const s = await stat(at).catch((err: unknown) => {
      const code = (err as { code?: string }).code;
      // ENOTDIR: an ancestor is a file; walking up finds and names it.
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw err;
    });
    if (s !== undefined) {
      if (!s.isDirectory()) {
        return at === dir
          ? `${dir} exists and is not a folder`
          : `cannot create ${dir}: ${at} is not a folder`;
      }
      const ok = await access(at, constants.W_OK | constants.X_OK).then(
        () => true,
        () => false,
      );
      if (ok) return undefined;
      return at === dir ? `${dir} is not writable` : `cannot create ${dir}: ${at} is not writable`;
    }
    const up = dirname(at);
    if (up === at) return `cannot create ${dir}`;
    at = up;
  }
}

/**
 * A live journal where the old path rule (relative to the config folder's parent) put
 * it, when the current rule finds none: starting without it would forget open orders
 * and reuse their tags, so the trader must say which folder is meant.
 */
function earlierJournal(config: RunnerConfig, file: string): string | undefined {
  if (config.mode !== 'live') return undefined;
  const base = dirname(resolve(file));
  const written = relative(base, config.state.dir);
  if (isAbsolute(written)) return undefined;
  const old = resolve(base, '..', written);
  const name = 'journal.sqlite';
  if (old === config.state.dir || existsSync(join(config.state.dir, name))) return undefined;
  return existsSync(join(old, name)) ? old : undefined;
}

/**
 * Checks, without creating anything, that the folders a run writes into (state, and
 * recording when enabled) can be created and written, and that a token file can be read.
 * `validate` and `run` call it before anything starts, so such a config fails with exit
 * 3 and the field path instead of failing half-way (or hanging) after start-up.
 * Expects a config whose paths are absolute (as {@link loadConfig} returns them).
 */
export async function checkConfigPaths(config: RunnerConfig, file: string): Promise<void> {
  const problems: ConfigProblem[] = [];
  const folder = async (path: string, dir: string) => {
    try {
      const problem = await folderProblem(dir);
      if (problem !== undefined) problems.push({ path, message: problem });
    } catch (err) {
      problems.push({
        path,
        message: `cannot check ${dir} (${(err as { code?: string }).code ?? 'error'})`,
      });
    }
  };
  await folder('state.dir', config.state.dir);
  const earlier = earlierJournal(config, file);
  if (earlier !== undefined) {
    problems.push({
      path: 'state.dir',
      message: `no journal at ${config.state.dir}, but earlier runs kept one at ${earlier} (paths were once relative to the config folder's parent); point state.dir at that folder so the bot knows its open orders`,
    });
  }
  if (config.recording.enabled) await folder('recording.dir', config.recording.dir);
  const { tokenFile } = config.broker;
  // Read at start only when it is the token's sole source; otherwise it may appear later.
  if (
    tokenFile !== undefined &&
    config.broker.baseUrl !== 'embedded' &&
    config.broker.token === undefined
  ) {
    const readable = await stat(tokenFile)
      .then(
        (s) => s.isFile() && access(tokenFile, constants.R_OK).then(() => true),
        () => false,
      )
      .catch(() => false);
    if (!readable) problems.push({ path: 'broker.tokenFile', message: `cannot read ${tokenFile}` });
  }
  if (problems.length > 0) throw new ConfigError(file, problems);
}
