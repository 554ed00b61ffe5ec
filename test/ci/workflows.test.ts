import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../helpers/paths.js';

/**
 * The CI files users copy or call (action.yml, templates/*.yml), read statically: every `uses:` is
 * pinned to a full commit with its version in a comment, every job names its permissions and only
 * jobs that never run the pull request's code hold a write scope.
 *
 * The pins, each checked against its repository's tags (the tag's commit, dereferenced): moving
 * one is a change to this table too.
 */
const PINS: Record<string, { sha: string; version: string }> = {
  'actions/checkout': { sha: '11d5960a326750d5838078e36cf38b85af677262', version: 'v4.4.0' },
  'actions/setup-node': { sha: '49933ea5288caeca8642d1e84afbd3f7d6820020', version: 'v4.4.0' },
  'actions/upload-artifact': { sha: 'ea165f8d65b6e75b540449e92b4886f43607fa02', version: 'v4.6.2' },
  'github/codeql-action/upload-sarif': { sha: 'dd903d2e4f5405488e5ef1422510ee31c8b32357', version: 'v3.36.2' },
};
const FILES = ['action.yml', 'templates/github-workflow.yml', 'templates/github-workflow-report.yml'];
const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

/** Every `uses:` line that is not a comment: [file:line, the reference, the rest of the line]. */
function usesLines(file: string, text: string): Array<[string, string, string]> {
  return text.split('\n').flatMap((line, i) => {
    const m = /^\s*(?:-\s+)?uses:\s*(\S+)(.*)$/.exec(line);
    return m ? [[`${file}:${i + 1}`, m[1]!, m[2]!] as [string, string, string]] : [];
  });
}

/** Why a `uses:` line is not pinned as this repository pins, or undefined. */
function pinProblem(ref: string, rest: string): string | undefined {
  const m = /^([\w.-]+\/[\w.-]+(?:\/[\w./-]+)?)@([0-9a-f]{40})$/.exec(ref);
  if (!m) return `${ref}: not pinned to a full commit`;
  const pin = PINS[m[1]!];
  if (!pin) return `${m[1]}: not an action this repository's pins know`;
  if (m[2] !== pin.sha) return `${ref}: not the commit of ${pin.version} (${pin.sha})`;
  if (rest.trim() !== `# ${pin.version}`) return `${ref}: the comment must say its version (# ${pin.version})`;
  return undefined;
}

const WRITE = (p: Record<string, string> | undefined) =>
  Object.entries(p ?? {})
    .filter(([, v]) => v === 'write')
    .map(([k]) => k);

describe('the CI files users copy or call', () => {
  it('pin every `uses:` to a full commit with its version in a comment', () => {
    const lines = FILES.flatMap((f) => usesLines(f, read(f)));
    expect(lines.length).toBeGreaterThanOrEqual(8);
    expect(lines.map(([at, ref, rest]) => [at, pinProblem(ref, rest)]).filter(([, p]) => p !== undefined)).toEqual([]);
  });

  it('the check recognises a tag, a short or unknown commit, a wrong comment', () => {
    expect(pinProblem('actions/checkout@v4', '')).toMatch(/not pinned to a full commit/);
    expect(pinProblem('actions/checkout@11d5960', ' # v4.4.0')).toMatch(/not pinned/);
    expect(pinProblem(`actions/checkout@${'a'.repeat(40)}`, ' # v4.4.0')).toMatch(/not the commit of v4.4.0/);
    expect(pinProblem(`actions/checkout@${PINS['actions/checkout']!.sha}`, '')).toMatch(/must say its version/);
    expect(pinProblem(`someone/else@${'b'.repeat(40)}`, ' # v1')).toMatch(/not an action this repository's pins know/);
    expect(usesLines('x', '#   - uses: actions/checkout@v4\n    - uses: a/b@c # d')).toEqual([['x:2', 'a/b@c', ' # d']]);
  });

  it('give each job its own permissions; the jobs that run the pull request (or any pushed) code hold no write scope', () => {
    const check = parse(read('templates/github-workflow.yml')) as Workflow;
    expect(Object.keys(check.on).sort()).toEqual(['pull_request', 'push']);
    expect(check.permissions).toEqual({});
    for (const [name, job] of Object.entries(check.jobs)) {
      expect(job.permissions, name).toEqual({ contents: 'read' });
      expect(WRITE(job.permissions), name).toEqual([]);
      // the checkout leaves no token in the clone for the pull request's scripts to find
      for (const s of job.steps.filter((s) => s.uses?.startsWith('actions/checkout@'))) expect(s.with?.['persist-credentials'], name).toBe(false);
      // no comment, no code scanning upload from here: the report workflow does both
      expect(
        job.steps.some((s) => s.uses?.startsWith('github/codeql-action/') || s.run?.includes('gh pr comment')),
        name,
      ).toBe(false);
    }
  });

  it('leave the writes to a workflow_run workflow that never checks out or runs the pull request, and reads its artifacts as data', () => {
    const check = parse(read('templates/github-workflow.yml')) as Workflow;
    const report = parse(read('templates/github-workflow-report.yml')) as Workflow;
    expect(report.on).toEqual({ workflow_run: { workflows: [check.name], types: ['completed'] } });
    expect(report.permissions).toEqual({});
    const writes = Object.fromEntries(Object.entries(report.jobs).map(([n, j]) => [n, WRITE(j.permissions)]));
    expect(writes).toEqual({ 'code-scanning': ['security-events'], comment: ['pull-requests'] });
    for (const [name, job] of Object.entries(report.jobs)) {
      for (const s of job.steps) {
        expect(s.uses?.startsWith('actions/checkout@') ?? false, name).toBe(false);
        expect(/\b(npm|npx|node)\b/.test(s.run ?? ''), name).toBe(false);
        // the event's and the artifacts' text reach a script only through env (no expression inside `run:`)
        expect(s.run ?? '', name).not.toMatch(/\$\{\{/);
        // the pull request's number came from its own code: a number, and that pull request's head must be the checked commit
        if (s.run?.includes('pr-number')) {
          expect(s.run).toContain('case "$pr" in \'\'|*[!0-9]*)');
          expect(s.run).toContain('--jq .head.sha)" = "$HEAD_SHA"');
        }
      }
    }
    // what the check workflow hands over is what the report workflow fetches
    const handed = Object.values(check.jobs).flatMap((j) => j.steps.filter((s) => s.uses?.startsWith('actions/upload-artifact@')).map((s) => s.with?.name));
    for (const name of ['ctrlrun-sarif', 'policy-report']) {
      expect(handed).toContain(name);
      expect(read('templates/github-workflow-report.yml')).toContain(`--name ${name}`);
    }
  });

  it('the docs name the release refs the release script makes, and show pinned actions only', () => {
    const ci = read('docs/ci.md');
    for (const [at, ref, rest] of usesLines('docs/ci.md', ci)) {
      if (ref.startsWith('<owner>/ctrlrun-gen@')) expect(rest, at).toMatch(/# v\d+\.\d+\.\d+$/);
      else expect(pinProblem(ref, rest), at).toBeUndefined();
    }
    const version = (JSON.parse(read('package.json')) as { version: string }).version;
    expect(ci).toContain(`rev: v${version}`);
    expect(read('.pre-commit-hooks.yaml')).toContain(`rev: v${version}`);
    expect(read('scripts/release.mjs')).toContain("git(['tag', '-a', `v${version}`");
  });
});
