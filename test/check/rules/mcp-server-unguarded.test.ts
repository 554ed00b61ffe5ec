import { lines, ruleTester } from '../rule-tester.js';

const SDK = "import { Agent, MCPServerStdio, hostedMcpTool } from '@openai/agents';";

const GEN = "import { protectAgent, protectAgentTool, protectHostedMcp, protectMcpServer } from './ctrlrun.generated.js';";

ruleTester('mcp-server-unguarded', {
  valid: [
    {
      name: 'connectMcpServers(...).active of guarded servers (issue 35: it was "cannot follow")',
      code: lines(
        "import { Agent, MCPServerStdio, connectMcpServers } from '@openai/agents';",
        GEN,
        "const github = new MCPServerStdio({ name: 'github', fullCommand: 'x' });",
        'await using servers = await connectMcpServers([protectMcpServer(github)], { connectInParallel: true });',
        "export const a = new Agent({ name: 'a', mcpServers: servers.active });",
      ),
    },
    {
      name: 'connectMcpServers inline, .all',
      code: lines(
        "import { Agent, MCPServerStdio, connectMcpServers } from '@openai/agents';",
        GEN,
        "export const a = new Agent({ name: 'a', mcpServers: (await connectMcpServers([protectMcpServer(new MCPServerStdio({ name: 'fs', fullCommand: 'x' }))])).all });",
      ),
    },
    { name: 'an Agent with tools only', code: lines(SDK, "export const a = new Agent({ name: 'a', tools: [] });") },
    { name: 'an Agent of another package', code: lines("import { Agent } from 'other';", "export const a = new Agent({ name: 'a', mcpServers: [s] });") },
    {
      name: 'protectMcpServer inline',
      code: lines(SDK, GEN, "export const a = new Agent({ name: 'a', mcpServers: [protectMcpServer(new MCPServerStdio({ name: 'fs', fullCommand: 'x' }))] });"),
    },
    {
      name: 'a variable made by protectMcpServer',
      code: lines(
        SDK,
        GEN,
        "const fs = protectMcpServer(new MCPServerStdio({ name: 'fs', fullCommand: 'x' }));",
        "export const a = new Agent({ name: 'a', mcpServers: [fs] });",
      ),
    },
    {
      name: 'a server guarded in place later in the file, through a const array',
      code: lines(
        SDK,
        GEN,
        "const fs = new MCPServerStdio({ name: 'fs', fullCommand: 'x' });",
        'const servers = [fs];',
        "export const a = new Agent({ name: 'a', mcpServers: servers });",
        'protectMcpServer(fs);',
      ),
    },
    { name: 'the agent passed to protectAgent', code: lines(SDK, GEN, "export const a = protectAgent(new Agent({ name: 'a', mcpServers: [server] }));") },
    {
      name: 'the agent variable passed to protectAgent',
      code: lines(SDK, GEN, "const a = new Agent({ name: 'a', mcpServers: [server] });", 'a.mcpServers = [other];', 'protectAgent(a);'),
    },
    {
      name: 'the generated module through a namespace',
      code: lines(
        SDK,
        "import * as gen from './ctrlrun.generated.js';",
        "export const a = new Agent({ name: 'a', mcpServers: [gen.protectMcpServer(server)] });",
      ),
    },
    {
      name: "a guarded `let` keeps its guard: an inner block's `const` and a function's `var` of that name are other variables",
      code: lines(
        SDK,
        GEN,
        "let fs = new MCPServerStdio({ name: 'fs', fullCommand: 'x' });",
        'protectMcpServer(fs);',
        "{ const fs = new MCPServerStdio({ name: 'tmp', fullCommand: 'y' }); await fs.connect(); }",
        "function probe() { var fs = new MCPServerStdio({ name: 'probe', fullCommand: 'z' }); return fs.listTools(); }",
        "export const a = new Agent({ name: 'a', mcpServers: [fs] });",
      ),
    },
    {
      name: 'errorFunction: null',
      code: lines(
        SDK,
        GEN,
        "const fs = protectMcpServer(new MCPServerStdio({ name: 'fs', fullCommand: 'x', errorFunction: null }));",
        "export const a = new Agent({ name: 'a', mcpServers: [fs], mcpConfig: { errorFunction: null } });",
      ),
    },
  ],
  invalid: [
    // issue 40: a name is read where it is used, not at its first declaration anywhere in the file
    {
      name: "a `let` guarded in place, then given another server: the guard is not the new server's",
      code: lines(
        SDK,
        GEN,
        "let fs = new MCPServerStdio({ name: 'fs', fullCommand: 'x' });",
        'protectMcpServer(fs);',
        "fs = new MCPServerStdio({ name: 'gh', fullCommand: 'y' });",
        "export const a = new Agent({ name: 'a', mcpServers: [fs] });",
        "let b = new Agent({ name: 'b' });",
        'protectAgent(b);',
        "b = new Agent({ name: 'b2' });",
        "b.mcpServers = [new MCPServerStdio({ name: 'db', fullCommand: 'z' })];",
      ),
      errors: [
        { line: 6, column: 54 },
        { line: 10, column: 17 },
      ],
    },
    {
      name: "a name guarded in one function is not another function's variable of that name",
      code: lines(
        SDK,
        GEN,
        'export function safe() {',
        "  const fs = new MCPServerStdio({ name: 'fs', fullCommand: 'x' });",
        '  protectMcpServer(fs);',
        "  return new Agent({ name: 'a', mcpServers: [fs] });",
        '}',
        'export function open() {',
        "  const fs = new MCPServerStdio({ name: 'gh', fullCommand: 'y' });",
        "  return new Agent({ name: 'b', mcpServers: [fs] });",
        '}',
        'export function agentGuarded() {',
        "  const a = new Agent({ name: 'c', mcpServers: [] });",
        '  return protectAgent(a);',
        '}',
        'export function agentOpen() {',
        "  const a = new Agent({ name: 'd', mcpServers: [new MCPServerStdio({ name: 'db', fullCommand: 'z' })] });",
        "  a.mcpServers.push(new MCPServerStdio({ name: 'db2', fullCommand: 'z' }));",
        '  return a;',
        '}',
      ),
      errors: [
        { line: 10, column: 46 },
        { line: 17, column: 49 },
        { line: 18, column: 21 },
      ],
    },
    {
      name: "an agent's options held by a name: this function's, not another function's `const opts`",
      code: lines(
        SDK,
        "function quiet() { const opts = { name: 'q' }; return new Agent(opts); }",
        "export function loud() { const opts = { name: 'l', mcpServers: [new MCPServerStdio({ name: 'gh', fullCommand: 'y' })] }; return new Agent(opts); }",
      ),
      errors: [{ line: 3, column: 65 }],
    },
    {
      name: "a name read where it is used: another function's guarded servers are not this one's, nor a parameter's",
      code: lines(
        SDK,
        GEN,
        'function guarded() {',
        "  const servers = [protectMcpServer(new MCPServerStdio({ name: 'fs', fullCommand: 'x' }))];",
        "  const fs = protectMcpServer(new MCPServerStdio({ name: 'fs2', fullCommand: 'x' }));",
        "  return [new Agent({ name: 'a', mcpServers: servers }), new Agent({ name: 'a2', mcpServers: [fs] })];",
        '}',
        'export function open() {',
        "  const servers = [new MCPServerStdio({ name: 'gh', fullCommand: 'y' })];",
        "  return new Agent({ name: 'b', mcpServers: servers });",
        '}',
        'export function given(servers: MCPServerStdio[]) {',
        "  return new Agent({ name: 'c', mcpServers: servers });",
        '}',
        'export function nested() {',
        "  const fs = new MCPServerStdio({ name: 'gh2', fullCommand: 'y' });",
        '  const servers = [fs];',
        "  return new Agent({ name: 'd', mcpServers: servers });",
        '}',
        'export function later() {',
        "  let fs = protectMcpServer(new MCPServerStdio({ name: 'fs3', fullCommand: 'x' }));",
        "  fs = new MCPServerStdio({ name: 'gh3', fullCommand: 'y' });",
        "  return new Agent({ name: 'e', mcpServers: [fs] });",
        '}',
        'export function shadowed() {',
        "  const fs = new MCPServerStdio({ name: 'gh4', fullCommand: 'y' });",
        '  const servers = [fs];',
        '  {',
        "    const fs = protectMcpServer(new MCPServerStdio({ name: 'fs4', fullCommand: 'x' }));",
        "    return [fs, new Agent({ name: 'f', mcpServers: servers })];",
        '  }',
        '}',
      ),
      errors: [
        { line: 9, column: 20 },
        { line: 13, column: 45 },
        { line: 17, column: 20 },
        { line: 23, column: 46, mentions: 'cannot' },
        { line: 27, column: 20 },
      ],
    },
    {
      name: 'connectMcpServers(...).active: each unguarded server, where connectMcpServers is given it (issue 35)',
      code: lines(
        "import { Agent, MCPServerStdio, connectMcpServers } from '@openai/agents';",
        "const github = new MCPServerStdio({ name: 'github', fullCommand: 'x' });",
        "const servers = await connectMcpServers([github, new MCPServerStdio({ name: 'fs', fullCommand: 'y' })]);",
        'const active = servers.active;',
        "export const a = new Agent({ name: 'a', mcpServers: active });",
      ),
      errors: [
        { line: 3, column: 42, mentions: 'MCP server `github`' },
        { line: 3, column: 50, mentions: 'protectMcpServer' },
      ],
    },
    {
      name: 'an MCPServers of unknown origin is still reported (fail closed)',
      code: lines(
        "import { Agent, MCPServerStdio, connectMcpServers } from '@openai/agents';",
        "export function agentOf(servers: { active: never[] }) { return new Agent({ name: 'a', mcpServers: servers.active }); }",
      ),
      errors: [{ line: 2, column: 99, mentions: 'cannot follow' }],
    },
    {
      name: 'an unguarded server: an error naming the server and the fix',
      code: lines(
        SDK,
        "const github = new MCPServerStdio({ name: 'github', fullCommand: 'x' });",
        "export const a = new Agent({ name: 'a', mcpServers: [github] });",
      ),
      errors: [{ line: 3, column: 54, severity: 'error', mentions: 'protectMcpServer(github)' }],
    },
    {
      name: 'only the unguarded one of two',
      code: lines(
        SDK,
        GEN,
        "const fs = protectMcpServer(new MCPServerStdio({ name: 'fs', fullCommand: 'x' }));",
        "export const a = new Agent({ name: 'a', mcpServers: [fs, new MCPServerStdio({ name: 'gh', fullCommand: 'y' })] });",
      ),
      errors: [{ line: 4, column: 58, mentions: 'server: gh' }],
    },
    {
      name: 'Agent.create, a server check cannot follow',
      code: lines(SDK, 'export const a = Agent.create({', "  name: 'a',", '  mcpServers: await loadServers(),', '});'),
      errors: [{ line: 4, column: 15, mentions: 'cannot follow' }],
    },
    {
      name: 'a clone given other servers',
      code: lines(SDK, GEN, "const a = protectAgent(new Agent({ name: 'a' }));", 'export const b = a.clone({ mcpServers: [server] });'),
      errors: [{ line: 4, column: 41, mentions: "a clone's `mcpServers`" }],
    },
    {
      name: 'a later assignment and a push',
      code: lines(
        SDK,
        GEN,
        "const a = new Agent({ name: 'a', mcpServers: [protectMcpServer(s)] });",
        'a.mcpServers = [t];',
        'a.mcpServers.push(u, protectMcpServer(v));',
      ),
      errors: [
        { line: 4, column: 17, mentions: 'assigned later' },
        { line: 5, column: 19, mentions: 'pushed later' },
      ],
    },
    {
      name: "a server's errorFunction and mcpConfig.errorFunction",
      code: lines(
        SDK,
        GEN,
        "const fs = protectMcpServer(new MCPServerStdio({ name: 'fs', fullCommand: 'x', errorFunction: () => 'failed' }));",
        "export const a = new Agent({ name: 'a', mcpServers: [fs], mcpConfig: { errorFunction: ({ error }) => String(error) } });",
      ),
      errors: [
        { line: 3, column: 80, mentions: "server's own `errorFunction`" },
        { line: 4, column: 72, mentions: 'mcpConfig.errorFunction' },
      ],
    },
  ],
});

