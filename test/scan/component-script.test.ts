import { describe, expect, it } from 'vitest';
import { componentScript, isComponentFile } from '../../src/scan/component-script.js';
import { isSourceFile } from '../../src/scan/parse.js';
import { scanSource } from '../../src/scan/index.js';

/** The kept code of a blanked text: its non-space runs, each with the line it is on. */
const kept = (text: string): string[] =>
  text
    .split('\n')
    .map((l, i) => (l.trim() === '' ? '' : `${i + 1}: ${l.trim()}`))
    .filter((l) => l !== '');

describe('componentScript', () => {
  it("keeps a Vue component's script blocks in place and blanks the rest, line breaks kept", () => {
    const text = [
      '<template><p @click="x">{{ tool }}</p></template>',
      '<script lang="ts">',
      "export default { name: 'V' };",
      '</script>',
      '<script setup lang="ts">',
      "import { tool } from '@openai/agents';",
      '</script>',
      '<style>p { color: red }</style>',
    ].join('\r\n');
    const out = componentScript('src/V.vue', text);
    expect(out.text.length).toBe(text.length);
    expect(kept(out.text.replace(/\r/g, ''))).toEqual(["3: export default { name: 'V' };", "6: import { tool } from '@openai/agents';"]);
    // every kept character is where it was
    const at = text.indexOf('import { tool }');
    expect(out.text.slice(at, at + 15)).toBe('import { tool }');
    expect(out.jsx).toBe(false);
  });

  it('reads a script tag whose attributes hold a ">" in quotes, and marks a tsx block', () => {
    const text = '<script lang="tsx" data-x="a>b">\nconst a = <div />;\n</script>\n';
    const out = componentScript('C.svelte', text);
    expect(kept(out.text)).toEqual(['2: const a = <div />;']);
    expect(out.jsx).toBe(true);
  });

  it("reads Astro's frontmatter and its script tags", () => {
    const text = "---\nimport { Agent } from '@openai/agents';\nconst a = 1;\n---\n<h1>{a}</h1>\n<script>\nconsole.log(1);\n</script>\n";
    expect(kept(componentScript('p.astro', text).text)).toEqual(["2: import { Agent } from '@openai/agents';", '3: const a = 1;', '7: console.log(1);']);
  });

  it("reads MDX's import/export paragraphs, not the prose nor a fenced example", () => {
    const text = [
      "import { tool } from '@openai/agents';",
      "export const t = tool({ name: 'x',",
      "  execute: async () => 'ok' });",
      '',
      'Some prose: import this and export that.',
      '```ts',
      "import { Agent } from '@openai/agents';",
      '```',
      'export const after = 1;',
    ].join('\n');
    const out = componentScript('doc.mdx', text);
    expect(kept(out.text)).toEqual([
      "1: import { tool } from '@openai/agents';",
      "2: export const t = tool({ name: 'x',",
      "3: execute: async () => 'ok' });",
      '9: export const after = 1;',
    ]);
    expect(out.jsx).toBe(true);
  });

  it('component files are source files; a stylesheet or markdown file is not', () => {
    for (const f of ['a.vue', 'b.svelte', 'c.astro', 'd.mdx', 'E.VUE']) expect([f, isComponentFile(f), isSourceFile(f)]).toEqual([f, true, true]);
    for (const f of ['a.css', 'b.md', 'c.html', 'd.ts']) expect(isComponentFile(f)).toBe(false);
  });

  it("a tool in a component's script is found at the component's own line and column", () => {
    const text = [
      '<template><div /></template>',
      '<script setup>',
      "import { tool } from '@openai/agents';",
      "const t = tool({ name: 'x', execute: async () => 'ok' });",
      '</script>',
      '',
    ].join('\n');
    const scan = scanSource('src/V.vue', text);
    expect(scan.parseError).toBeUndefined();
    expect(scan.sdkToolCalls.map((c) => [c.name, c.span.line, c.span.column])).toEqual([['x', 4, 11]]);
  });
});
