import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { zodPath } from '../api/zod-path.ts';
import { ConfigError, type ConfigProblem } from './config-error.ts';
import { readConfigText, yamlTree } from './load-config.ts';
import { substituteEnv } from './substitute-env.ts';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The two fields a journal reader needs, with the runner schema's own rules: the other
 * keys are left to `run` and `validate` (a reader of the journal must work on a box
 * without the broker's credentials).
 */
const journalFieldsSchema = z.object({
  mode: z.enum(['live', 'paper']),
  state: z.object({ dir: z.string().min(1).default('var/state') }).prefault({}),
});

/** Where a config's bot keeps its journal. */
export interface JournalConfig {
  mode: 'live' | 'paper';
  /** `state.dir`, absolute (relative to the config file's folder, as for `run`). */
  stateDir: string;
  /** The journal file the bot writes in this mode. */
  journalPath: string;
}

/**
 * Reads only what a journal reader (`tiqs-runner orders`, `positions`) needs from a
 * config: `mode` and `state.dir`. Placeholders elsewhere (`${TIQS_APP_ID}`,
 * `${TIQS_ACCESS_TOKEN}`) may be unset, and other sections are not validated; a problem in
 * `mode` or `state` is a {@link ConfigError} as from `loadConfig`.
 *
 * @example
 * ```ts
 * const { journalPath } = await loadJournalConfig('config/live.yaml'); // no credentials needed
 * ```
 */
export async function loadJournalConfig(
  file: string,
  env: Env = process.env,
): Promise<JournalConfig> {
  const tree = yamlTree(await readConfigText(file), file);
  if (tree === null || typeof tree !== 'object' || Array.isArray(tree))
    throw new ConfigError(file, [{ path: '', message: 'expected a YAML mapping' }]);
  const { mode, state } = tree as Record<string, unknown>;
  const problems: ConfigProblem[] = [];
  // Only these two are substituted: an unset variable elsewhere is no concern here.
  const { value } = substituteEnv({ mode, state }, env, problems);
  const parsed = journalFieldsSchema.safeParse(value);
  if (!parsed.success)
    problems.push(
      ...parsed.error.issues.map((issue) => ({
        path: zodPath('', issue.path).replace(/^\./, ''),
        message: issue.message,
      })),
    );
  if (problems.length > 0 || !parsed.success) throw new ConfigError(file, problems);
  const stateDir = resolve(dirname(resolve(file)), parsed.data.state.dir);
  const name = parsed.data.mode === 'live' ? 'journal.sqlite' : 'paper-journal.sqlite';
  return { mode: parsed.data.mode, stateDir, journalPath: join(stateDir, name) };
}
