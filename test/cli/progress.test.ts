import { describe, expect, it } from 'vitest';
import { progressLine } from '../../src/cli/progress.js';

describe('progressLine', () => {
  it('is silent when piped', () => {
    expect(progressLine({ isTTY: false, stderr: () => {} }, 'checking')).toBeUndefined();
  });

  it('shows nothing for short runs, a counter for long ones, and erases it', () => {
    let err = '';
    const p = progressLine({ isTTY: true, stderr: (t) => (err += t) }, 'checking', 300)!;
    p.update(10, 300);
    p.clear();
    expect(err).toBe('');
    p.update(1, 301);
    p.update(2, 301); // within 100 ms of the last redraw: skipped
    p.update(301, 301); // the last one is always drawn
    expect(err).toBe('\rchecking 1/301 files\rchecking 301/301 files');
    p.clear();
    expect(err.endsWith('\r\x1b[K')).toBe(true);
  });
});
