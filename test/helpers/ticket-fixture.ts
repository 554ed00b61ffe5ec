import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeTempDir } from './temp-repo.js';

/**
 * A one-tool project for the fill-in tests (issue 40, item 2): `file_ticket` (action
 * `tickets.file`) with the zod `schema` given as source text, the `policy` and `cases` files given
 * as YAML, and its `execute` returning `result` (source text over `{ priority }`). Made in a new
 * temporary folder (pushed to `dirs` for removal); its path.
 */
export function ticketFixture(dirs: string[], prefix: string, files: { schema: string; policy: string; cases: string; result?: string }): string {
  const dir = makeTempDir(prefix);
  dirs.push(dir);
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "f", "private": true, "type": "module" }\n');
  writeFileSync(
    path.join(dir, 'ctrlrun.tools.yaml'),
    'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ncontrol: src/ctrlrun.control.ts\ntools:\n  - tool: file_ticket\n    action: tickets.file\n',
  );
  writeFileSync(path.join(dir, 'ctrlrun.yaml'), files.policy);
  writeFileSync(path.join(dir, 'ctrlrun.test.yaml'), files.cases);
  writeFileSync(
    path.join(dir, 'src/tools.ts'),
    `import { tool } from '@openai/agents';\nimport { z } from 'zod';\n\nexport const fileTicket = tool({\n  name: 'file_ticket',\n  description: 'File a ticket.',\n  parameters: ${files.schema},\n  execute: async ({ priority }) => ${files.result ?? 'priority'},\n});\n`,
  );
  return dir;
}