// Red team #10 (issue 35): servers collected in a local array before it reaches `mcpServers`.
ruleTester('mcp-server-unguarded', {
  valid: [
    {
      name: 'guarded servers pushed; the array read, iterated, given to connectMcpServers',
      code: lines(
        "import { Agent, MCPServerStdio, connectMcpServers, type MCPServer } from '@openai/agents';",
        GEN,
        'const mcpServers: MCPServer[] = [];',
        "mcpServers.push(protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'x' })));",
        'for (const s of mcpServers) await s.connect();',
        'console.log(mcpServers.length, mcpServers.map((s) => s.name));',
        'await using servers = await connectMcpServers(mcpServers);',
        "export const a = new Agent({ name: 'a', mcpServers });",
        "export const b = new Agent({ name: 'b', mcpServers: servers.active });",
      ),
    },
  ],
  invalid: [
    {
      name: 'a server pushed, unshifted, spliced into a local array',
      code: lines(
        "import { Agent, MCPServerStdio, type MCPServer } from '@openai/agents';",
        'const mcpServers: MCPServer[] = [];',
        "if (process.env.GITHUB_MCP !== 'off') mcpServers.push(new MCPServerStdio({ name: 'github', command: 'node', args: ['s.mjs'] }));",
        "mcpServers.unshift(new MCPServerStdio({ name: 'fs', fullCommand: 'x' }));",
        "mcpServers.splice(0, 0, new MCPServerStdio({ name: 'db', fullCommand: 'x' }));",
        "export const triage = new Agent({ name: 'triage', instructions: 'x', mcpServers });",
      ),
      errors: [
        { line: 3, column: 55, mentions: 'unguarded' },
        { line: 4, column: 20 },
        { line: 5, column: 25 },
      ],
    },
    {
      name: 'a local array changed where check cannot follow, and spread into the list',
      code: lines(
        "import { Agent, MCPServerStdio, type MCPServer } from '@openai/agents';",
        'const extra: MCPServer[] = [];',
        'extra[0] = makeServer();',
        'register(extra);',
        'extra.fill(makeServer());',
        "export const a = new Agent({ name: 'a', mcpServers: [...extra] });",
      ),
      errors: [
        { line: 3, column: 1, mentions: 'cannot follow' },
        { line: 4, column: 10 },
        { line: 5, column: 1 },
      ],
    },
    {
      // a destructuring's names are one declaration each: guarding one guards no sibling
      name: 'a guard on one name of a destructuring guards that name only (not its siblings)',
      code: lines(
        SDK,
        GEN,
        'declare function startServers(): Promise<{ github: MCPServerStdio; shell: MCPServerStdio }>;',
        'const { github, shell } = await startServers();',
        'protectMcpServer(github);',
        "export const a = new Agent({ name: 'a', mcpServers: [github, shell] });",
        'export function b({ db, kv }: { db: MCPServerStdio; kv: MCPServerStdio }) {',
        '  protectMcpServer(db);',
        "  return new Agent({ name: 'b', mcpServers: [db, kv] });",
        '}',
        "const [fs, sh] = [new MCPServerStdio({ name: 'fs', fullCommand: 'x' }), new MCPServerStdio({ name: 'sh', fullCommand: 'y' })];",
        'protectMcpServer(fs);',
        "export const c = new Agent({ name: 'c', mcpServers: [fs, sh] });",
        'declare function team(): { triage: Agent; ops: Agent };',
        'const { triage, ops } = team();',
        'protectAgent(triage);',
        "ops.mcpServers.push(new MCPServerStdio({ name: 'ops', fullCommand: 'z' }));",
      ),
      errors: [
        { line: 6, column: 62 },
        { line: 9, column: 50 },
        { line: 13, column: 58 },
        { line: 17, column: 21 },
      ],
    },
    // issue 40, red team 18: each of these left an unguarded MCP server in the model's reach while
    // check (and the ESLint plugin) reported nothing. A list is read where it is written (any
    // property named mcpServers, any write to or change of an `.mcpServers`), not where an agent is made
    {
      name: 'any `mcpServers` property: the options a factory function spreads into new Agent',
      code: lines(
        SDK,
        'function makeAgent(opts: { name: string; mcpServers: MCPServerStdio[] }) {',
        "  return new Agent({ instructions: 'Answer from the files.', ...opts });",
        '}',
        "export const files = makeAgent({ name: 'files', mcpServers: [new MCPServerStdio({ name: 'fs', fullCommand: 'x' })] });",
      ),
      errors: [{ line: 5, column: 62 }],
    },
    {
      name: 'any `mcpServers` property: the options a factory function hands to new Agent as they are',
      code: lines(
        SDK,
        'function makeAgent(opts: ConstructorParameters<typeof Agent>[0]) {',
        '  return new Agent(opts);',
        '}',
        "export const files = makeAgent({ name: 'files', mcpServers: [new MCPServerStdio({ name: 'fs', fullCommand: 'x' })] });",
      ),
      errors: [{ line: 5, column: 62 }],
    },
    {
      name: "any `mcpServers` property: a subclass's super() options",
      code: lines(
        SDK,
        'class FilesAgent extends Agent {',
        '  constructor() {',
        "    super({ name: 'files', mcpServers: [new MCPServerStdio({ name: 'fs', fullCommand: 'x' })] });",
        '  }',
        '}',
        'export const files = new FilesAgent();',
      ),
      errors: [{ line: 4, column: 41 }],
    },
    {
      name: 'any `mcpServers` property: a shared const object spread into the options',
      code: lines(
        SDK,
        "const shared = { mcpServers: [new MCPServerStdio({ name: 'fs', fullCommand: 'x' })] };",
        "export const files = Agent.create({ name: 'files', ...shared });",
      ),
      errors: [{ line: 2, column: 31 }],
    },
    {
      name: 'any `mcpServers` property: options held by a `let`',
      code: lines(
        SDK,
        "let options = { name: 'files', mcpServers: [new MCPServerStdio({ name: 'fs', fullCommand: 'x' })] };",
        "if (process.env.MODEL) options = { ...options, name: 'files2' };",
        'export const files = new Agent(options);',
      ),
      errors: [{ line: 2, column: 45 }],
    },
    {
      name: 'any `mcpServers` property: options returned by a function of the file',
      code: lines(
        SDK,
        "function filesOptions() { return { name: 'files', mcpServers: [new MCPServerStdio({ name: 'fs', fullCommand: 'x' })] }; }",
        'export const files = new Agent(filesOptions());',
      ),
      errors: [{ line: 2, column: 64 }],
    },
    {
      name: "a server added to an agent's list by unshift, splice, an index, Object.assign or an element access",
      code: lines(
        SDK,
        "export const files = new Agent({ name: 'files' });",
        "files.mcpServers.unshift(new MCPServerStdio({ name: 'fs', fullCommand: 'x' }));",
        "files.mcpServers.splice(0, 0, new MCPServerStdio({ name: 'gh', fullCommand: 'y' }));",
        "files.mcpServers[1] = new MCPServerStdio({ name: 'db', fullCommand: 'z' });",
        "Object.assign(files, { mcpServers: [new MCPServerStdio({ name: 'sh', fullCommand: 'w' })] });",
        "files['mcpServers'].push(new MCPServerStdio({ name: 'kv', fullCommand: 'v' }));",
        "files.mcpServers[2] ??= new MCPServerStdio({ name: 'ev', fullCommand: 'u' });",
      ),
      errors: [
        { line: 3, column: 26 },
        { line: 4, column: 31 },
        { line: 5, column: 23 },
        { line: 6, column: 37 },
        { line: 7, column: 26 },
        { line: 8, column: 25 },
      ],
    },
    {
      name: "a server pushed onto an agent's list held by another name",
      code: lines(
        SDK,
        "export const files = new Agent({ name: 'files' });",
        'const servers = files.mcpServers;',
        "servers.push(new MCPServerStdio({ name: 'fs', fullCommand: 'x' }));",
      ),
      errors: [{ line: 4, column: 14 }],
    },
    {
      name: "a guarded variable given another server by a second `var` or a destructuring assignment: the guard is not the new one's",
      code: lines(
        SDK,
        GEN,
        "var fs = new MCPServerStdio({ name: 'fs', fullCommand: 'x' });",
        'protectMcpServer(fs);',
        "var fs = new MCPServerStdio({ name: 'sh', fullCommand: 'y' });",
        "let gh = new MCPServerStdio({ name: 'gh', fullCommand: 'z' });",
        'protectMcpServer(gh);',
        "[gh] = [new MCPServerStdio({ name: 'db', fullCommand: 'w' })];",
        "export const a = new Agent({ name: 'a', mcpServers: [fs, gh] });",
      ),
      errors: [
        { line: 9, column: 54 },
        { line: 9, column: 58 },
      ],
    },
  ],
});

