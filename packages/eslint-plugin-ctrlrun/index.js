// eslint-plugin-ctrlrun: check's rules in ESLint. The plugin's code is ctrlrun-gen's own (one
// source tree, one version, the same engine `check` runs); this package brings what it needs
// beside the light runtime package: the command line's tools (the TypeScript compiler, the YAML
// parser) through ctrlrun-gen-cli, found from here however the install laid them out (nested, as
// pnpm does, or hoisted), as the ctrlrun-gen bin finds them.
import { createRequire, register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const companion = require.resolve('ctrlrun-gen-cli/package.json');
const root = path.dirname(require.resolve('ctrlrun-gen/package.json'));
// the compiler's file is found through the companion when ctrlrun-gen cannot resolve ts-morph itself
process.env.CTRLRUN_GEN_TOOLS_FROM ??= companion;
// a bare import of ctrlrun-gen's code that does not resolve where it is (yaml) is resolved again from the companion
register(pathToFileURL(path.join(root, 'dist/cli/resolve-from.js')).href, { data: { parentURL: pathToFileURL(companion).href } });

const { default: plugin } = await import(pathToFileURL(path.join(root, 'dist/eslint/index.js')).href);
export default plugin;
