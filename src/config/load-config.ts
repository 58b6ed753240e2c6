import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { zodPath } from '../api/zod-path.ts';
import { ConfigError, type ConfigProblem } from './config-error.ts';
import { type RunnerConfig, runnerConfigSchema } from './config-schema.ts';
import { substituteEnv } from './substitute-env.ts';

/**
 * Parses and validates config text. Throws {@link ConfigError} naming `file`, each field
 * path and what was expected.
 */
export function parseConfig(
  text: string,
  file: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): RunnerConfig {
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
  const problems: ConfigProblem[] = [];
  const raw = substituteEnv(doc.toJS(), env, problems);
  if (raw === null || typeof raw !== 'object') {
    throw new ConfigError(file, [{ path: '', message: 'expected a YAML mapping' }]);
  }
  const parsed = runnerConfigSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push({ path: zodPath('', issue.path).replace(/^\./, ''), message: issue.message });
    }
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(file, problems);
  const config = parsed.data;
  const ids = new Set<string>();
  config.strategies.forEach((s, i) => {
    if (ids.has(s.id))
      problems.push({ path: `strategies[${i}].id`, message: `duplicate id "${s.id}"` });
    ids.add(s.id);
  });
  if (
    config.broker.baseUrl !== 'embedded' &&
    config.broker.token === undefined &&
    config.broker.tokenFile === undefined
  ) {
    problems.push({
      path: 'broker.token',
      message: 'expected a token or tokenFile when baseUrl is not "embedded"',
    });
  }
  if (config.broker.baseUrl !== 'embedded' && config.broker.appId === undefined) {
    problems.push({
      path: 'broker.appId',
      message: 'expected an appId when baseUrl is not "embedded"',
    });
  }
  if (config.mode === 'live' && config.broker.baseUrl === 'embedded') {
    // Allowed: live mode against the embedded simulator is how the engine is tested.
  }
  if (problems.length > 0) throw new ConfigError(file, problems);
  return config;
}

/** Reads, substitutes `${ENV}` in, and validates a YAML config file. */
export async function loadConfig(
  file: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<RunnerConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
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
      {
        cause: err,
      },
    );
  }
  return parseConfig(text, file, env);
}
