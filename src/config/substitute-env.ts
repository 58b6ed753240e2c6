import { zodPath } from '../api/zod-path.ts';
import type { ConfigProblem } from './config-error.ts';

/** `${NAME}` or `${NAME:-default}`, matched where a `${` starts. */
const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/y;
const MALFORMED =
  'expected ${NAME} or ${NAME:-default} (NAME: letters, digits and _, not starting with a digit; write $${ for a literal ${)';

/** A field path in a parsed YAML tree. */
export type TreePath = PropertyKey[];

/** What {@link substituteEnv} found besides problems. */
export interface Substitution {
  /** Values substituted into the tree. */
  value: unknown;
  /**
   * Paths of values that were exactly one placeholder (`speed: ${SIM_SPEED:-30}`). Only
   * these may take a number or boolean type, and only where the schema wants one.
   */
  wholeValuePaths: TreePath[];
}

const display = (path: TreePath): string => zodPath('', path).replace(/^\./, '');

/** Substitutes one string; a malformed placeholder is reported and ends the scan. */
function substituteString(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  problems: ConfigProblem[],
  path: TreePath,
): { text: string; whole: boolean } {
  let out = '';
  let i = 0;
  let count = 0;
  let whole = false;
  while (i < text.length) {
    const start = text.indexOf('${', i);
    if (start < 0) {
      out += text.slice(i);
      break;
    }
    if (start > 0 && text[start - 1] === '$') {
      // `$${` is a literal `${`: drop the escaping `$`.
      out += `${text.slice(i, start - 1)}\${`;
      i = start + 2;
      continue;
    }
    out += text.slice(i, start);
    PLACEHOLDER.lastIndex = start;
    const m = PLACEHOLDER.exec(text);
    const name = m?.[1];
    const fallback = m?.[2];
    if (m === null || name === undefined || fallback?.includes('${') === true) {
      const head = text.slice(start, start + 40);
      const close = head.indexOf('}');
      const shown = close < 0 ? head : head.slice(0, close + 1);
      problems.push({
        path: display(path),
        message: `malformed placeholder "${shown}": ${MALFORMED}`,
      });
      return { text: out, whole: false };
    }
    const value = env[name];
    if (value !== undefined && value !== '') out += value;
    else if (fallback !== undefined) out += fallback;
    else problems.push({ path: display(path), message: `environment variable ${name} is not set` });
    count++;
    whole = start === 0 && m[0].length === text.length;
    i = start + m[0].length;
  }
  return { text: out, whole: whole && count === 1 };
}

/**
 * Replaces `${NAME}` and `${NAME:-default}` in every string of a parsed YAML tree. Done
 * after parsing, so a value can never change the YAML's structure. A malformed
 * placeholder and an unset variable without a default are reported by path; values are
 * never echoed (they may be secrets).
 */
export function substituteEnv(
  node: unknown,
  env: Readonly<Record<string, string | undefined>>,
  problems: ConfigProblem[],
): Substitution {
  const wholeValuePaths: TreePath[] = [];
  const walk = (n: unknown, path: TreePath): unknown => {
    if (typeof n === 'string') {
      const r = substituteString(n, env, problems, path);
      if (r.whole) wholeValuePaths.push(path);
      return r.text;
    }
    if (Array.isArray(n)) return n.map((v, i) => walk(v, [...path, i]));
    if (n !== null && typeof n === 'object') {
      return Object.fromEntries(Object.entries(n).map(([k, v]) => [k, walk(v, [...path, k])]));
    }
    return n;
  };
  return { value: walk(node, []), wholeValuePaths };
}
