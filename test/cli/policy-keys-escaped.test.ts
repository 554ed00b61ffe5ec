import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MARK_NOTE } from '../../src/terminal-text.js';
import { cli } from '../helpers/cli.js';

/**
 * Issue 24 item 7: `validate`/`generate` print the policy under review; a pull request's action key
 * with ESC or a bidi control (U+202E) must not clear a CI log line or reorder what follows. The
 * message, the `at actions.…` path and the code frame show such characters escaped (and marked).
 */
const ESC = '\u001b';
const RLO = '\u202e';
const POLICY = 'schema: ctrlrun.policy/v2\nactions:\n  "pay\\u001b[2K\\u202eevil":\n    decision: allow\n    bogus: 1\n';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function repo(): string {
  dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-keys-'));
  writeFileSync(path.join(dir, 'ctrlrun.yaml'), POLICY);
  return dir;
}

describe('policy keys with control or bidi characters in diagnostics', () => {
  it('validate: no raw ESC or U+202E in the output; the key is escaped and marked in `at actions.…`', async () => {
    const cwd = repo();
    const r = await cli(['validate', '--policy', 'ctrlrun.yaml'], { cwd });
    expect(r.code).toBe(2);
    const out = r.stdout + r.stderr;
    expect(out).toContain('bogus');
    expect(out).not.toContain(ESC);
    expect(out).not.toContain(RLO);
    expect(out).toMatch(/at «actions\.pay\\u\{1b\}\[2K\\u\{202e\}evil\.bogus»/);
    expect(out).toContain(MARK_NOTE);
  });

  it('the code frame shows a raw U+202E of the file escaped', async () => {
    const cwd = repo();
    writeFileSync(path.join(cwd, 'ctrlrun.yaml'), `schema: ctrlrun.policy/v2\nactions:\n  pay:\n    decision: allow\n    bogus: 1 # ${RLO}note\n`);
    const r = await cli(['validate', '--policy', 'ctrlrun.yaml'], { cwd });
    expect(r.code).toBe(2);
    const out = r.stdout + r.stderr;
    expect(out).toContain('bogus: 1 # \\u{202e}note'); // the frame's line, escaped
    expect(out).not.toContain(RLO);
  });

  it('generate: the same', async () => {
    const cwd = repo();
    writeFileSync(path.join(cwd, 'ctrlrun.tools.yaml'), 'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ntools: []\n');
    const r = await cli(['generate'], { cwd });
    expect(r.code).toBe(2);
    const out = r.stdout + r.stderr;
    expect(out).toContain('bogus');
    expect(out).not.toContain(ESC);
    expect(out).not.toContain(RLO);
  });
});
