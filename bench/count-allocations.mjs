// Bytes allocated per allowed call, by V8's sampling heap profiler with the objects the collector
// has already freed counted too (not a bench of `npm run bench`: a count, like count-promises and
// count-instructions, that the machine's load does not move). Drives the three SDK hooks of one
// allowed call as bench/profile-stages.mjs does (needsApproval, the input guardrail, invoke) on
// each side of bench/lib/allow-sides.mjs, hot (after 5,000 calls), and prints each side's bytes a
// call with the functions that allocate most (`top`). A sample is taken every 256 bytes, so
// the figures are estimates, steady to a few percent. Imports dist/ (build first).
//   node bench/count-allocations.mjs [calls=20000] [sides=floor,refund] [top=0]
import { Session } from 'node:inspector/promises';
import { RunContext } from '@openai/agents';
import { allowedCall, sideTool } from './lib/allow-sides.mjs';

process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
const calls = Number(process.argv[2] ?? 20000);
const sides = (process.argv[3] ?? 'floor,refund').split(',');
const top = Number(process.argv[4] ?? 0);

async function drive(made, from, to) {
  const context = new RunContext({ user: 'alice' });
  for (let i = from; i < to; i++) await allowedCall(made, context, i);
}

/** Self bytes by function (name, file and line) over the sampled profile's tree. */
function bySelf(node, into = new Map()) {
  const frame = node.callFrame;
  const key = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${frame.lineNumber + 1}`;
  into.set(key, (into.get(key) ?? 0) + node.selfSize);
  for (const child of node.children) bySelf(child, into);
  return into;
}

const session = new Session();
session.connect();
for (const side of sides) {
  const made = sideTool(side);
  await drive(made, 0, 5000);
  await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await drive(made, 5000, 5000 + calls);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  const self = bySelf(profile.head);
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`${side}: ${(total / calls).toFixed(0)} bytes allocated per call`);
  for (const [key, bytes] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${String(Math.round(bytes / calls)).padStart(6)}  ${key}`);
}
session.disconnect();
