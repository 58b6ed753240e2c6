import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { bundleCounterpart, FRAMEWORK_FORM, RUNNER_ROOT } from './framework-layout.ts';
import { BARE, packageName } from './preload-packages.ts';
import {
  CACHE_FORMAT,
  type CacheManifest,
  cacheKey,
  digestOf,
  manifestFile,
  nearestTsconfig,
  nodeBuildOptions,
  type PackageUse,
  packageUse,
  writeAtomically,
} from './strategy-cache.ts';
import { tsconfigChain } from './tsconfig-chain.ts';
import { vendorable, vendorPackage } from './vendor-package.ts';

/** A strategy graph the cache cannot hold; it is loaded by tsx as before. */
class NotCacheableError extends Error {
  override name = 'NotCacheableError';
}

const TYPESCRIPT = /\.(?:[cm]?ts|tsx)$/;
const JAVASCRIPT = /\.(?:[cm]?js|jsx)$/;
/**
 * What means something else once the code runs from the cache folder: the file's own
 * URL, imports resolved at run time, CommonJS paths. Such a file is left to tsx.
 */
const LOCATION_BOUND = /\bimport\.meta\b|\bimport\s*\(|\brequire\s*\(|\b__dirname\b|\b__filename\b/;
/** Marks an import of another local TypeScript file, replaced by its compiled name. */
const LOCAL = 'tiqs-runner-local:';
const OWN = Symbol('own resolve');

/** One compiled local file, its imports of other local files still placeholders. */
interface Compiled {
  text: string;
  locals: string[];
}

/**
 * The compiled framework's folder: a strategy's import of `src/x.ts` loads `dist/x.js`
 * (from the bundle too, for a module that is not one of its entry files).
 */
const frameworkDist =
  FRAMEWORK_FORM === 'source' ? join(RUNNER_ROOT, 'src/') : join(RUNNER_ROOT, 'dist/');
const frameworkSource = join(RUNNER_ROOT, 'src/');

/**
 * Compiles a TypeScript strategy and the local TypeScript files it imports, one output
 * file each (so a helper two strategies import stays one module, as under tsx), into
 * `cacheDir`, and writes the manifest {@link cachedStrategy} checks. Imports of the
 * framework's sources or of `tiqs-runner` point at the running compiled framework, so the
 * strategy shares its module instances; packages stay external, pointed at the file Node
 * would load (the strategy's own copy, else the runner's). Throws
 * {@link NotCacheableError} for what the cache cannot hold, esbuild's error otherwise.
 */
export async function compileStrategy(
  entry: string,
  cacheDir: string,
): Promise<{ url: string; needsHooks: boolean }> {
  const key = cacheKey();
  mkdirSync(cacheDir, { recursive: true });
  const files: CacheManifest['files'] = [];
  const packages = new Map<string, PackageUse>();
  const compiled = new Map<string, Compiled>();
  const localIds = new Map<string, number>();
  let needsHooks = false;

  /** Where an import resolved to, as the compiled file will import it. */
  function target(path: string, specifier: string, from: string): string {
    // Run from the bundle: the public doors and rxjs/zod are the bundle's entry files.
    const bundled = bundleCounterpart(specifier, pathToFileURL(path).href);
    if (bundled !== undefined) return bundled;
    if (path.startsWith(frameworkSource)) {
      const js = join(frameworkDist, relative(frameworkSource, path).replace(/\.ts$/, '.js'));
      if (frameworkDist === frameworkSource || !existsSync(js))
        throw new NotCacheableError(`${path} has no compiled counterpart`);
      return pathToFileURL(js).href;
    }
    if (path.includes('/node_modules/') || path.startsWith(join(RUNNER_ROOT, 'dist/'))) {
      if (TYPESCRIPT.test(path)) throw new NotCacheableError(`package file ${path} is TypeScript`);
      if (BARE.test(specifier) && !path.startsWith(join(RUNNER_ROOT, 'dist/'))) {
        const name = packageName(specifier);
        packages.set(`${name}\0${from}`, packageUse(name, from));
      }
      return pathToFileURL(path).href;
    }
    if (TYPESCRIPT.test(path)) {
      if (!localIds.has(path)) localIds.set(path, localIds.size);
      return `${LOCAL}${localIds.get(path)}`;
    }
    if (JAVASCRIPT.test(path)) {
      needsHooks = true; // loaded natively from its place: its own imports need the hooks
      return pathToFileURL(path).href;
    }
    throw new NotCacheableError(`cannot cache an import of ${path}`);
  }

  function resolver(locals: string[]): Plugin {
    return {
      name: 'tiqs-runner-strategy',
      setup(b) {
        b.onResolve({ filter: /.*/ }, async (args) => {
          if (args.kind === 'entry-point' || args.pluginData === OWN) return undefined;
          if (isBuiltin(args.path)) return { path: args.path, external: true };
          const how = { kind: args.kind, importer: args.importer, pluginData: OWN };
          let found = await b.resolve(args.path, { ...how, resolveDir: args.resolveDir });
          // As the strategy hooks do: a package not found near the strategy is the runner's.
          if (found.errors.length > 0 && BARE.test(args.path))
            found = await b.resolve(args.path, { ...how, resolveDir: RUNNER_ROOT });
          if (found.errors.length > 0) return { errors: found.errors };
          const path = target(found.path, args.path, args.resolveDir);
          const vendored =
            BARE.test(args.path) && vendorable(args.path, found.path)
              ? await vendorPackage(args.path, found.path, cacheDir)
              : undefined;
          if (vendored !== undefined) {
            // The bundle's files count as sources: a patched package file is a miss.
            for (const input of vendored.inputs)
              if (!files.some((f) => f.path === input.path)) files.push(input);
            return { path: vendored.specifier, external: true };
          }
          if (path.startsWith(LOCAL)) locals.push(found.path);
          return { path, external: true };
        });
      },
    };
  }

  async function compileOne(file: string): Promise<void> {
    const source = readFileSync(file, 'utf8');
    if (LOCATION_BOUND.test(source))
      throw new NotCacheableError(`${file} uses import.meta, import(), require or __dirname`);
    // esbuild compiles by the nearest tsconfig.json (target, decorators, JSX): which one
    // it is, and its content, count too.
    const tsconfig = nearestTsconfig(dirname(file));
    files.push({ path: file, digest: digestOf(source), tsconfig: tsconfig ?? '' });
    // With every config it extends: a change in a shared base config changes the output.
    for (const config of tsconfig === undefined ? [] : tsconfigChain(tsconfig))
      if (!files.some((f) => f.path === config))
        files.push({ path: config, digest: digestOf(readFileSync(config)) });
    const locals: string[] = [];
    const result = await build({
      // Outputs sit in cacheDir: the source map's paths are relative to it.
      ...nodeBuildOptions(join(cacheDir, 'strategy.mjs')),
      entryPoints: [file],
      sourcemap: 'inline',
      charset: 'utf8',
      plugins: [
        resolver(locals),
        {
          name: 'tiqs-runner-source',
          // The text that was hashed is the text compiled, even if the file is being saved.
          setup: (b) =>
            b.onLoad({ filter: /.*/ }, (args) =>
              args.path === file
                ? { contents: source, loader: file.endsWith('x') ? 'tsx' : 'ts' }
                : undefined,
            ),
        },
      ],
    });
    const text = result.outputFiles?.[0]?.text;
    if (text === undefined) throw new NotCacheableError(`esbuild gave no output for ${file}`);
    compiled.set(file, { text, locals });
  }

  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (compiled.has(file)) continue;
    await compileOne(file);
    pending.push(...(compiled.get(file)?.locals ?? []));
  }

  // Names bottom-up: a file's name is the digest of its text with its imports' names in.
  const names = new Map<string, string>();
  const nameOf = (file: string, path: readonly string[]): string => {
    const known = names.get(file);
    if (known !== undefined) return known;
    if (path.includes(file)) throw new NotCacheableError(`import cycle through ${file}`);
    const { text, locals } = compiled.get(file) as Compiled;
    let out = text;
    for (const local of locals)
      out = out.replaceAll(
        `"${LOCAL}${localIds.get(local)}"`,
        `"./${nameOf(local, [...path, file])}"`,
      );
    const name = `${digestOf(out)}.mjs`;
    if (!existsSync(join(cacheDir, name))) writeAtomically(join(cacheDir, name), out);
    names.set(file, name);
    return name;
  };
  const name = nameOf(entry, []);
  const manifest: CacheManifest = {
    format: CACHE_FORMAT,
    key,
    entry: name,
    files,
    packages: [...packages.values()],
    needsHooks,
  };
  writeAtomically(manifestFile(cacheDir, entry), `${JSON.stringify(manifest, null, 1)}\n`);
  return { url: pathToFileURL(join(cacheDir, name)).href, needsHooks };
}
