import { mappedDoorsOf, runsLackingContext } from '../../scan/context-runs.js';
import type { Finding, ProjectContext, RuleMeta, ScannedFile } from '../types.js';
import { findingOf } from './rule-finding.js';

export const runWithoutContextMeta: RuleMeta = {
  id: 'run-without-context',
  severity: 'error',
  short: "A run of agents with protected tools passes no context the control's identity reads.",
  full: "The control's `identity(runContext)` says who a run acts for, from the context the app passes to `run()` (`runContext.context.user` in the control init writes). A `run(agent, input)` or `runner.run(...)` with no `context`, or with a context that has none of the keys the identity reads, acts for nobody: every protected tool it calls is refused with `no_principal`, the model is told so, and the app's users see tools that never work. Reported in repos that map or protect a door, for runs whose agent can reach one: check follows the agent through the repo's modules (imports, re-exports, a helper's parameter to its callers, tools added after the agent is made) to every tool, agent tool, handoff and MCP server it holds (the tools `getAllMcpTools`, `mcpToFunctionTool`, `connectMcpServers` or `MCPServers.open` give are those of the servers they are given), and names the run when one of them is protected or mapped by the manifest, or when it cannot see them all (a parameter of a callback, an agent of another package, a SandboxAgent). An agent with no tools, or only hosted tools (web search, file search, code interpreter, image generation), is not reported. A resumed run (its input a RunState, also `e.state` of a caught error, or what a function declared to give the state back returns: `decode(answers, state)` typed `<S>(answers, state: S): S` or returning `RunState<…>`, read in the file, the repo's modules and the workspace's packages; any other call is a new run) keeps its context, and a context check cannot read (a variable from elsewhere, a spread) is not reported. An input typed `AgentInputItem[] | RunState` starts runs as well as resuming them: reported. A Runner is `new Runner()`, a variable or parameter typed `Runner`, or what a method of the class (`this.getRunner(id)`) or a function of the file declared to return `Runner` gives. `init`'s note and the codemod's summary name the same runs.",
  help: 'Pass who the run acts for: `run(agent, input, { context: { user } })` with the key the identity reads; or, for a run that acts for no person (a script, a job), change `identity` in the control to return a service principal (`ctrlrun-gen init --identity env:CTRLRUN_PRINCIPAL` writes one).',
};

/** `run-without-context`: runs that pass no context the identity needs, in a repo with protected tools. */
export function runWithoutContextRule(files: ScannedFile[], project: ProjectContext | undefined): Finding[] {
  return runsLackingContext(
    files.map((f) => f.scan),
    mappedDoorsOf(project?.manifest.tools ?? []),
  ).map(({ file, run, missing }) => {
    const what = run.via === 'runner' ? 'runner.run()' : 'run()';
    const reads = missing.length > 0 ? missing.map((k) => `\`runContext.context.${k}\``).join(' or ') : 'the run context';
    const passes = run.context.kind === 'none' ? 'passes no context' : `passes a context without ${missing.map((k) => `\`${k}\``).join(' or ')}`;
    const key = missing[0] ?? 'user';
    return findingOf(
      runWithoutContextMeta,
      file,
      run.callee,
      `${what}${run.agent !== undefined ? ` of \`${run.agent}\`` : ''} ${passes}, and the control's identity reads ${reads}: the run acts for nobody, so every protected tool it calls is refused (no_principal).`,
      `Pass it: \`${run.via === 'runner' ? 'runner.run' : 'run'}(${run.agent ?? 'agent'}, input, { context: { ${key}: <who the run acts for> } })\`; or, for a run no person stands behind, make \`identity\` return a service principal (\`ctrlrun-gen init --identity env:CTRLRUN_PRINCIPAL\`).`,
    );
  });
}