// Issue 40 (red team 18): lists read where they are written, whatever carries them to an agent.
ruleTester('mcp-server-unguarded', {
  valid: [
    {
      name: 'what is not a list of servers: a config map, a literal, a destructuring target, getAllMcpTools options, reads of a list',
      code: lines(
        "import { Agent, MCPServerStdio, getAllMcpTools } from '@openai/agents';",
        GEN,
        "const config = { mcpServers: { github: { command: 'npx', args: ['gh'] } }, other: { mcpServers: undefined } };",
        'let mcpServers: unknown;',
        '({ mcpServers } = config);',
        "const tools = await getAllMcpTools({ mcpServers: [new MCPServerStdio({ name: 'fs', fullCommand: 'x' })] }); // mcp-function-tool's finding",
        "export const a = new Agent({ name: 'a', tools });",
        'for (const s of a.mcpServers) await s.connect();',
        'console.log(a.mcpServers.length, [...a.mcpServers], a.mcpServers.map((s) => s.name), JSON.stringify(a.mcpServers));',
        'a.mcpServers.sort().reverse();',
        'await Promise.all(a.mcpServers.map((s) => s.close()));',
        'if (a.mcpServers.length > 0 && a.mcpServers) a.mcpServers.length = 0;',
        'const picked: MCPServerStdio[] = a.mcpServers ? [] : [];',
        "picked.push(new MCPServerStdio({ name: 'local', fullCommand: 'x' }));",
      ),
    },
    {
      name: 'guarded servers however the list is carried',
      code: lines(
        SDK,
        GEN,
        'class FilesAgent extends Agent {',
        "  mcpServers = [protectMcpServer(new MCPServerStdio({ name: 'fs', fullCommand: 'x' }))];",
        '}',
        "export const files = new FilesAgent({ name: 'files' });",
        "files.mcpServers.push(protectMcpServer(new MCPServerStdio({ name: 'gh', fullCommand: 'y' })));",
        "files.mcpServers[0] = protectMcpServer(new MCPServerStdio({ name: 'db', fullCommand: 'z' }));",
        'const list = files.mcpServers ?? [];',
        "list.unshift(protectMcpServer(new MCPServerStdio({ name: 'kv', fullCommand: 'v' })));",
      ),
    },
    {
      name: 'a file that does not import the SDK: its `mcpServers` properties are not an agent of the SDK',
      code: lines("import { makeAgent } from 'other';", "export const a = makeAgent({ mcpServers: [new Server({ name: 'fs' })] });"),
    },
  ],
  invalid: [
    {
      name: "an Agent subclass's own list, a logical assignment, fill",
      code: lines(
        SDK,
        'class FilesAgent extends Agent {',
        "  mcpServers = [new MCPServerStdio({ name: 'fs', fullCommand: 'x' })];",
        '}',
        "export const files = new FilesAgent({ name: 'files' });",
        "files.mcpServers ??= [new MCPServerStdio({ name: 'gh', fullCommand: 'y' })];",
        "files.mcpServers.fill(new MCPServerStdio({ name: 'db', fullCommand: 'z' }));",
      ),
      errors: [
        { line: 3, column: 17 },
        { line: 6, column: 23 },
        { line: 7, column: 23 },
      ],
    },
    {
      name: 'mcpServers written by Object.defineProperty or Reflect.set: the value, or the whole write when check cannot read it',
      code: lines(
        SDK,
        GEN,
        "export const files = new Agent({ name: 'files' });",
        "Object.defineProperty(files, 'mcpServers', { value: [new MCPServerStdio({ name: 'fs', fullCommand: 'x' })], writable: true });",
        "Reflect.set(files, 'mcpServers', [new MCPServerStdio({ name: 'gh', fullCommand: 'y' })]);",
        "Object.defineProperty(files, 'mcpServers', { get: () => [new MCPServerStdio({ name: 'db', fullCommand: 'z' })] });",
        "Object.defineProperty(files, 'mcpServers', { value: [protectMcpServer(new MCPServerStdio({ name: 'ok', fullCommand: 'w' }))] });",
        "Object.defineProperty(files, 'mcpServers', { ...descriptor, value: [protectMcpServer(new MCPServerStdio({ name: 'ok2', fullCommand: 'w' }))] });",
        "Object.defineProperty(files, 'name', { value: 'other' });",
      ),
      errors: [
        { line: 4, column: 54 },
        { line: 5, column: 35 },
        { line: 6, column: 1, mentions: 'cannot follow' },
        { line: 8, column: 1, mentions: 'cannot follow' },
      ],
    },
    {
      name: "an agent's list handed on, returned, changed by a method check does not know, or held past `??`: cannot follow",
      code: lines(
        SDK,
        "export const files = new Agent({ name: 'files' });",
        'register(files.mcpServers);',
        'export function serversOf() { return files.mcpServers; }',
        'files.mcpServers.add(thing);',
        'const list = files.mcpServers ?? [];',
        "list.push(new MCPServerStdio({ name: 'gh', fullCommand: 'y' }));",
        'extend(list);',
        "export const other = new Agent({ name: 'other', mcpServers: files.mcpServers });",
        'other.mcpServers = files.mcpServers;',
      ),
      errors: [
        { line: 3, column: 10, mentions: 'handed on' },
        { line: 4, column: 38, mentions: 'cannot follow' },
        { line: 5, column: 1, mentions: 'cannot follow' },
        { line: 7, column: 11 },
        { line: 8, column: 8, mentions: 'cannot follow' },
        // given to another agent's list: reported once, there (not again as handed on)
        { line: 9, column: 61, mentions: 'cannot follow' },
        { line: 10, column: 20, mentions: 'cannot follow' },
      ],
    },
  ],
});
