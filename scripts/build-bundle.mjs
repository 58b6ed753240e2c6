// Builds the CLI's bundle: the CLI bundled by esbuild from the compiled dist/ modules, with
// the packages it imports, so a start reads a few dozen files instead of ≈ 800 (Node's
// loader pays per module file: the `run` command imported ≈ 200 dist/ files, rxjs's
// ≈ 220 CommonJS files, zod's 95, yaml's 70). Called by scripts/ensure-build.mjs after
// tsc; bin/tiqs-runner.js runs dist/<current>/main.js when it is at least as new as dist/.
//
// Each build goes to a folder of its own, dist/bundle-<build id>/, named current by
// dist/bundle-current once complete, and never rewritten: a process started from an
// earlier build keeps loading that build's chunks and entries (scripts/bundle-folders.mjs
// says when an old folder is removed).
//
// Layout: flat folders, two levels below the runner's root like dist/<dir>/x.js, so
// code that finds the runner's root or a sibling module from its own URL
// (`new URL('../../', import.meta.url)`, thread-pool.ts's `./sweep-worker.js`) works
// unchanged from any chunk. Entry files, with splitting so that every module exists once
// and a command is still loaded only when invoked (`--help` stays small):
// - main.js, the CLI; sweep-worker.js, the sweep thread;
// - index.js, runtime.js, client.js, sim.js, backtest.js: the public doors, for strategies
//   (src/strategy/framework-layout.ts lists them);
// - vendor-rxjs.js, vendor-zod.js, …: the bundle's one copy of the packages strategies
//   share with the framework (rxjs's ES-module build), which the strategy cache and the
//   strategy module hooks point a strategy's imports at.
// Packages stay external when their code is bound to its own location (`__dirname`,
// `import.meta`, `require.resolve`: worker files, Lua scripts, native addons), found by
// a first pass over the bundle's inputs, and those named in ALWAYS_EXTERNAL.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeFolder, newFolderName, publish, retireOld } from './bundle-folders.mjs';

/**
 * Native addons, compilers and loaders: never bundled. Nor grammy (Telegram alerts, loaded
 * only when configured): node-fetch under it checks its signal's class by name
 * (`AbortSignal`), which scope hoisting may rename (abort-controller's became
 * `AbortSignal2`); loaded from node_modules, grammy and its packages keep their names.
 */
const ALWAYS_EXTERNAL = ['better-sqlite3', 'esbuild', 'grammy', 'tsx', 'typescript'];
/**
 * Packages whose location-bound code this CLI never reaches: commander finds executable
 * subcommands (`program.command(name, description)`) by `__dirname`, which no command uses;
 * bullmq finds its sandboxed-processor scripts by `__filename`, and the queue worker runs
 * its jobs through a processor function on its own thread pool, never a processor file.
 * Bundled, bullmq loads without Node's CommonJS loader and export scan over its ≈ 60
 * files: the submitter's and the worker's queue module imports ≈ 70 ms sooner (310 → 236
 * ms, `node -e "await import(…backtest-queue-*.js)"`, six interleaved runs).
 */
