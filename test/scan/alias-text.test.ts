import { describe, expect, it } from 'vitest';
import { heldBefore } from '../../src/scan/alias-text.js';

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
