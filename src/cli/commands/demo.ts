import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../diagnostics.js';
import { APPROVER, countReceipts, loadSample, REQUESTER, scriptedRefund, supportDesk, toolOutputFor, type Sample } from '../../demo/agent-runs.js';
import { narrator } from '../../demo/narrate.js';
import { compileWorkspace, makeWorkspace, PACKAGE_ROOT } from '../../demo/workspace.js';
import type { CliContext, CommandSpec } from '../context.js';

interface DemoArgs {
  keep?: boolean;
}

/** The resuming process runs the built child (also when this command runs from source, in tests). */
const RESUME_CHILD = path.join(PACKAGE_ROOT, 'dist', 'demo', 'resume-child.js');

export const demoCommand: CommandSpec<DemoArgs> = {
  command: 'demo',
  describe: 'Run the whole loop on the bundled sample (generate, codemod, check, approvals), with no API key',
  builder: (y) => y.option('keep', { type: 'boolean', default: false, describe: 'Keep the temporary workspace and print its path' }),
  examples: [
    ['ctrlrun-gen demo', 'Protect the bundled refund desk and run it with a scripted model'],
    ['ctrlrun-gen demo --keep', 'The same, keeping the workspace to look around'],
  ],
  run: async (args, ctx) => {
    const say = narrator(ctx.stdout, ctx.color);
    const workspace = makeWorkspace();
    const here = process.cwd();
    try {
      say.step('A copy of the bundled refund desk, in a temporary directory');
      say.say('Three SDK tools (lookup_charge, refund, close_account), a policy (ctrlrun.yaml) and a manifest (ctrlrun.tools.yaml),');
      say.say('which also maps the tool issue_credit of an MCP server named support to the action support.issue_credit.');
      say.say(`Workspace: ${workspace.dir}`);

      const sub = async (argv: string[], expected: number, what: string): Promise<void> => {
        let out = '';
        if (!ctx.runCli) throw new Error('demo: runs only inside the CLI (runCli hands it the CLI to drive).');
        const code = await ctx.runCli([...argv, '--cwd', workspace.dir], {
          cwd: workspace.dir,
          env: { ...ctx.env },
          stdout: (t) => (out += t),
          stderr: (t) => (out += t),
          isTTY: ctx.color,
        });
        say.say(`$ npx ctrlrun-gen ${argv.join(' ')}`);
        say.block(out);
        if (code !== expected) throw new UserError(`demo: \`ctrlrun-gen ${argv.join(' ')}\` exited ${code} (expected ${expected}) while ${what}.`);
      };

      say.step('Generate the module of protected tools from the policy');
      await sub(['generate'], 0, 'generating');
      say.step('The codemod, as a dry run: what it would change');
      await sub(['codemod'], 0, 'showing the diff');
      say.step('The codemod, for real');
      await sub(['codemod', '--write', ...(workspace.git ? [] : ['--allow-dirty'])], 0, 'rewriting');
      say.step('The CI lint passes: no open door left');
      await sub(['check'], 0, 'checking');

      say.step('Run the agent with a scripted model (no API key) and the SQLite store');
      compileWorkspace(workspace.dir);
      mkdirSync(path.join(workspace.dir, '.ctrlrun'), { recursive: true });
      // The control's SQLite path is relative to the process's working directory, as in the user's app.
      process.chdir(workspace.dir);
      const sample = await loadSample(workspace.dir);
      await scenario(sample, workspace.dir, ctx, say, sub);

      say.step("An MCP server's tool pauses for a person too");
      await mcpScene(sample, workspace.dir, ctx, say, sub);

      say.step('The evidence chain');
      await sub(['receipts', 'verify'], 0, 'verifying receipts');
      ctx.stdout('\nDone. Next, in your own agent repo: npx ctrlrun-gen init\n');
      const where = args.keep ? ` --cwd ${workspace.dir}` : '';
      ctx.stdout(
        '\nTo answer paused calls in a browser, give each approver a token and serve the inbox:\n' +
          `  npx ctrlrun-gen operators add bob@payments.example --role payments-approver${where}\n` +
          `  npx ctrlrun-gen serve${where}\n` +
          'then open http://127.0.0.1:8787/ and sign in with the token `operators add` printed.\n',
      );
      return 0;
    } finally {
      process.chdir(here);
      if (args.keep) ctx.stdout(`(workspace kept: ${workspace.dir})\n`);
      else rmSync(workspace.dir, { recursive: true, force: true });
    }
  },
};

