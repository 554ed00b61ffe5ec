import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';

/**
 * Compares a report with its golden file. `CTRLRUN_UPDATE_GOLDEN=1` rewrites the file instead (then
 * review the diff before committing it); a missing golden file fails.
 */
export function expectGolden(actual: string, file: string): void {
  if (process.env.CTRLRUN_UPDATE_GOLDEN === '1') writeFileSync(file, actual);
  expect(existsSync(file), `golden file ${file} is missing (CTRLRUN_UPDATE_GOLDEN=1 writes it)`).toBe(true);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
