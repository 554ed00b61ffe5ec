// The CLI's bin as a few files (issue 10, start-up as a user feels it): esbuild joins tsc's
// dist/cli/main.js, every module of ours it reaches, and the pure-JavaScript packages the CLI parses
// its input with into dist/bin/ctrlrun-gen.js plus one chunk per lazily loaded part (each command
// is still loaded only when it runs). A run of `check` then loads a handful of files instead of
// ~70 modules of ours and ~60 of yargs and yaml.
//
// What stays outside, imported at run time as before:
// - the TypeScript compiler (ts-morph's bundled copy): still required lazily, only once the
//   prefilter finds a file worth parsing (src/scan/typescript.ts), never inlined;
// - the native, heavy or optional packages (better-sqlite3, pg, hono, @hono/node-server), the
//   SDK and zod: they come from the user's install or the companion package (src/cli/launch.ts);
// - this package's runtime (dist/runtime/**): the CLI imports tsc's files, the very modules a
//   user's generated module imports, so there is one copy of each runtime class (StoreError, …).
import { build } from 'esbuild';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const outdir = path.join(dist, 'bin');
const runtimeDir = path.join(dist, 'runtime') + path.sep;
/** The bundle's maps serve --debug stack traces here; package.json's files leaves every .map out of the package. */
const SOURCE_MAPS = 'linked';

/** Packages the CLI imports that are inlined (pure JavaScript, loaded on every run). */
export const INLINED = ['yargs', 'yaml', 'picocolors', 'ignore', 'diff', '@babel/code-frame'];

const packageName = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

const layout = {
  name: 'ctrlrun-layout',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (args.path.startsWith('.')) {
        const target = path.resolve(args.resolveDir, args.path);
        if (!target.startsWith(runtimeDir)) return undefined;
        const rel = path.relative(outdir, target).split(path.sep).join('/');
        return { path: rel.startsWith('.') ? rel : `./${rel}`, external: true };
      }
      if (args.path.startsWith('node:') || path.isAbsolute(args.path)) return undefined;
      // a bare import of ours: inlined or left to Node; inside an inlined package: inlined
      const ours = !args.importer.split(path.sep).includes('node_modules');
      if (ours && !INLINED.includes(packageName(args.path))) return { path: args.path, external: true };
      return undefined;
    });
  },
};

// The YAML parser (the manifest, the policy: every command reads them) is one CommonJS file beside
// the chunks (dist/bin/yaml.cjs), loaded through the code cache the compiler uses
// (src/scan/code-cache.ts): as ES modules, ~250 KB that Node 20 cannot cache were compiled on every
// run (~20 ms of start-up, measured); from the cache it loads in ~5. Our imports of `yaml` get a
// small module that loads that file and re-exports what they use (a name missing here fails the
// build: esbuild checks every import against these exports).
const YAML_NAMES = ['isAlias', 'isMap', 'isPair', 'isScalar', 'isSeq', 'LineCounter', 'parseDocument', 'visit', 'YAMLMap', 'YAMLSeq', 'Document', 'Scalar'];
const yamlFromCache = {
  name: 'yaml-from-code-cache',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, (args) =>
      args.importer.split(path.sep).includes('node_modules') ? undefined : { path: 'yaml', namespace: 'ctrlrun-yaml' },
    );
    b.onLoad({ filter: /.*/, namespace: 'ctrlrun-yaml' }, () => ({
      contents: [
        "import { builtinModules, createRequire } from 'node:module';",
        "import { fileURLToPath } from 'node:url';",
        "import { CODE_CACHE_ENV, requireWithCodeCache } from './code-cache.js';",
        "const file = fileURLToPath(new URL('./yaml.cjs', import.meta.url));",
        'const dir = process.env[CODE_CACHE_ENV];',
        'const yaml = dir ? requireWithCodeCache(file, dir) : createRequire(file)(file);',
        `export const { ${YAML_NAMES.join(', ')} } = yaml;`,
      ].join('\n'),
      loader: 'js',
      resolveDir: path.join(dist, 'scan'),
    }));
  },
};

