// Where a protected allow call's own time goes, stage by stage (not a bench: it prints
// microseconds, no ratio). Drives the three SDK hooks as the Runner does for one allowed call
// (needsApproval, the input guardrail, invoke) on a plain tool() with no-op hooks (`gated`, the
// SDK's own cost of the hooks) and on protected tools whose control writes less: `protected` (a
// memory store, the decision log on), `nolog` (decisionLog: false) and `nowrite` (a store whose
// receipt write only numbers the receipt: no copy, no canonical JSON, no hash). Each hook is timed
// alone; the sides alternate call by call; the figure is the median over rounds. Hot code: inside
// the Runner the same work costs more (session 11 measured about 2.5x). Imports dist/.
//   node bench/profile-stages.mjs [calls per round=4000] [rounds=9]
import { RunContext } from '@openai/agents';
import { sideTool } from './lib/allow-sides.mjs';

process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
const perRound = Number(process.argv[2] ?? 4000);
const rounds = Number(process.argv[3] ?? 9);
const tools = Object.fromEntries((process.env.SIDES?.split(',') ?? ['gated', 'protected', 'nolog', 'nowrite']).map((side) => [side, sideTool(side)]));
const names = Object.keys(tools);
const hooks = ['needsApproval', 'guardrail', 'invoke'];
const now = () => process.hrtime.bigint();

async function once(t, i, into) {
  const context = new RunContext({ user: 'alice' });
  const args = `{"payment_id":"pay_${i}","amount":500}`;
  const toolCall = { type: 'function_call', callId: `c${i}`, name: 'refund', arguments: args, status: 'completed' };
  let t0 = now();
  if (await t.needsApproval(context, JSON.parse(args), toolCall.callId)) throw new Error('needs approval');
  let t1 = now();
  into.needsApproval += Number(t1 - t0);
  for (const g of t.inputGuardrails) if ((await g.run({ context, agent: undefined, toolCall })).behavior.type !== 'allow') throw new Error('refused');
  t0 = now();
  into.guardrail += Number(t0 - t1);
  if ((await t.invoke(context, args, { toolCall })) !== 'refunded') throw new Error('did not run');
  t1 = now();
  into.invoke += Number(t1 - t0);
}

const per = Object.fromEntries(names.map((n) => [n, Object.fromEntries(hooks.map((h) => [h, []]))]));
let call = 0;
for (let round = -2; round < rounds; round++) {
  // the first two rounds warm up
  const sums = Object.fromEntries(names.map((n) => [n, { needsApproval: 0, guardrail: 0, invoke: 0 }]));
  for (let i = 0; i < perRound; i++, call++) for (const n of names) await once(tools[n], call, sums[n]);
  if (round < 0) continue;
  for (const n of names) for (const h of hooks) per[n][h].push(sums[n][h] / perRound / 1e3);
}
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
console.log(`µs per call, hot (median of ${rounds} rounds of ${perRound} calls each side):`);
console.log(`${'side'.padEnd(10)} ${hooks.map((h) => h.padStart(13)).join(' ')}         total`);
for (const n of names) {
  const m = hooks.map((h) => median(per[n][h]));
  console.log(
    `${n.padEnd(10)} ${m.map((x) => x.toFixed(2).padStart(13)).join(' ')} ${m
      .reduce((a, b) => a + b, 0)
      .toFixed(2)
      .padStart(13)}`,
  );
}
