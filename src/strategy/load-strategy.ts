import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { zodPath } from '../api/zod-path.ts';
import type { StrategyDefinition } from './define-strategy.ts';

/** A strategy module could not be loaded, or its params are invalid. */
export class StrategyLoadError extends Error {
  override name = 'StrategyLoadError';
}

/** A loaded strategy with its validated params. */
export interface LoadedStrategy {
  id: string;
  file: string;
  definition: StrategyDefinition;
  params: unknown;
}

/**
 * Imports a strategy module (TypeScript runs through tsx), checks that its default
 * export is a strategy definition, and validates `overrides` against its params schema.
 * Errors name the strategy id, the file and each param path.
 */
export async function loadStrategy(
  id: string,
  modulePath: string,
  overrides: Record<string, unknown>,
  baseDir: string,
): Promise<LoadedStrategy> {
  const file = isAbsolute(modulePath) ? modulePath : resolve(baseDir, modulePath);
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (err) {
    const reason =
      (err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND'
        ? 'module not found'
        : (err as Error).message;
    throw new StrategyLoadError(`strategy "${id}" (${file}): cannot load: ${reason}`, {
      cause: err,
    });
  }
  const definition = mod.default;
  if (!isDefinition(definition)) {
    throw new StrategyLoadError(
      `strategy "${id}" (${file}): the default export must be defineStrategy({ name, params, setup })`,
    );
  }
  const parsed = definition.params.safeParse(overrides);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `params${zodPath('', i.path)}: ${i.message}`);
    throw new StrategyLoadError(`strategy "${id}" (${file}): ${problems.join('; ')}`);
  }
  return { id, file, definition, params: parsed.data };
}

function isDefinition(value: unknown): value is StrategyDefinition {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.name === 'string' && typeof v.setup === 'function' && v.params instanceof z.ZodType
  );
}