// yargs speaks the user's language from its locales/ folder, which it finds next to its own file:
// inlined, it looks next to the chunk instead (dist/bin/yargs-locales, copied below).
const YARGS_SHIM = /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/;
const yargsLocales = {
  name: 'yargs-locales',
  setup(b) {
    b.onLoad({ filter: YARGS_SHIM }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const from = "resolve(__dirname, '../../../locales')";
      if (!text.includes(from)) throw new Error(`yargs changed how it finds its locales: ${args.path}`);
      return { contents: text.replace(from, "resolve(__dirname, '../yargs-locales')"), loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: {
    'ctrlrun-gen': path.join(dist, 'cli', 'main.js'),
    launch: path.join(dist, 'cli', 'launch.js'),
    'resolve-from': path.join(dist, 'cli', 'resolve-from.js'),
  },
  outdir,
  bundle: true,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [yamlFromCache, layout, yargsLocales],
  // The CommonJS packages inlined into these ES modules call require() (Node's built-ins).
  banner: { js: "import { createRequire as __ctrlrunCreateRequire } from 'node:module'; const require = __ctrlrunCreateRequire(import.meta.url);" },
  sourcemap: SOURCE_MAPS,
  sourcesContent: false,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});

/** One CommonJS file beside the chunks (the thread's script, the bin, the YAML parser, the plain check); its inputs' licences join the notices. */
async function cjsFile(options) {
  const built = await build({
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    ...options,
  });
  for (const input of Object.keys(built.metafile.inputs)) result.metafile.inputs[input] ??= built.metafile.inputs[input];
  return built;
}

/** `import.meta.url` in a CommonJS file: its own file URL. */
const META_URL = {
  define: { 'import.meta.url': '__ctrlrun_import_meta_url' },
  banner: { js: "var __ctrlrun_import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
};

// The thread runCheck's `parallelRead` lists and reads the repo on (src/scan/parallel-read.ts), as one CommonJS file
// next to the chunks that start it: a worker that loads one script through the CommonJS loader
// starts sooner than one that sets up the ES module loader for a handful of chunks.
await cjsFile({ entryPoints: { 'read-worker': path.join(dist, 'scan', 'read-worker.js') }, sourcemap: SOURCE_MAPS, sourcesContent: false });

// The bin (package.json's `bin`): a small CommonJS file that imports the launcher (src/cli/bin.ts).
await cjsFile({
  entryPoints: { 'ctrlrun-gen': path.join(dist, 'cli', 'bin.js') },
  plugins: [{ name: 'launcher-outside', setup: (b) => b.onResolve({ filter: /^\.\/launch\.js$/ }, () => ({ path: './launch.js', external: true })) }],
  ...META_URL,
});

// The YAML parser as one CommonJS file (see yamlFromCache above).
await cjsFile({
  stdin: { contents: "module.exports = require('yaml');", resolveDir: root, loader: 'js', sourcefile: 'yaml-entry.cjs' },
  outdir: undefined,
  outfile: path.join(outdir, 'yaml.cjs'),
  outExtension: undefined,
});

// A plain check (src/cli/plain-main.ts, what CI runs) as one CommonJS file, dist/bin/plain-check.cjs:
// the launcher loads it through the compiler's code cache, so on Node 20 its ~600 KB (the scanner,
// the rules, the policy and manifest loaders, the YAML parser, the generator for the stale check)
// are not compiled again on every run, as ES modules are. Everything it runs is inside it, the
// runtime's pure helpers too (it opens no store, so no runtime class crosses to other code), except
// the compiler (required lazily, as before) and the packages left outside the bundle. A plain
// codemod (src/cli/plain-codemod.ts) gets a file of its own the same way, dist/bin/plain-codemod.cjs
// (issue 40, item 8: no yargs, no list of commands).
async function plainCommandFile(name, entry) {
  const built = await cjsFile({
    entryPoints: { [name]: path.join(dist, 'cli', entry) },
    plugins: [
      {
        name: 'plain-command-externals',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => {
            if (args.path.startsWith('node:')) return undefined;
            const ours = !args.importer.split(path.sep).includes('node_modules');
            if (builtinModules.includes(args.path)) return { path: args.path, external: true };
            // the runtime's hash (ES-module-only, so it could not be required) is inlined with it, and
            // so is its lossless argument parser (the policy rules confirm a finding with the runtime's decision)
            const inlined = [...INLINED, '@noble/hashes', 'lossless-json'];
            return ours && !inlined.includes(packageName(args.path)) ? { path: args.path, external: true } : undefined;
          });
        },
      },
    ],
    ...META_URL,
    sourcemap: SOURCE_MAPS,
    sourcesContent: false,
    // import.meta.resolve (src/scan/typescript.ts) is used only where it exists: in this file it does
    // not, and the companion's compiler is found through the path the launcher gives.
    logOverride: { 'empty-import-meta': 'silent' },
  });
  const externals = Object.values(built.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
  const unexpected = externals.filter((p) => !p.startsWith('node:') && !builtinModules.includes(p) && p !== 'ts-morph');
  if (unexpected.length > 0) throw new Error(`${name}'s file would require ${unexpected.join(', ')} at run time (ES modules or packages it must not load)`);
}
await plainCommandFile('plain-check', 'plain-main.js');
await plainCommandFile('plain-codemod', 'plain-codemod.js');

const yargsDir = path.dirname(createRequire(path.join(root, 'package.json')).resolve('yargs/package.json'));
cpSync(path.join(yargsDir, 'locales'), path.join(outdir, 'yargs-locales'), { recursive: true });

// The inlined packages' licences travel with their code (dist/bin/THIRD-PARTY-NOTICES.txt).
const packageDirs = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) continue;
  const name = parts[at + 1].startsWith('@') ? parts.slice(at + 1, at + 3) : [parts[at + 1]];
  packageDirs.add(path.join(root, ...parts.slice(0, at + 1), ...name));
}
const notices = [...packageDirs].sort().map((dir) => {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const licenceFile = readdirSync(dir).find((f) => /^(licen[sc]e|copying)(\.|$)/i.test(f));
  const text = licenceFile ? readFileSync(path.join(dir, licenceFile), 'utf8').trim() : `License: ${manifest.license}`;
  return `${manifest.name}@${manifest.version} (${manifest.license})\n\n${text}\n`;
});
if (!existsSync(outdir)) throw new Error('the bundle was not written');
writeFileSync(
  path.join(outdir, 'THIRD-PARTY-NOTICES.txt'),
  `Packages inlined into the ctrlrun-gen command line's bundle (dist/bin), with their licences.\n\n${notices.join('\n---\n\n')}`,
);
