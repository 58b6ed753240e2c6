import type { z } from 'zod';
import { scalarKindsAt } from './schema-walk.ts';
import type { TreePath } from './substitute-env.ts';

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Gives whole-value placeholders (`speed: ${SIM_SPEED:-30}`) the type the schema wants:
 * a number where it takes a number and the text is one, a boolean where it takes a
 * boolean and the text is `true` or `false`. Anything else stays text, for the schema to
 * judge. Mutates `tree` (the fresh copy made by substitution). Returns the paths the
 * schema could not type (e.g. under a free-form record), for a later, better-informed
 * schema: a strategy's params.
 */
export function typeWholeValues(
  schema: z.core.$ZodType,
  tree: unknown,
  paths: readonly TreePath[],
): TreePath[] {
  const untyped: TreePath[] = [];
  for (const path of paths) {
    const parent = path
      .slice(0, -1)
      .reduce<unknown>(
        (node, key) => (node as Record<PropertyKey, unknown> | undefined)?.[key],
        tree,
      );
    const key = path[path.length - 1];
    if (parent === null || typeof parent !== 'object' || key === undefined) continue;
    const holder = parent as Record<PropertyKey, unknown>;
    const text = holder[key];
    if (typeof text !== 'string') continue;
    const kinds = scalarKindsAt(schema, path);
    if (kinds.number && NUMBER.test(text.trim())) holder[key] = Number(text);
    else if (kinds.boolean && (text === 'true' || text === 'false')) holder[key] = text === 'true';
    else if (!kinds.number && !kinds.boolean) untyped.push(path);
  }
  return untyped;
}

/**
 * Marks a strategy's `params` object with the paths (relative to it) of its whole-value
 * placeholders, so the strategy loader can type them with the strategy's own schema. A
 * symbol key: invisible to JSON and to the strategy, kept by object spread.
 */
export const PARAM_PLACEHOLDERS: unique symbol = Symbol('tiqs-runner.paramPlaceholders');

/** The whole-value placeholder paths marked on a params object, if any. */
export function paramPlaceholdersOf(params: object): readonly TreePath[] {
  return (params as { [PARAM_PLACEHOLDERS]?: TreePath[] })[PARAM_PLACEHOLDERS] ?? [];
}
