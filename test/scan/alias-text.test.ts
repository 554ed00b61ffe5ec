import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_HOLDER, heldBefore, heldInside } from '../../src/scan/alias-text.js';

/** Every place `name` is met as a word in `text`. */
const at = (text: string, name: string): number[] => Array.from(text.matchAll(new RegExp(`(?<![\\w$])${name}(?![\\w$])`, 'g')), (m) => m.index!);
const read = (text: string) => heldBefore(text, at(text, 'shellTool'));

describe('aliases read back from a door name (alias-text.ts)', () => {
  it('a declaration whose value is the name as it is, through a condition, a type, `??`, `||`, `!`', () => {
    expect(read('const gh = shellTool;').names).toEqual(['gh']);
    expect(read('let gh: Tool | undefined = (on && !off) ?? shellTool').names).toEqual(['gh']);
    expect(read("const gh = flags['a'] === 1 ? other : shellTool;").names).toEqual(['gh']);
    expect(read('export default shellTool;')).toEqual({ names: [], byDefault: true });
    expect(read("export default flags['a'] ? shellTool : other;").byDefault).toBe(true);
  });

  it('none: a value the name is inside, a comparison, an argument, an element', () => {
    expect(read('const tools = [shellTool];')).toEqual({ names: [], byDefault: false });
    expect(read('const same = x == shellTool;').names).toEqual([]);
    expect(read('const made = wrap(a, shellTool);').names).toEqual([]);
    // a superset, as the forward pattern was: `f(shellTool)` is read (a parse more, never a finding)
    expect(read('const made = wrap(shellTool);').names).toEqual(['made']);
    expect(read('export default [shellTool];').byDefault).toBe(false);
  });

  it('no length bounds it, and a long run of names is read once (linear)', () => {
    const cond = Array.from({ length: 5000 }, (_, i) => `f${i}`).join(' && ');
    expect(read(`const gh = ${cond} ? shellTool : other;`).names).toEqual(['gh']);
    // 10,000 names in one run of value characters, half after a `?`: quadratic takes seconds
    const run = `const gh = ${'shellTool ? '.repeat(10_000)}shellTool;`;
    const started = performance.now();
    expect(read(run).names.every((n) => n === 'gh')).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

const inside = (text: string) => heldInside(text, at(text, 'shellTool')).sort();

/** The forward pattern heldInside replaced (bounded at 200 and 500 characters): what it finds, heldInside must. */
const FORWARD =
  /(?<![\w$])(?:const|let|var)\s+([A-Za-z_$][\w$]*)(?=\s*(?::[^=;]{0,200})?=(?![=>])[^;]{0,500}?[[{][^;]{0,500}?(?<![\w$])(?:shellTool)(?![\w$]))/g;

describe('declarations holding a door name in a list or an object (alias-text.ts heldInside)', () => {
  it('a list, an object, a nested one, a condition of lists; each declaration of the statement before the bracket', () => {
    expect(inside('const tools = [shellTool];')).toEqual(['tools']);
    expect(inside('export const kit: Kit = { shell: shellTool }')).toEqual(['kit']);
    expect(inside('const a = cond ? [shellTool] : [];')).toEqual(['a']);
    expect(inside('const a = f(() => { const b = [x, shellTool] })')).toEqual(['a', 'b']);
    // the default export holding it
    expect(inside('export default [x, shellTool];')).toEqual([DEFAULT_HOLDER]);
    expect(inside('export default shellTool; const a = [1];')).toEqual([]);
  });

  it('none: the name as the value itself, before the bracket, after a `;`, in the type only', () => {
    expect(inside('const gh = shellTool;')).toEqual([]);
    expect(inside('const a = shellTool || [];')).toEqual([]);
    expect(inside('const a = [1]; shellTool;')).toEqual([]);
    expect(inside('const a: { t: typeof shellTool } = 1;')).toEqual([]);
  });

  it('no length bounds it: a door 5,000 characters into the list', () => {
    expect(inside(`const tools = [${'{ retries: 1 }, '.repeat(320)}shellTool];`)).toEqual(['tools']);
  });

  it('finds every declaration the bounded forward pattern found (generated texts)', () => {
    const parts = ['const a = ', 'let b: T = ', 'var c=', ';', '[', ']', '{', '}', '(', ')', ' shellTool ', '.shellTool', 'x', ' ', '\n', '=>', '?', ':', ','];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...parts), { maxLength: 40 }), (ps) => {
        const text = ps.join('');
        const forward = new Set(Array.from(text.matchAll(FORWARD), (m) => m[1]!));
        const found = new Set(inside(text));
        for (const n of forward) expect(found.has(n)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
