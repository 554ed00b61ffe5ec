// The compiled policy of the MCP door tests (test/runtime/mcp.test.ts and its child process,
// test/runtime/children/mcp-resume.mjs): the issues server's create_issue is github.create_issue
// (priority < 3 allow, < 8 approve, else deny; effect issue:{title}); list_issues is allowed.
const matched = (decision, rule) => ({ decision, rule, reason: `rule[${rule}]` });

/** @param {{ pin?: string; hash?: string; notExecutedOnError?: boolean; maxAttempts?: number }} [options] */
export function mcpPolicy(options = {}) {
  const create = {
    id: 'github.create_issue',
    decide(args) {
      const p = args?.priority;
      if (typeof p === 'number' && Number.isInteger(p) && p < 3) return matched('allow', 0);
      if (typeof p === 'number' && Number.isInteger(p) && p < 8) return matched('approve', 1);
      return matched('deny', 2);
    },
    effect(args) {
      const t = args?.title;
      return typeof t === 'string' && t !== '' ? { ok: true, value: `issue:${t}` } : { ok: false, arg: 'title' };
    },
    controls: [],
    approvalsRequired: 1,
    maxAttempts: options.maxAttempts ?? 1,
    ...(options.pin ? { upstream: { toolSchemaSha256: options.pin } } : {}),
    ...(options.notExecutedOnError ? { mcp: { notExecutedOnError: true } } : {}),
  };
  const list = { id: 'github.list_issues', decide: () => matched('allow', 0), controls: [], approvalsRequired: 1, maxAttempts: 1 };
  return {
    hash: options.hash ?? 'e'.repeat(64),
    mode: 'enforce',
    actions: { 'github.create_issue': create, 'github.list_issues': list },
    tools: {},
    mcp: { issues: { create_issue: 'github.create_issue', list_issues: 'github.list_issues' } },
  };
}
