import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ActionDenied, CtrlrunError, DuplicateEffect, NotExecuted } from '../../src/runtime/index.js';
import { REPO_ROOT } from '../helpers/paths.js';

/**
 * The package ships an ES module build (dist/) and a CommonJS build (dist/cjs) of the runtime; a
 * process may load both. Its public error classes answer `instanceof` by a global brand, so an
 * error thrown by one build is an instance of the same class of the other (built by `npm test`).
 */
const PROBE = `
const { createRequire } = require('node:module');
const esmUrl = require('node:url').pathToFileURL(process.argv[1] + '/dist/runtime/index.js').href;
(async () => {
  const esm = await import(esmUrl);
  const cjs = createRequire(process.argv[1] + '/')('./dist/cjs/runtime/index.js');
  const names = ['CtrlrunError', 'ActionDenied', 'ApprovalMismatch', 'DuplicateEffect', 'AmbiguousEffect', 'NotExecuted'];
  const make = (m, name) => name === 'NotExecuted' ? new m.NotExecuted('x') : name === 'CtrlrunError' ? new m.CtrlrunError('x') : new m[name]('r', 'x');
  const out = {};
  for (const [from, to, a, b] of [['cjs', 'esm', cjs, esm], ['esm', 'cjs', esm, cjs]]) {
    for (const thrown of names) {
      const e = make(a, thrown);
      out[from + ':' + thrown] = names.filter((n) => e instanceof b[n]);
    }
  }
  out.distinctClasses = esm.ActionDenied !== cjs.ActionDenied;
  out.plainError = names.filter((n) => new Error('x') instanceof cjs[n] || new Error('x') instanceof esm[n]);
  out.lookalike = names.filter((n) => ({ name: n, message: 'x' }) instanceof esm[n]);
  console.log(JSON.stringify(out));
})();
`;

describe('error classes across the ES module and CommonJS builds', () => {
  it('an error from one build is instanceof the same class (and its base) of the other, and of no other class', () => {
    const out = JSON.parse(execFileSync(process.execPath, ['-e', PROBE, REPO_ROOT], { encoding: 'utf8' })) as Record<string, unknown>;
    expect(out['distinctClasses']).toBe(true); // two real copies of each class, not one shared module
    for (const from of ['cjs', 'esm']) {
      expect(out[`${from}:CtrlrunError`]).toEqual(['CtrlrunError']);
      for (const name of ['ActionDenied', 'ApprovalMismatch', 'DuplicateEffect', 'AmbiguousEffect', 'NotExecuted']) {
        expect(out[`${from}:${name}`]).toEqual(['CtrlrunError', name]);
      }
    }
    expect(out['plainError']).toEqual([]);
    expect(out['lookalike']).toEqual([]); // a name is not a brand
  });

  it("a user's subclass keeps the ordinary prototype check (a base instance is not one of it)", () => {
    class RemoteSaidNo extends NotExecuted {}
    expect(new RemoteSaidNo('no') instanceof RemoteSaidNo).toBe(true);
    expect(new RemoteSaidNo('no') instanceof NotExecuted).toBe(true);
    expect(new RemoteSaidNo('no') instanceof CtrlrunError).toBe(true);
    expect(new NotExecuted('x') instanceof RemoteSaidNo).toBe(false);
    expect(new ActionDenied('r', 'x') instanceof DuplicateEffect).toBe(false);
  });
});
