#!/usr/bin/env node
/**
 * Imports only go down (issue 12). Reads the import graph of `src/` with madge (type-only
 * imports included: a type import still ties one layer's vocabulary to another's) and fails
 * with the offending paths on:
 *
 * 1. any cycle between files;
 * 2. any cycle between the folders directly under `src/` (`execution ↔ strategy`,
 *    `backtest ↔ runtime`, …), even when no two files form one;
 * 3. any import that goes up the layer order of `LAYERS` below, or across two folders that
 *    sit beside each other on one layer.
 *
 * Folder edges leave out `*.test.ts` files, and only those. A test is a leaf: nothing imports
 * it and it is not shipped, so it can never make the shipped modules load in a circle; and a
 * test may rightly reach up to drive its unit with a real collaborator (a runtime test that
 * runs a backtest, a client test against the simulator). Helpers that tests share
 * (`testing/`, `test-support/`) are modules like any other and are checked.
 *
 * Usage: `node scripts/check-imports.mjs` (npm run check:imports); exit 1 on a finding.
 */
import madge from 'madge';

/**
 * The layer of each folder under `src/`, lowest first: a file may import from its own folder
 * and from folders on a lower layer. Folders on one layer are beside each other and import
 * neither way. `index.ts` is the root file (the strategy door); `entries/` holds the other
 * doors. A new folder fails the check until it is given a layer here.
 */
const LAYERS = [
  ['domain'],
  ['clock'],
  ['api'],
  ['calendar', 'config', 'logging'],
  ['market-data'],
  ['strategy'],
  ['execution', 'sim'],
  ['paper', 'recording'],
  ['runtime'],
  ['ops'],
  ['backtest'],
  ['cli'],
  ['entries', 'index.ts'],
];

const layerOf = new Map(LAYERS.flatMap((names, layer) => names.map((n) => [n, layer])));

/** `src/market-data/ingest.ts` → `market-data`; `src/index.ts` → `index.ts`. */
const folderOf = (file) => file.split('/')[1];

/** Cycles in a directed graph (Tarjan's strongly connected components of size > 1). */
function cyclicGroups(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return groups;
}

const result = await madge('src', {
  baseDir: '.',
  fileExtensions: ['ts'],
  tsConfig: 'tsconfig.json',
  detectiveOptions: { ts: { skipTypeImports: false } },
});
const files = result.obj();
const problems = [];

// A relative import madge cannot resolve would hide an edge; a package it cannot resolve
// (a subpath export such as `tsx/esm/api`) is outside src/ and cannot close a cycle.
const unresolved = result.warnings().skipped.filter((dep) => dep.startsWith('.'));
if (unresolved.length > 0) problems.push(`unresolved imports: ${unresolved.join(', ')}`);

for (const cycle of result.circular())
  problems.push(`file cycle: ${[...cycle, cycle[0]].join(' → ')}`);

/** Folder → folder → the file imports that make the edge (tests left out, see above). */
const folderEdges = new Map();
for (const [file, deps] of Object.entries(files)) {
  // Tests are leaves, and a test's helpers outside src/ (test/helpers/) are not layered.
  if (file.endsWith('.test.ts') || !file.startsWith('src/')) continue;
  const from = folderOf(file);
  if (!layerOf.has(from)) problems.push(`${file}: folder src/${from} has no layer in LAYERS`);
  for (const dep of deps) {
    const to = folderOf(dep);
    if (!dep.startsWith('src/') || to === from) continue;
    const targets = folderEdges.get(from) ?? new Map();
    folderEdges.set(from, targets);
    targets.set(to, [...(targets.get(to) ?? []), `${file} → ${dep}`]);
  }
}

const graph = new Map([...folderEdges].map(([from, targets]) => [from, [...targets.keys()]]));
for (const group of cyclicGroups(graph)) {
  // The imports that go up or sideways close the cycle; name those (the rest go down).
  const upward = (from, to) => (layerOf.get(to) ?? -1) >= (layerOf.get(from) ?? -1);
  const edges = group.flatMap((from) =>
    group.flatMap((to) =>
      upward(from, to) ? (folderEdges.get(from)?.get(to)?.slice(0, 3) ?? []) : [],
    ),
  );
  problems.push(`folder cycle: ${group.join(' ↔ ')}\n    ${edges.join('\n    ')}`);
}

for (const [from, targets] of folderEdges) {
  for (const [to, imports] of targets) {
    const a = layerOf.get(from);
    const b = layerOf.get(to);
    if (a === undefined || b === undefined || b < a) continue;
    const how = a === b ? 'sits beside' : 'is above';
    problems.push(`src/${from} imports src/${to}, which ${how} it:\n    ${imports.join('\n    ')}`);
  }
}

if (problems.length > 0) {
  console.error(`check-imports: ${problems.length} problem(s)\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `check-imports: ${Object.keys(files).length} files, no file or folder cycle, imports go down`,
);
