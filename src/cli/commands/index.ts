import type { CommandSpec } from '../context.js';
import { approvalsCommand } from './approvals.js';
import { checkCommand } from './check.js';
import { codemodCommand } from './codemod.js';
import { demoCommand } from './demo.js';
import { effectsCommand } from './effects.js';
import { explainCommand } from './explain.js';
import { generateCommand } from './generate.js';
import { initCommand } from './init.js';
import { operatorsCommand } from './operators.js';
import { receiptsCommand } from './receipts.js';
import { serveCommand } from './serve.js';
import { validateCommand } from './validate.js';

/** Every command of SPEC §8, in the order `--help` lists them. */
export const commands: CommandSpec<any>[] = [
  initCommand,
  validateCommand,
  generateCommand,
  codemodCommand,
  checkCommand,
  explainCommand,
  approvalsCommand,
  effectsCommand,
  receiptsCommand,
  operatorsCommand,
  serveCommand,
  demoCommand,
];
