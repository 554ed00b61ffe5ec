#!/usr/bin/env node
/**
 * The `ctrlrun-gen` bin, as the package's `bin` names it: one small CommonJS file in the bundle
 * (dist/bin/ctrlrun-gen.cjs, scripts/bundle-cli.mjs), which loads the launcher (an ES module).
 * It started a plain check's reading thread before the launcher loaded (issue 10); a check now
 * reads on its own thread (issue 40, item 8: the thread cost more CPU than it saved wall time).
 * `dist/bin/ctrlrun-gen.js` (src/cli/main.ts) stays the ES entry (the companion's bin imports it).
 */
import('./launch.js')
  .then(({ launch }) => launch(process.argv.slice(2)))
  .then((code) => {
    process.exitCode = code;
  });
