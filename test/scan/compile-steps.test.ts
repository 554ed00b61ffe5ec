import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  compileSteps,
  exitAction,
  GROWTH_CHECKS,
  GROWTH_MARGIN,
  MAX_CACHE_FILES,
  processBytecode,
  pruneCacheFolder,
  runCompiled,
} from '../../src/scan/code-cache.js';

// check compiles the compiler while it waits for the reading thread (src/check/engine.ts), and runs
// it only if a file needs it: compiling must load nothing, running must load it once.
const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-compile-steps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const requireCache = createRequire(import.meta.url).cache;

describe('compiling in steps (src/scan/code-cache.ts)', () => {
  it('compiles without running or registering anything; runCompiled runs it once, as require would', () => {
    const file = path.join(dir, 'counter.cjs');
    writeFileSync(file, 'globalThis.__ctrlrunRuns = (globalThis.__ctrlrunRuns ?? 0) + 1;\nmodule.exports = { answer: 42, file: __filename };\n');
    const steps = compileSteps(file, path.join(dir, 'cache'));
    let step = steps.next();
    let yields = 0;
    while (!step.done) {
      yields++;
      step = steps.next();
    }
    expect(yields).toBeGreaterThan(0);
    expect((globalThis as { __ctrlrunRuns?: number }).__ctrlrunRuns).toBeUndefined();
    expect(requireCache[file]).toBeUndefined();
    const first = runCompiled(step.value) as { answer: number; file: string };
    expect(first).toEqual({ answer: 42, file });
    expect(runCompiled(step.value)).toBe(first);
    expect((globalThis as { __ctrlrunRuns?: number }).__ctrlrunRuns).toBe(1);
    expect(requireCache[file]?.exports).toBe(first);
  });

  it('a caller that stops between the steps has loaded nothing', () => {
    const file = path.join(dir, 'never.cjs');
    writeFileSync(file, "throw new Error('never run');\n");
    const steps = compileSteps(file, path.join(dir, 'cache'));
    steps.next();
    steps.return(undefined as never);
    expect(requireCache[file]).toBeUndefined();
  });

  it("measures the process's bytecode once, for every copy of the module (issue 40, item 8)", async () => {
    // a plain check holds two copies (the launcher's and the bundle's), each with a cache to update at exit
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('ctrlrun-gen.code-cache.bytecode')];
    const walk = vi.spyOn(v8, 'getHeapCodeStatistics');
    try {
      const first = processBytecode();
      expect(processBytecode()).toBe(first);
      vi.resetModules();
      const other = (await import('../../src/scan/code-cache.js')) as { processBytecode: () => number };
      expect(other.processBytecode).not.toBe(processBytecode);
      expect(other.processBytecode()).toBe(first);
      expect(walk).toHaveBeenCalledTimes(1);
    } finally {
      walk.mockRestore();
    }
  });

  it('writes the cache at exit when there is none, when the run compiled more, and counts a check down otherwise', () => {
    const never = () => {
      throw new Error('measured');
    };
    expect(exitAction(undefined, () => 0)).toBe('write');
    expect(exitAction({ bytecode: 1_000_000, checksLeft: GROWTH_CHECKS }, () => 1_000_000 + GROWTH_MARGIN + 1)).toBe('write');
    // growth within the margin (runs of one repo differ a little) is no reason to write
    expect(exitAction({ bytecode: 1_000_000, checksLeft: 1 }, () => 1_000_000 + GROWTH_MARGIN)).toBe('count');
    expect(exitAction({ bytecode: 1_000_000, checksLeft: 1 }, () => 900_000)).toBe('count');
    // no checks left: nothing is measured (it walks the heap) and nothing written
    expect(exitAction({ bytecode: 1_000_000, checksLeft: 0 }, never)).toBe('none');
  });

  it('keeps the most recently written cache files and removes the rest and dead writers’ temporaries', () => {
    const folder = path.join(dir, 'prune');
    mkdirSync(folder);
    const now = Date.now();
    const at = (name: string, ageMs: number) => {
      writeFileSync(path.join(folder, name), 'x');
      utimesSync(path.join(folder, name), (now - ageMs) / 1000, (now - ageMs) / 1000);
    };
    // 30 caches, the i-th written i minutes ago; a stranger's file is never touched
    for (let i = 0; i < 30; i++) at(`c${String(i).padStart(2, '0')}.bin`, i * 60_000);
    at('notes.txt', 10 * 24 * 3600_000);
    at('c00.bin.123.tmp', 2 * 3600_000);
    at('c01.bin.456.tmp', 60_000);
    pruneCacheFolder(folder, 24, now);
    const left = readdirSync(folder).sort();
    const kept = Array.from({ length: 24 }, (_, i) => `c${String(i).padStart(2, '0')}.bin`);
    expect(left).toEqual([...kept, 'c01.bin.456.tmp', 'notes.txt'].sort());
    // under the bound nothing goes
    pruneCacheFolder(folder, MAX_CACHE_FILES, now);
    expect(readdirSync(folder)).toHaveLength(26);
  });
});
