// The compiled decision function of fixtures/refund-desk (`stripe.refund`) against the reference
// evaluator (`evaluate()`, what `explain` uses) on the same arguments, in the same run; and the
// time to render the module against the time to load the project it is rendered from.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { sized } from './lib/size.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const load = (p) => import(pathToFileURL(path.join(root, p)).href);
const { loadProject } = await load('dist/manifest/load.js');
const { renderGeneratedModule } = await load('dist/generate/index.js');
const { evaluate } = await load('dist/policy/evaluate.js');

const fixture = path.join(root, 'fixtures/refund-desk');
const project = loadProject({ cwd: fixture });
const { text } = renderGeneratedModule(project);
const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
const exports = {};
// every binder of the runtime (bindProtectedTool, bindMcp, …) as a no-op: only `policy` is read
new Function('exports', 'require', js)(exports, (s) => (s === 'ctrlrun-gen/runtime' ? new Proxy({}, { get: () => () => () => undefined }) : { default: {} }));
const decide = exports.policy.actions['stripe.refund'].decide;

const ARGS = [
  { payment_id: 'pay_1001', amount: 4500 },
  { payment_id: 'pay_1002', amount: 250000 },
  { payment_id: 'pay_1003', amount: 2000000 },
  { payment_id: 'pay_1004', amount: 12.5 },
  { payment_id: 'pay_1005' },
  { payment_id: 'pay_1006', amount: '500' },
];
const N = sized(2_000_000, 20_000);

function time(fn) {
  let sink = 0;
  for (let i = 0; i < sized(50_000, 1000); i++) sink += fn(ARGS[i % ARGS.length]).rule ?? 0; // warm up
  const t0 = performance.now();
  for (let i = 0; i < N; i++) sink += fn(ARGS[i % ARGS.length]).rule ?? 0;
  const ms = performance.now() - t0;
  if (sink < 0) console.log(sink);
  return (ms * 1e6) / N;
}

export async function run() {
  const compiled = time(decide);
  const reference = time((a) => evaluate(project.policy, 'stripe.refund', a));
  console.log(`decision function: ${compiled.toFixed(1)} ns/call; evaluate(): ${reference.toFixed(1)} ns/call; ratio ${(compiled / reference).toFixed(3)}`);

  const R = sized(20, 2);
  let t0 = performance.now();
  for (let i = 0; i < R; i++) loadProject({ cwd: fixture });
  const loadMs = (performance.now() - t0) / R;
  t0 = performance.now();
  for (let i = 0; i < R; i++) renderGeneratedModule(project);
  const renderMs = (performance.now() - t0) / R;
  console.log(
    `render (find tools, read parameters, emit): ${renderMs.toFixed(2)} ms; loading the project: ${loadMs.toFixed(2)} ms; ratio ${(renderMs / loadMs).toFixed(2)}`,
  );
}
