import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { RUNNER_ROOT } from './framework-layout.ts';
import { BARE, packageName } from './preload-packages.ts';
import { cacheKey, digestOf, nodeBuildOptions, writeAtomically } from './strategy-cache.ts';

const OWN = Symbol('own resolve');
const PACKAGE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"./][^'"]*)['"]/g;

let frameworkPackages: Set<string> | undefined;

/** The packages the compiled framework imports anywhere (scanned once, on a cache miss). */
function packagesOfFramework(): Set<string> {
  if (frameworkPackages !== undefined) return frameworkPackages;
  const found = new Set<string>();
  const scan = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) scan(path);
      else if (entry.name.endsWith('.js'))
        for (const [, specifier] of readFileSync(path, 'utf8').matchAll(PACKAGE_IMPORT))
          if (specifier !== undefined && !isBuiltin(specifier)) found.add(packageName(specifier));
    }
  };
  scan(fileURLToPath(new URL('../', import.meta.url)));
  frameworkPackages = found;
  return found;
}

/**
 * Whether a strategy's import of `specifier`, resolved to `path`, may load a one-file
 * bundle of the package from the cache instead of its many files (trading-signals is
 * about 180 modules, each a file for Node's loader to find, read and link). Only the
 * root of an ES-module package of the runner's own installation that the framework
 * never imports: the framework's packages (rxjs, zod) must stay the very instances the
 * framework uses, and a strategy's own copy is its business.
 */
export function vendorable(specifier: string, path: string): boolean {
  const name = packageName(specifier);
  const root = join(RUNNER_ROOT, 'node_modules', name);
  if (specifier !== name || !path.startsWith(`${root}/`) || name === 'tiqs-runner') return false;
  if (packagesOfFramework().has(name)) return false;
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      type?: string;
    };
    return manifest.type === 'module' || path.endsWith('.mjs');
  } catch {
    return false;
  }
}

/**
 * What means something else once the package's code runs from the cache folder: its
 * file's own URL (`import.meta.url`, `createRequire(import.meta.url)`), an `import()` of a
 * computed specifier, CommonJS paths. A package using any of them is not bundled.
 */
const LOCATION_BOUND = /\bimport\.meta\b|\bimport\s*\(\s*[^'"`\s]|\b__dirname\b|\b__filename\b/;

/** A package bundled into the cache: the import to use and the files it was made from. */
export interface VendoredPackage {
  /** `./vendor-….mjs`, relative to the importing file in the cache. */
  specifier: string;
  /** Every file of the package in the bundle, with its digest (for the strategy's manifest). */
  inputs: { path: string; digest: string }[];
}

/**
 * The cache's one-file bundle of the package whose entry is `path` (see
 * {@link vendorable}), or `undefined` when the package's code is bound to its location
 * (it then stays imported from its own folder). Named by the digests of every file
 * bundled, so every cached strategy importing the package shares one file, one module
 * instance, and an upgraded or patched package (patch-package keeps package.json) gets a
 * new file. Its own package imports stay external.
 */
export async function vendorPackage(
  name: string,
  path: string,
  cacheDir: string,
): Promise<VendoredPackage | undefined> {
  const result = await build({
    ...nodeBuildOptions(join(cacheDir, 'vendor.mjs')),
    entryPoints: [path],
    metafile: true,
    plugins: [
      {
        name: 'tiqs-runner-vendor',
        setup(b) {
          // Go regular expressions have no lookahead: bare specifiers are picked here.
          b.onResolve({ filter: /.*/ }, async (args) => {
            if (args.pluginData === OWN || args.kind === 'entry-point' || !BARE.test(args.path))
              return undefined;
            if (isBuiltin(args.path)) return { path: args.path, external: true };
            const found = await b.resolve(args.path, {
              kind: args.kind,
              resolveDir: args.resolveDir,
              pluginData: OWN,
            });
            if (found.errors.length > 0) return { errors: found.errors };
            return { path: pathToFileURL(found.path).href, external: true };
          });
        },
      },
    ],
  });
  const inputs: VendoredPackage['inputs'] = [];
  for (const input of Object.keys(result.metafile?.inputs ?? {})) {
    const file = resolve(input);
    const source = readFileSync(file, 'utf8');
    if (LOCATION_BOUND.test(source)) return undefined;
    inputs.push({ path: file, digest: digestOf(source) });
  }
  const text = result.outputFiles?.[0]?.text;
  if (text === undefined) throw new Error(`esbuild gave no bundle of ${name}`);
  const key = [cacheKey(), path, ...inputs.map((i) => `${i.path}\0${i.digest}`)].join('\0');
  const file = join(cacheDir, `vendor-${name.replace('/', '+')}-${digestOf(key).slice(0, 32)}.mjs`);
  if (!existsSync(file)) writeAtomically(file, text);
  return { specifier: `./${basename(file)}`, inputs };
}
