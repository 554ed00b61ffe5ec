#!/usr/bin/env node
// `npx ctrlrun-gen-cli <command>`: the ctrlrun-gen CLI, run with the tools this package installs
// (for a first run in a repo that has neither package yet). Once both are installed,
// `npx ctrlrun-gen <command>` finds this package by itself.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
process.env.CTRLRUN_GEN_CLI_TOOLS = require.resolve('./package.json');
const root = require.resolve('ctrlrun-gen/package.json').replace(/package\.json$/, '');
await import(pathToFileURL(`${root}dist/bin/ctrlrun-gen.js`).href);
