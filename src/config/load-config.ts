import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { zodPath } from '../api/zod-path.ts';
import { ConfigError, type ConfigProblem } from './config-error.ts';
import { type RunnerConfig, runnerConfigSchema } from './config-schema.ts';
import { isLoopbackUrl } from './is-loopback-url.ts';
import { resolveConfigPaths } from './resolve-config-paths.ts';
import { findUnknownKeys } from './schema-walk.ts';
import { substituteEnv } from './substitute-env.ts';
import { unknownKeyMessage } from './suggest-key.ts';
import { PARAM_PLACEHOLDERS, typeWholeValues } from './typed-placeholders.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Keys that existed once: a config still naming one is told what replaced it. */
const REMOVED_KEYS: Readonly<Record<string, string>> = {
  'execution.cancelOpenOrdersOnShutdown':
    'removed; use execution.onShutdown: cancel-entries (the default: cancels working entry orders, keeps positions and their stops), flatten or leave',
};

/** YAML text to a plain tree, without letting an alias bomb expand. */
export function yamlTree(text: string, file: string): unknown {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    throw new ConfigError(
      file,
      doc.errors.map((e) => ({
        path: '',
        message: `YAML syntax at line ${e.linePos?.[0]?.line ?? '?'}, column ${e.linePos?.[0]?.col ?? '?'}: ${(e.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')}`,
      })),
    );
  }
  try {
    // The yaml package refuses aliases that would expand past its limit (a "billion
    // laughs" file); no config needs that many.
    return doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw new ConfigError(
      file,
      [{ path: '', message: `YAML aliases expand too much (${(err as Error).message})` }],
      { cause: err },
    );
  }
}

/**
 * The problems of a parsed tree: every unknown key, at any depth, naming the nearest
 * valid one (plain `z.object`s nested in the schema count as strict too), then zod's
 * other issues.
 */
function problemsOf(
  schema: z.core.$ZodType,
  raw: unknown,
  issues: readonly z.core.$ZodIssue[],
): ConfigProblem[] {
  const unknown = findUnknownKeys(schema, raw).map(({ path, key, valid }) => {
    const at = zodPath('', [...path, key]).replace(/^\./, '');
    return { path: at, message: REMOVED_KEYS[at] ?? unknownKeyMessage(key, valid) };
  });
  const others = issues
    // zod's own unknown-key issues repeat the walk's, without the suggestion.
    .filter((issue) => unknown.length === 0 || issue.code !== 'unrecognized_keys')
    .map((issue) => ({ path: zodPath('', issue.path).replace(/^\./, ''), message: issue.message }));
  return [...unknown, ...others];
}

/**
 * Parses and validates config text against `schema` (the runner config or an extension
 * of it, such as a backtest spec). Unknown keys are errors; `${NAME}` placeholders are
 * substituted and typed; relative paths are made absolute against the file's folder.
 * Throws {@link ConfigError} naming `file`, each field path and what was expected.
 */
export function parseConfigWith<T extends RunnerConfig>(
  schema: z.ZodType<T>,
  text: string,
  file: string,
  env: Env = process.env,
): T {
  const tree = yamlTree(text, file);
  const problems: ConfigProblem[] = [];
  const { value: raw, wholeValuePaths } = substituteEnv(tree, env, problems);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError(file, [{ path: '', message: 'expected a YAML mapping' }]);
  }
  const untyped = typeWholeValues(schema, raw, wholeValuePaths);
  // Parsed once: zod's compiled fast path would cost more to build (≈ 7 ms of a cold
  // start) than it saves.
  const parsed = schema.safeParse(raw, { jitless: true });
  // A field whose placeholder is already reported needs no second, vaguer complaint.
  const reported = new Set(problems.map((p) => p.path));
  problems.push(
    ...problemsOf(schema, raw, parsed.success ? [] : parsed.error.issues).filter(
      (p) => !reported.has(p.path),
    ),
  );
  if (problems.length > 0 || !parsed.success) throw new ConfigError(file, problems);
  const config = parsed.data;
  checkConsistency(config, problems);
  if (problems.length > 0) throw new ConfigError(file, problems);
  // A strategy's params are typed later, by the strategy's own schema.
  config.strategies.forEach((s, i) => {
    const paths = untyped
      .filter((p) => p[0] === 'strategies' && p[1] === i && p[2] === 'params')
      .map((p) => p.slice(3));
    if (paths.length > 0) Object.assign(s.params, { [PARAM_PLACEHOLDERS]: paths });
  });
  return resolveConfigPaths(config, file) as T;
}

/** Rules across fields that the schema alone cannot say. */
function checkConsistency(config: RunnerConfig, problems: ConfigProblem[]): void {
  const ids = new Set<string>();
  config.strategies.forEach((s, i) => {
    if (ids.has(s.id))
      problems.push({ path: `strategies[${i}].id`, message: `duplicate id "${s.id}"` });
    ids.add(s.id);
  });
  // Live mode against the embedded simulator is allowed: it is how the engine is tested.
  if (config.broker.baseUrl === 'embedded') return;
  if (config.broker.token === undefined && config.broker.tokenFile === undefined) {
    problems.push({
      path: 'broker.token',
      message: 'expected a token or tokenFile when baseUrl is not "embedded"',
    });
  }
  if (config.broker.appId === undefined) {
    problems.push({
      path: 'broker.appId',
      message: 'expected an appId when baseUrl is not "embedded"',
    });
  }
  const { start, anchor, speed } = config.broker.sim;
  if (
    (start !== undefined || anchor !== undefined || speed !== 1) &&
    !isLoopbackUrl(config.broker.baseUrl)
  ) {
    // A real broker is never traded on a make-believe clock.
    problems.push({
      path: 'broker.sim',
      message:
        'start, speed and anchor scale the market clock: allowed with "embedded" or a loopback baseUrl (a local simulator) only',
    });
  }
}

/** Parses and validates runner config text; see {@link parseConfigWith}. */
export function parseConfig(text: string, file: string, env: Env = process.env): RunnerConfig {
  return parseConfigWith(runnerConfigSchema, text, file, env);
}

/** Reads a config file's text; a missing or unreadable file is a {@link ConfigError}. */
export async function readConfigText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new ConfigError(
      file,
      [
        {
          path: '',
          message: code === 'ENOENT' ? 'file not found' : `cannot read (${code ?? 'error'})`,
        },
      ],
      { cause: err },
    );
  }
}

/** Reads, substitutes `${ENV}` in, and validates a YAML config file. */
export async function loadConfig(file: string, env: Env = process.env): Promise<RunnerConfig> {
  return parseConfig(await readConfigText(file), file, env);
}
