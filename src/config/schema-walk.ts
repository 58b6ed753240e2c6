import { z } from 'zod';

/** A zod schema seen through its definition (zod 4's `_zod.def`), which is all we read. */
type Schema = z.core.$ZodType;
type Path = readonly PropertyKey[];

interface Def {
  type: string;
  innerType?: Schema;
  in?: Schema;
  getter?: () => Schema;
  options?: readonly Schema[];
  shape?: Record<string, Schema>;
  catchall?: Schema;
  element?: Schema;
  valueType?: Schema;
  items?: readonly Schema[];
  values?: readonly unknown[];
}

const defOf = (s: Schema): Def => s._zod.def as unknown as Def;

/**
 * The schemas a value is checked against once wrappers are removed (optional, default,
 * pipe, …); a union gives each of its options.
 */
function baseSchemas(schema: Schema): Schema[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'nonoptional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'success':
      return def.innerType === undefined ? [schema] : baseSchemas(def.innerType);
    case 'pipe':
      return def.in === undefined ? [schema] : baseSchemas(def.in);
    case 'lazy':
      return def.getter === undefined ? [schema] : baseSchemas(def.getter());
    case 'union':
      return (def.options ?? []).flatMap(baseSchemas);
    default:
      return [schema];
  }
}

/** True for an object schema that drops or rejects keys it does not name (not loose). */
function isClosedObject(def: Def): boolean {
  return def.catchall === undefined || defOf(def.catchall).type === 'never';
}

function childSchemas(schema: Schema, key: PropertyKey): Schema[] {
  return baseSchemas(schema).flatMap((base) => {
    const def = defOf(base);
    if (def.type === 'object' && def.shape !== undefined) {
      const named = typeof key === 'string' ? def.shape[key] : undefined;
      if (named !== undefined) return [named];
      return isClosedObject(def) || def.catchall === undefined ? [] : [def.catchall];
    }
    if (def.type === 'array' && typeof key === 'number' && def.element !== undefined)
      return [def.element];
    if (def.type === 'tuple' && typeof key === 'number') {
      const item = def.items?.[key];
      return item === undefined ? [] : [item];
    }
    if (def.type === 'record' && typeof key === 'string' && def.valueType !== undefined)
      return [def.valueType];
    return [];
  });
}

/** Every schema that may check the value at `path` (several where unions meet). */
function schemasAt(schema: Schema, path: Path): Schema[] {
  let current: Schema[] = [schema];
  for (const key of path) current = current.flatMap((s) => childSchemas(s, key));
  return current;
}

/** Whether the value at `path` may be a number and whether it may be a boolean. */
export function scalarKindsAt(schema: Schema, path: Path): { number: boolean; boolean: boolean } {
  const leaves = schemasAt(schema, path).flatMap(baseSchemas).map(defOf);
  const literal = (kind: string) =>
    leaves.some((d) => d.type === 'literal' && (d.values ?? []).some((v) => typeof v === kind));
  return {
    number: leaves.some((d) => d.type === 'number') || literal('number'),
    boolean: leaves.some((d) => d.type === 'boolean') || literal('boolean'),
  };
}

/** A key an object schema does not name. */
export interface UnknownKey {
  /** Path of the object holding the key. */
  path: PropertyKey[];
  key: string;
  /** The keys that object may have. */
  valid: string[];
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Keys of `input` that its schema does not name, at any depth. Plain `z.object` counts as
 * strict here (zod would silently drop the key, which hides a typo); an object declared
 * loose (`z.looseObject`, `.catchall(…)`) accepts any key. Where a union offers several
 * object shapes, the one that fits best is used.
 */
export function findUnknownKeys(
  schema: Schema,
  input: unknown,
  path: PropertyKey[] = [],
): UnknownKey[] {
  if (Array.isArray(input)) {
    return input.flatMap((item, i) =>
      childSchemas(schema, i).flatMap((s) => findUnknownKeys(s, item, [...path, i])),
    );
  }
  if (!isPlainObject(input)) return [];
  const bases = baseSchemas(schema).filter((base) =>
    ['object', 'record'].includes(defOf(base).type),
  );
  if (bases.length === 1 && bases[0] !== undefined) return unknownIn(bases[0], input, path);
  // A union: the member with the fewest unknown keys, then the fewest other complaints
  // (so `{ kind: 'delta', dleta: 1 }` is measured against the `delta` member).
  const scored = bases.map((base) => ({
    unknown: unknownIn(base, input, path),
    issues: z.safeParse(base, input).error?.issues.length ?? 0,
  }));
  const best = scored.reduce<(typeof scored)[number] | undefined>(
    (b, c) =>
      b === undefined ||
      c.unknown.length < b.unknown.length ||
      (c.unknown.length === b.unknown.length && c.issues < b.issues)
        ? c
        : b,
    undefined,
  );
  return best?.unknown ?? [];
}

function unknownIn(
  base: Schema,
  input: Record<string, unknown>,
  path: PropertyKey[],
): UnknownKey[] {
  const def = defOf(base);
  if (def.type === 'record' && def.valueType !== undefined) {
    const valueType = def.valueType;
    return Object.entries(input).flatMap(([k, v]) => findUnknownKeys(valueType, v, [...path, k]));
  }
  if (def.type !== 'object' || def.shape === undefined) return [];
  const shape = def.shape;
  const valid = Object.keys(shape);
  return Object.entries(input).flatMap(([k, v]): UnknownKey[] => {
    const named = shape[k];
    if (named !== undefined) return findUnknownKeys(named, v, [...path, k]);
    if (isClosedObject(def)) return [{ path, key: k, valid }];
    return def.catchall === undefined ? [] : findUnknownKeys(def.catchall, v, [...path, k]);
  });
}
