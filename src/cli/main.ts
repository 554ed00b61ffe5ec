#!/usr/bin/env node
import { runCli } from './run.js';

const code = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTTY: process.stdout.isTTY === true,
  columns: process.stdout.isTTY === true ? process.stdout.columns : undefined,
});
process.exitCode = code;
