import { UserError } from '../diagnostics.js';
import type { CommandSpec } from './context.js';

/** A command that is registered but not built yet: says so and exits 2. */
export function notDelivered(command: string, describe: string, example: string): CommandSpec {
  return {
    command,
    describe: `${describe} (not available yet)`,
    examples: [[example, describe]],
    run: async () => {
      throw new UserError(`ctrlrun-gen ${command.split(' ')[0]} is not available in this version yet.`);
    },
  };
}
