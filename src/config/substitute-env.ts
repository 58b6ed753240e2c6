import type { ConfigProblem } from './config-error.ts';

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${NAME}` and `${NAME:-default}` in every string of a parsed YAML tree. Done
 * after parsing, so a value can never change the YAML's structure. Unset variables
 * without a default are reported by path; their values are never echoed.
 */
export function substituteEnv(
  node: unknown,
  env: Readonly<Record<string, string | undefined>>,
  problems: ConfigProblem[],
  path = '',
): unknown {
  if (typeof node === 'string') {
    return node.replace(PLACEHOLDER, (_m, name: string, fallback: string | undefined) => {
      const value = env[name];
      if (value !== undefined && value !== '') return value;
      if (fallback !== undefined) return fallback;
      problems.push({ path, message: `environment variable ${name} is not set` });
      return '';
    });
  }
  if (Array.isArray(node))
    return node.map((v, i) => substituteEnv(v, env, problems, `${path}[${i}]`));
  if (node !== null && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [
        k,
        substituteEnv(v, env, problems, path === '' ? k : `${path}.${k}`),
      ]),
    );
  }
  return node;
}
