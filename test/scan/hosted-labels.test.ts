import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/scan/index.js';

// Issue 40, item 5: the labels of a hostedMcpTool the app's own helper makes, when the file shows them all.
const labels = (code: string) => scanSource('src/agent.ts', code).hostedMcpCalls.map((c) => ({ label: c.serverLabel, labels: c.serverLabels }));
const SDK = "import { hostedMcpTool } from '@openai/agents';\n";

describe('hostedMcpTool labels read through the app’s helper', () => {
  it('a parameter whose every call passes a literal, in place or as a property; options held by a constant', () => {
    expect(
      labels(
        `${SDK}function makeMcp(label: string) { const config = { serverLabel: label, serverUrl: 'u' }; return hostedMcpTool(config); }\nmakeMcp('a'); makeMcp('b');\n`,
      ),
    ).toEqual([{ label: undefined, labels: ['a', 'b'] }]);
    expect(labels(`${SDK}const mk = (o: { label: string }) => hostedMcpTool({ serverLabel: o.label, serverUrl: 'u' });\nmk({ label: 'x' });\n`)).toEqual([
      { label: undefined, labels: ['x'] },
    ]);
    expect(labels(`${SDK}const config = { serverLabel: 'fixed', serverUrl: 'u' };\nexport const t = hostedMcpTool(config);\n`)).toEqual([
      { label: 'fixed', labels: undefined },
    ]);
  });

  it('not when a value comes from elsewhere: an exported helper, a helper handed on, a non-literal argument, a reassigned constant', () => {
    const none = [{ label: undefined, labels: undefined }];
    expect(labels(`${SDK}export function makeMcp(label: string) { return hostedMcpTool({ serverLabel: label, serverUrl: 'u' }); }\nmakeMcp('a');\n`)).toEqual(
      none,
    );
    // an exported arrow: the export keyword comes before the declarations in the walk of its statement
    expect(labels(`${SDK}export const makeMcp = (label: string) => hostedMcpTool({ serverLabel: label, serverUrl: 'u' });\nmakeMcp('a');\n`)).toEqual(none);
    expect(
      labels(`${SDK}function makeMcp(label: string) { return hostedMcpTool({ serverLabel: label, serverUrl: 'u' }); }\nmakeMcp('a');\n['b'].map(makeMcp);\n`),
    ).toEqual(none);
    expect(
      labels(`${SDK}function makeMcp(label: string) { return hostedMcpTool({ serverLabel: label, serverUrl: 'u' }); }\nmakeMcp(process.env.LABEL!);\n`),
    ).toEqual(none);
    expect(labels(`${SDK}let label = 'a';\nlabel = read();\nexport const t = hostedMcpTool({ serverLabel: label, serverUrl: 'u' });\n`)).toEqual(none);
  });
});
