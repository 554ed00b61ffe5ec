import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/scan/index.js';

/**
 * Session 25: an import type naming the SDK's state (`import('@openai/agents').RunState`) is the
 * SDK's in a file scanned alone, with no reader of the app's other files (an editor's scan of one
 * file); one naming another module is not followed there, and gives no answer.
 */
const answers = (type: string) =>
  (scanSource('src/server.ts', `export function ok(p: { state: ${type} }, i: unknown) { p.state.approve(i); }\n`).sdkApprovals ?? []).length;

describe('an import type read without the repo (session 25)', () => {
  it("the SDK's state named by an import type is an SDK answer", () => expect(answers("import('@openai/agents').RunState<any, any>")).toBe(1));
  it("an app module's `RunState` named by an import type is not", () => expect(answers("import('./engine.js').RunState")).toBe(0));
});