type Say = ReturnType<typeof narrator>;
/** Runs one operator CLI command inside the demo, expecting its exit code. */
type Sub = (argv: string[], expected: number, what: string) => Promise<void>;

async function scenario(sample: Sample, dir: string, ctx: CliContext, say: Say, sub: Sub): Promise<void> {
  const { runtime } = sample;
  const context = { user: REQUESTER };

  // An allowed refund runs.
  const small = sample.agent.clone({ model: scriptedRefund(sample, 'call_small', { payment_id: 'pay_1001', amount: 4_500 }, 'Refunded 45.00 EUR.') });
  const allowed = await runtime.run(small, 'Please refund my 45 EUR order pay_1001.', { context });
  say.say(`refund 4,500 cents on pay_1001 (rule: allow up to 10,000): the tool answered "${toolOutputFor(allowed, 'call_small')}"`);
  expectCount(await countReceipts(sample, 'call_small', 'executed'), 1, 'the allowed refund to run once');
  say.ok('ran once');

  // A denied refund never runs; the model is told so, not "please try again".
  const huge = sample.agent.clone({ model: scriptedRefund(sample, 'call_huge', { payment_id: 'pay_1003', amount: 2_000_000 }, 'I cannot refund that.') });
  const denied = await runtime.run(huge, 'Refund all of pay_1003.', { context });
  say.say(`refund 2,000,000 cents on pay_1003 (above the approval band): the model read "${toolOutputFor(denied, 'call_huge')}"`);
  expectCount(await countReceipts(sample, 'call_huge', 'executed'), 0, 'the denied refund never to run');
  say.ok('did not run');

  // A large refund pauses for a human.
  const large = sample.agent.clone({ model: scriptedRefund(sample, 'call_large', { payment_id: 'pay_1002', amount: 250_000 }, 'unused') });
  const paused = await runtime.run(large, 'Refund 2,500 EUR on pay_1002.', { context });
  if (paused.interruptions.length !== 1) throw new UserError('demo: the large refund should have paused for approval.');
  await sample.control.request(paused.state);
  const stateFile = path.join(dir, '.ctrlrun', 'paused-run.json');
  writeFileSync(stateFile, paused.state.toString());
  say.say('refund 250,000 cents on pay_1002 (needs a human): the run paused; the request is in the store and the run state saved.');
  await sub(['approvals', 'list', '--pending'], 0, 'listing pending approvals');

  // Someone else approves, from the operator's CLI (the same store calls as control.approve).
  say.say(`${REQUESTER} asked for it, so they cannot approve it themselves:`);
  await sub(['approvals', 'approve', 'call_large', '--as', REQUESTER], 2, 'letting the requester approve');
  say.say(`${APPROVER}, a second person, approves it:`);
  await sub(['approvals', 'approve', 'call_large', '--as', APPROVER, '--reason', 'checked with the customer'], 0, 'approving');

  // Another process restores the saved state and resumes: the body runs exactly once.
  const first = resume(dir, stateFile, ctx);
  say.say(`a new process restores the saved state and resumes: ${first.outcome}, the tool answered "${first.toolOutput}"`);
  expectCount(first.executed, 1, 'the approved refund to run once');
  say.ok('ran once');

  // Replaying the same approved state runs nothing.
  const replay = resume(dir, stateFile, ctx);
  say.say(
    replay.outcome === 'refused'
      ? `restoring the same saved state again: refused with ${replay.error} (${replay.reason})`
      : `restoring the same saved state again: the approval is already used, so the model was told "${replay.toolOutput}"`,
  );
  expectCount(replay.executed, 1, 'the replay to run nothing');
  say.ok('nothing ran; still exactly one refund');
}

/**
 * The MCP door: a real MCP server (streamable HTTP on 127.0.0.1, in this process) whose tool the
 * generated module's protectMcpTools guards. An allowed call runs on the server once; a larger one
 * pauses before the server is called, a second person approves, another process resumes it (with
 * its own MCP client) and the server runs it once; a replay runs nothing.
 */
