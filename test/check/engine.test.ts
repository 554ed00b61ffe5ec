import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { renderGeneratedModule } from '../../src/generate/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';

describe('runCheck and the generator', () => {
  const temps: string[] = [];
  afterAll(() => temps.forEach(removeDir));

  it("stale-generated sees every declaration the generator's own search sees, though check hands it only the scanned files that can declare one", async () => {
    const dir = copyFixture('refund-desk', 'check-engine-');
    temps.push(dir);
    // A protectedTool bound from a relative module that is not the generated one: the generator counts it.
    writeFileSync(
      path.join(dir, 'src/wrapped.ts'),
      [
        "import { z } from 'zod';",
        "import { protectedTool } from './wrap.js';",
        "export const refundAgain = protectedTool('stripe.refund', { name: 'refund', parameters: z.object({ payment_id: z.string(), amount: z.number().int() }), execute: async () => 'ok' });",
        '',
      ].join('\n'),
    );
    // A file that only imports the SDK: nothing to declare.
    writeFileSync(path.join(dir, 'src/runner.ts'), "import { run } from '@openai/agents';\nexport const go = run;\n");
    const generated = renderGeneratedModule(loadProject({ cwd: dir }));
    writeFileSync(generated.path, generated.text);

    const result = await runCheck({ cwd: dir });
    expect(result.findings.filter((f) => f.ruleId === 'stale-generated')).toEqual([]);
    expect(result.findings.filter((f) => f.ruleId === 'unprotected-tool').length).toBeGreaterThan(0);
  });
  // an SDK tool in a Vue single-file component is a door the model can call (a browser realtime
  // agent): check reads the component's script in place (issue 40's red team)
  it('an open tool in a .vue component is reported in the component', async () => {
    const dir = copyFixture('refund-desk', 'check-engine-');
    temps.push(dir);
    const generated = renderGeneratedModule(loadProject({ cwd: dir }));
    writeFileSync(generated.path, generated.text);
    writeFileSync(
      path.join(dir, 'src/Voice.vue'),
      [
        '<script setup lang="ts">',
        "import { RealtimeAgent, RealtimeSession, tool } from '@openai/agents/realtime';",
        "import { z } from 'zod';",
        'const closeAccount = tool({',
        "  name: 'close_account',",
        "  description: 'Close the account.',",
        '  parameters: z.object({ id: z.string() }),',
        "  execute: async ({ id }) => fetch(`/api/close/${id}`, { method: 'POST' }).then((r) => r.text()),",
        '});',
        "const agent = new RealtimeAgent({ name: 'voice', instructions: 'Help.', tools: [closeAccount] });",
        'const session = new RealtimeSession(agent);',
        '</script>',
        '<template><button @click="session.connect({ apiKey: \'x\' })">Talk</button></template>',
        '',
      ].join('\n'),
    );
    const result = await runCheck({ cwd: dir });
    expect(result.findings.filter((f) => f.severity === 'error' && f.file === 'src/Voice.vue').map((f) => f.ruleId)).not.toEqual([]);
  });
});