const LOCATION_FREE = new Set(['commander', 'bullmq']);
/** A package file whose code depends on where it lies. */
const LOCATION_BOUND = /\b__dirname\b|\b__filename\b|\bimport\.meta\b|\brequire\.resolve\b/;
const VENDOR = 'tiqs-runner-vendor';

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageName(specifier) {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** The package a node_modules path belongs to. */
function packageOfPath(path) {
  const at = path.lastIndexOf('node_modules/');
  return at < 0 ? undefined : packageName(path.slice(at + 'node_modules/'.length));
}

/** The packages `name` (as installed in the runner's node_modules) depends on. */
function dependenciesOf(root, name) {
  try {
    const manifest = JSON.parse(
      readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'),
    );
    return Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  } catch {
    return [];
  }
}

/**
 * rxjs's ES-module build (its `es2015` export; under Node's conditions it is CommonJS,
 * which bundles as one eagerly evaluated closure per file), and each shared package
 * entry as a module re-exporting the package.
 */
function plugins(root) {
  const rxjs = JSON.parse(readFileSync(join(root, 'node_modules/rxjs/package.json'), 'utf8'));
  return [
    {
      name: 'tiqs-runner-bundle',
      setup(b) {
        b.onResolve({ filter: /^rxjs(\/.*)?$/ }, (args) => {
          const sub = args.path === 'rxjs' ? '.' : `./${args.path.slice('rxjs/'.length)}`;
          const target = rxjs.exports[sub]?.es2015;
          return target === undefined
            ? undefined
            : { path: join(root, 'node_modules/rxjs', target), sideEffects: false };
        });
        b.onResolve({ filter: new RegExp(`^${VENDOR}:`) }, (args) => ({
          path: args.path.slice(VENDOR.length + 1),
          namespace: VENDOR,
        }));
        b.onLoad({ filter: /.*/, namespace: VENDOR }, (args) => ({
          contents: `export * from ${JSON.stringify(args.path)};\n`,
          resolveDir: root,
          loader: 'js',
        }));
      },
    },
  ];
}

/**
 * Builds a new bundle folder from dist/ (tsc's output) and makes it current, stamped
 * `stamp` (the build's start); throws esbuild's error on failure (nothing made current,
 * the half-built folder removed).
 */
export async function buildBundle(root, stamp = Date.now()) {
  const layout = await import(pathToFileURL(join(root, 'dist/strategy/framework-layout.js')).href);
  const entryPoints = {
    main: join(root, 'dist/cli/main.js'),
    'sweep-worker': join(root, 'dist/backtest/sweep-worker.js'),
  };
  for (const [source, out] of Object.entries(layout.BUNDLE_FRAMEWORK_ENTRIES))
    entryPoints[out.replace(/\.js$/, '')] = join(root, 'dist', `${source}.js`);
  for (const [specifier, out] of Object.entries(layout.BUNDLE_PACKAGE_ENTRIES))
    entryPoints[out.replace(/\.js$/, '')] = `${VENDOR}:${specifier}`;
  const dist = join(root, 'dist');
  const name = newFolderName(stamp);
  const outdir = makeFolder(dist, name);
  const options = (external) => ({
    entryPoints,
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    outdir,
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    external,
    sourcemap: 'linked',
    // No keepNames: it wraps every function and class expression in a `__name()` call that
    // redefines its `name` each time it is created, which cost the replay about 15% of its
    // CPU (closures made per event). Scope hoisting renames only clashing names; the one
    // package that checked a class's name (node-fetch, under grammy) stays external.
    keepNames: false,
    metafile: true,
    logLevel: 'silent',
    plugins: plugins(root),
    // Bundled CommonJS code calls require() for Node's modules: give every chunk one.
    banner: {
      js: "import { createRequire as __tiqsCreateRequire } from 'node:module';\nconst require = __tiqsCreateRequire(import.meta.url);",
    },
  });
  try {
    return await buildInto(root, options, { outdir, dist, folder: name, stamp });
  } catch (err) {
    rmSync(outdir, { recursive: true, force: true });
    throw err;
  }
}

/** The two esbuild passes into `outdir`, then the folder made current. */
async function buildInto(root, options, { outdir, dist, folder, stamp }) {
  const { build } = await import('esbuild');
  // First pass, to a throwaway result: which packages are bound to their location.
  const probe = await build({ ...options(ALWAYS_EXTERNAL), write: false });
  const external = new Set(ALWAYS_EXTERNAL);
  const bundled = new Set();
  for (const input of Object.keys(probe.metafile.inputs)) {
    const name = packageOfPath(input);
    if (name === undefined || isBuiltin(name)) continue;
    bundled.add(name);
    if (external.has(name) || LOCATION_FREE.has(name)) continue;
    if (LOCATION_BOUND.test(readFileSync(resolve(root, input), 'utf8'))) external.add(name);
  }
  // An external package loads its own dependencies from node_modules: the framework must
  // share those copies (ioredis handed to bullmq), so those it would bundle are external too.
  for (const name of external) {
    for (const dep of dependenciesOf(root, name)) if (bundled.has(dep)) external.add(dep);
  }
  for (const kept of ['rxjs', 'zod'])
    if (external.has(kept)) throw new Error(`build-bundle: ${kept} must be bundled`);
  const result = await build(options([...external]));
  writeFileSync(
    join(outdir, 'bundle-info.json'),
    `${JSON.stringify({ external: [...external].sort(), outputs: Object.keys(result.metafile.outputs).length }, null, 1)}\n`,
  );
  publish(dist, folder, stamp);
  const removed = retireOld(dist, folder);
  return { external: [...external].sort(), folder, removed };
}
