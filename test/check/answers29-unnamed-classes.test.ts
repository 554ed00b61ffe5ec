import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { S } from './run-input.js';

/**
 * Session 29 (issue 40 item 4): the two answer forms session 28 left unprobed. `this.load()` in a
 * class with no name of its own (`const Store = class { … }`, `export default class { … }`): was
 * silent, now read. `ReturnType<typeof api.load>` with `api` an object another module exports:
 * left by session 29, read since session 30 (test/check/red30-more-doors.test.ts).
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const TYPES = lines('interface Review { approve(i: Row): void; reject(i: Row): void }');
const count = (files: Record<string, string>) => lintRepo(files, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;
const server = (code: string, more: Record<string, string> = {}) => count({ 'src/server.ts': lines(GEN, SDK, TYPES, code), ...more });

describe('this.load() in an unnamed class expression', () => {
  it('one finding: `const Store = class { … }`', () => {
    expect(server(`export const Store = class { load(): ${S} { return null!; } ok(i: Row) { this.load().approve(i); } };`)).toBe(1);
  });
  it('one finding: `export default class { … }`', () => {
    expect(server(`export default class { load(): ${S} { return null!; } ok(i: Row) { this.load().approve(i); } }`)).toBe(1);
  });
  it('one finding: a class expression handed to a function', () => {
    expect(
      server(`declare function register(c: unknown): void;\nregister(class { load(): ${S} { return null!; } ok(i: Row) { this.load().approve(i); } });`),
    ).toBe(1);
  });
  it('one finding: a field holding an arrow with a written return type', () => {
    expect(server(`export const Store = class { load = (): ${S} => null!; ok(i: Row) { this.load().approve(i); } };`)).toBe(1);
  });
  it('one finding: a typed field', () => {
    expect(server(`export const Store = class { state!: ${S}; ok(i: Row) { this.state.approve(i); } };`)).toBe(1);
  });
  it("one finding: a named base class's method", () => {
    expect(server(`class Base { load(): ${S} { return null!; } }\nexport const Store = class extends Base { ok(i: Row) { this.load().approve(i); } };`)).toBe(
      1,
    );
  });
  it("one finding: a named base class's method, the class writing members of its own", () => {
    expect(
      server(
        `class Base { load(): ${S} { return null!; } }\nexport const Store = class extends Base { other(): Review { return null!; } ok(i: Row) { this.load().approve(i); } };`,
      ),
    ).toBe(1);
  });
  it("none: a static arrow field of the SDK's beside an instance one of the app's own", () => {
    expect(server(`export const Store = class { static load = (): ${S} => null!; load = (): Review => null!; ok(i: Row) { this.load().approve(i); } };`)).toBe(
      0,
    );
  });
  it("none: the app's own", () => {
    expect(server('export const Store = class { load(): Review { return null!; } ok(i: Row) { this.load().approve(i); } };')).toBe(0);
  });
  it("none: an instance method of the app's own beside a static one of the SDK's", () => {
    expect(
      server(`export default class { static load(): ${S} { return null!; } load(): Review { return null!; } ok(i: Row) { this.load().approve(i); } }`),
    ).toBe(0);
  });
  it("none: a named base class's method of the app's own", () => {
    expect(server('class Base { load(): Review { return null!; } }\nexport const Store = class extends Base { ok(i: Row) { this.load().approve(i); } };')).toBe(
      0,
    );
  });
});

describe('ReturnType<typeof api.load> with api an object another module exports', () => {
  const api = (ret: string) => ({ 'src/api.ts': lines(SDK, TYPES, `export const api = { load(): ${ret} { return null!; } };`) });
  // with an SDK state it is read since session 30 (red30-more-doors.test.ts); the app's own stays silent
  it("none: the app's own", () => {
    expect(server("import { api } from './api.js';\nexport function ok(s: ReturnType<typeof api.load>, i: Row) { s.approve(i); }", api('Review'))).toBe(0);
  });
});
