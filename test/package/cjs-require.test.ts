import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

/**
 * The CommonJS build of the runtime (dist/cjs, built by `npm test`) loads with plain `require`:
 * no dependency of it is ES-module only, so it needs no require(esm) (Node before 20.19, Node
 * started with --no-experimental-require-module, Jest's CommonJS mode, older bundlers). And one
 * copy of @noble/hashes serves both the runtime's SHA-256 and @noble/curves' Ed25519.
 */
describe('the CommonJS build', () => {
  it('requires every runtime entry, and signs and verifies a checkpoint, with require(esm) turned off', () => {
    const probe = `
      const rt = require('./dist/cjs/runtime/index.js');
      require('./dist/cjs/runtime/sqlite.js'); require('./dist/cjs/runtime/postgres.js'); require('./dist/cjs/runtime/upstream.js'); require('./dist/cjs/testing/index.js');
      const signing = require('./dist/cjs/runtime/signing.js');
      const key = signing.generateReceiptKey();
      const cp = signing.receiptSigner(key.secret).checkpoint(3, 'ab'.repeat(32));
      const v = signing.checkpointVerifier(key.publicKey);
      console.log(JSON.stringify({ control: typeof rt.createControl, ok: v.verify(cp), forged: v.verify({ ...cp, seq: 4 }) }));
    `;
    const out = execFileSync(process.execPath, ['--no-experimental-require-module', '-e', probe], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ control: 'function', ok: true, forged: false });
  });

  it('one @noble/hashes: @noble/curves uses the same copy as the runtime', () => {
    const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; dependencies?: Record<string, string> }>;
    };
    const nested = Object.keys(lock.packages).filter((p) => p.endsWith('node_modules/@noble/hashes'));
    expect(nested).toEqual(['node_modules/@noble/hashes']);
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(lock.packages['node_modules/@noble/curves']?.dependencies?.['@noble/hashes']).toBe(pkg.dependencies['@noble/hashes']);
  });
});
