#!/usr/bin/env node
/**
 * The `ctrlrun-gen` bin, as the package's `bin` names it: one small CommonJS file in the bundle
 * (dist/bin/ctrlrun-gen.cjs, scripts/bundle-cli.mjs). Start-up (issue 10): a CommonJS entry runs as
 * soon as Node is up, before any ES module is loaded, so a plain check starts its reading thread
 * here, some 25 ms sooner than the launcher could; then the launcher (an ES module) runs as before.
 * `dist/bin/ctrlrun-gen.js` (src/cli/main.ts) stays the ES entry (the companion's bin imports it).
 */
import { plainCheckReadAhead } from '../check/read-ahead.js';
import type { PendingRepoRead } from '../scan/parallel-read.js';
import { plainCheckArgs } from './plain-check.js';

const args = process.argv.slice(2);
const plain = plainCheckArgs(args);
let repoRead: PendingRepoRead | undefined;
try {
  repoRead = plain ? plainCheckReadAhead(plain) : undefined;
} catch {
  // the launcher starts it, or the check reads in-thread
}
import('./launch.js')
  .then(({ launch }) => launch(args, repoRead ? { repoRead } : {}))
  .then((code) => {
    process.exitCode = code;
  });
