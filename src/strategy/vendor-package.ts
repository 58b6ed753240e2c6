import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { packageName } from './preload-packages.ts';
import { cacheKey, digestOf, RUNNER_ROOT, writeAtomically } from './strategy-cache.ts';

const BARE = /^(?![./]|[a-zA-Z][a-zA-Z0-9+.-]*:)/;
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
 * The cache's one-file bundle of the package whose entry is `path` (see
 * {@link vendorable}), built when missing, as an import from a file beside it. Named by the package.json's digest, so every
 * cached strategy importing the package shares one file, one module instance, and an
 * upgraded package gets a new file. Its own package imports stay external.
 */
export async function vendorPackage(name: string, path: string, cacheDir: string): Promise<string> {
  const manifest = readFileSync(join(RUNNER_ROOT, 'node_modules', name, 'package.json'));
  const file = join(
    cacheDir,
    `vendor-${name.replace('/', '+')}-${digestOf(`${cacheKey()}\0${path}\0${manifest}`).slice(0, 32)}.mjs`,
  );
  if (!existsSync(file)) {
    const result = await build({
      entryPoints: [path],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: `node${process.versions.node}`,
      conditions: [],
      mainFields: ['main'],
      outfile: file,
      logLevel: 'silent',
      plugins: [
        {
          name: 'tiqs-runner-vendor',
          setup(b) {
            // Go regular expressions have no lookahead: bare specifiers are picked here.
            b.onResolve({ filter: /.*/ }, async (args) => {
              if (args.pluginData === file || args.kind === 'entry-point' || !BARE.test(args.path))
                return undefined;
              if (isBuiltin(args.path)) return { path: args.path, external: true };
              const found = await b.resolve(args.path, {
                kind: args.kind,
                resolveDir: args.resolveDir,
                pluginData: file,
              });
              if (found.errors.length > 0) return { errors: found.errors };
              return { path: pathToFileURL(found.path).href, external: true };
            });
          },
        },
      ],
    });
    const text = result.outputFiles?.[0]?.text;
    if (text === undefined) throw new Error(`esbuild gave no bundle of ${name}`);
    writeAtomically(file, text);
  }
  return `./${basename(file)}`;
}
