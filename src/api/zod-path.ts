/** Formats a zod issue path as `data[3].ltp`, prefixed with `root`. */
export function zodPath(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  return out;
}
