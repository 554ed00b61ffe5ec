import path from 'node:path';
import { packageRoot } from './package-root.js';
// node:fs as CommonJS, not imported: the launcher's path is ES modules, and Node builds an ES
// module's view of node:fs by reading every export, which loads its streams (see DECISIONS, session 27).
const { readFileSync } = process.getBuiltinModule('node:fs');

/** The package version, read once from the package's own package.json. */
export const VERSION: string = (JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