async function mcpScene(sample: Sample, dir: string, ctx: CliContext, say: Say, sub: Sub): Promise<void> {
  const { runtime } = sample;
  const { ScriptedModel, functionCall, assistantMessage } = sample.testing;
  const context = { user: REQUESTER };
  const scripted = (callId: string, args: { account_id: string; amount: number }, reply: string) =>
    new ScriptedModel([[functionCall('issue_credit', args, { callId })], [assistantMessage(reply)]]);
  const { startSupportServer } = await import('../../demo/support-server.js');
  const server = await startSupportServer();
  try {
    say.say('A real MCP server, support (streamable HTTP on 127.0.0.1), lists issue_credit. The agent gets its tools');
    say.say('through protectMcpTools from the generated module: each call is decided by support.issue_credit.');

    const small = await supportDesk(sample, server.url, scripted('credit_small', { account_id: 'acct_7', amount: 300 }, 'Credited 3.00 EUR.'));
    try {
      const allowed = await runtime.run(small.agent, 'A 3 EUR goodwill credit for acct_7, please.', { context });
      say.say(`issue_credit 300 cents to acct_7 (rule: allow up to 500): the MCP server answered "${toolOutputFor(allowed, 'credit_small')}"`);
    } finally {
      await small.close();
    }
    expectCount(server.credits.length, 1, 'the allowed credit to run once on the MCP server');
    say.ok('ran once on the MCP server');

    const large = await supportDesk(sample, server.url, scripted('credit_large', { account_id: 'acct_7', amount: 2_000 }, 'unused'));
    // the server closes whether the run resolves or throws (as a finally block would)
    const paused = await runtime.run(large.agent, 'A 20 EUR goodwill credit for acct_7.', { context }).finally(() => large.close());
    if (paused.interruptions.length !== 1) throw new UserError('demo: the large credit should have paused for approval.');
    await sample.control.request(paused.state);
    const stateFile = path.join(dir, '.ctrlrun', 'paused-credit.json');
    writeFileSync(stateFile, paused.state.toString());
    say.say('issue_credit 2,000 cents to acct_7 (needs a human): the run paused before the MCP server was called.');
    expectCount(server.credits.length, 1, 'the paused credit not to reach the MCP server');
    await sub(['approvals', 'list', '--pending'], 0, 'listing the pending MCP call');
    say.say(`${APPROVER} approves it:`);
    await sub(['approvals', 'approve', 'credit_large', '--as', APPROVER, '--reason', 'goodwill, checked'], 0, 'approving the MCP call');

    // the server lives in this process: the resuming process must not block it (spawn, not spawnSync)
    const first = await resumeAsync(dir, stateFile, 'credit_large', server.url, ctx);
    say.say(`a new process (its own MCP client) restores the saved state and resumes: ${first.outcome}, the MCP server answered "${first.toolOutput}"`);
    expectCount(first.executed, 1, 'the approved credit to run once');
    expectCount(server.credits.length, 2, 'the approved credit to reach the MCP server once');
    say.ok('ran once on the MCP server');

    const replay = await resumeAsync(dir, stateFile, 'credit_large', server.url, ctx);
    say.say(
      replay.outcome === 'refused'
        ? `restoring the same saved state again: refused with ${replay.error} (${replay.reason})`
        : `restoring the same saved state again: the approval is already used, so the model was told "${replay.toolOutput}"`,
    );
    expectCount(server.credits.length, 2, 'the replay not to reach the MCP server');
    say.ok('nothing ran; the MCP server credited acct_7 twice in all (300 and 2,000 cents)');
  } finally {
    await server.close();
  }
}

function resumeAsync(dir: string, stateFile: string, callId: string, url: string, ctx: CliContext): Promise<ChildOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RESUME_CHILD, stateFile, callId, url], {
      cwd: dir,
      env: { ...process.env, ...ctx.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as ChildOutcome);
      } catch {
        reject(new UserError(`demo: the resuming process failed (exit ${code}): ${err.trim() || out.trim()}`));
      }
    });
  });
}

interface ChildOutcome {
  outcome: 'ran' | 'refused';
  toolOutput?: string;
  error?: string;
  reason?: string;
  executed: number;
}

function resume(dir: string, stateFile: string, ctx: CliContext): ChildOutcome {
  const child = spawnSync(process.execPath, [RESUME_CHILD, stateFile, 'call_large'], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...ctx.env } });
  const line = child.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as ChildOutcome;
  } catch {
    throw new UserError(`demo: the resuming process failed (exit ${child.status}): ${child.stderr.trim() || child.stdout.trim()}`);
  }
}

function expectCount(actual: number, expected: number, what: string): void {
  if (actual !== expected) throw new UserError(`demo: expected ${what}, but the receipts show ${actual} execution(s).`);
}
