import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { zodPath } from '../api/zod-path.ts';
import { findUnknownKeys } from '../config/schema-walk.ts';
import { unknownKeyMessage } from '../config/suggest-key.ts';
import { paramPlaceholdersOf, typeWholeValues } from '../config/typed-placeholders.ts';
import type { StrategyDefinition } from './define-strategy.ts';
import { registerStrategyModuleHooks } from './strategy-module-hooks.ts';
import {
  compiledStrategy,
  ensureTypeScriptLoader,
  importCompiledStrategy,
  mapStackTraces,
} from './typescript-loader.ts';

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

/** Where a strategy sits in a config, for messages that name the config file. */
export interface StrategySource {
  /** The config file. */
  file: string;
  /** Index in its `strategies` list. */
  index: number;
}

/**
 * Imports a strategy module (TypeScript from the strategy cache, compiled by esbuild, or
 * else by tsx, loaded on first need), checks that its default
 * export is a strategy definition, and validates `overrides` against its params schema:
 * unknown keys at any depth are errors naming the nearest valid key, and whole-value
 * `${NAME}` placeholders take the type the schema wants. Errors name the strategy id,
 * the module file, each param path, and with `source` the config file and entry.
 */
export async function loadStrategy(
  id: string,
  modulePath: string,
  overrides: Record<string, unknown>,
  baseDir: string,
  source?: StrategySource,
): Promise<LoadedStrategy> {
  const file = isAbsolute(modulePath) ? modulePath : resolve(baseDir, modulePath);
  const where =
    source === undefined
      ? `strategy "${id}" (${file})`
      : `${source.file}: strategies[${source.index}] (strategy "${id}", ${file})`;
  let mod: { default?: unknown } | undefined;
  mapStackTraces();
  try {
    const compiled = await compiledStrategy(file);
    if (compiled !== undefined) {
      if (compiled.needsHooks) registerStrategyModuleHooks();
      mod = await importCompiledStrategy(file, compiled);
    }
    if (mod === undefined) {
      // tsx first: the strategy hooks must run before it (see registerStrategyModuleHooks).
      await ensureTypeScriptLoader(file);
      registerStrategyModuleHooks();
      mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
    }
  } catch (err) {
    // Not found may mean the file or something it imports: only the first is "not found".
    const reason = existsSync(file)
      ? ((err as Error).message ?? String(err)).split('\n')[0]
      : 'module not found';
    throw new StrategyLoadError(`${where}: cannot load: ${reason}`, { cause: err });
  }
  const definition = mod.default;
  if (!isDefinition(definition)) {
    throw new StrategyLoadError(
      `${where}: the default export must be defineStrategy({ name, params, setup })`,
    );
  }
  const input: Record<string, unknown> = structuredClone({ ...overrides });
  typeWholeValues(definition.params, input, paramPlaceholdersOf(overrides));
  const problems = findUnknownKeys(definition.params, input).map(
    ({ path, key, valid }) =>
      `params${zodPath('', [...path, key])}: ${unknownKeyMessage(key, valid)}`,
  );
  const parsed = definition.params.safeParse(input);
  if (!parsed.success) {
    for (const i of parsed.error.issues) {
      if (problems.length > 0 && i.code === 'unrecognized_keys') continue;
      problems.push(`params${zodPath('', i.path)}: ${i.message}`);
    }
  }
  if (problems.length > 0 || !parsed.success) {
    throw new StrategyLoadError(`${where}: ${problems.join('; ')}`);
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
