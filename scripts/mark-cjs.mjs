// The CommonJS half of the dual build (tsc -p tsconfig.cjs.json writes dist/cjs): a package.json
// of type commonjs makes Node and TypeScript read its .js and .d.ts files as CommonJS.
import { writeFileSync } from 'node:fs';

writeFileSync(new URL('../dist/cjs/package.json', import.meta.url), '{ "type": "commonjs" }\n');
