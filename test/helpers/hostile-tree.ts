import { execFileSync } from 'node:child_process';
import { chmodSync, linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeFiles } from './temp-repo.js';

/*
 * A repository built to trip a scanner (issue 40, item 1): the files a real app has that are not
 * code, and the file-system shapes a careless `statSync`/`readFileSync` throws on. Generated at
 * test time (nothing of it is committed: FIFOs, loops and 20,000 files do not belong in git).
 */

/** The SDK tools the tree declares (one in a folder named with a space and unicode). */
export const HOSTILE_TOOLS = ['refund', 'lookup_order', 'tarifa_ñ'] as const;

const AGENT = `import { Agent, tool } from '@openai/agents';
import { z } from 'zod';
import './styles.css';
import logo from './logo.svg';
import orders from './orders.yaml';
import data from './data.json';
import prompt from './prompt.md?raw';
import workerUrl from './worker.ts?url';
import theme from './theme.css?inline';
import notDir from './styles.css/index';
import notFile from './assets';
import missing from './nowhere';
import { tarifa } from './my tools/tarifa ñ 工具';

export const refund = tool({
  name: 'refund',
  description: 'Refund a charge.',
  parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
  execute: async ({ payment_id, amount }) => \`refunded \${amount} on \${payment_id}\`,
});

export const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Look an order up.',
  parameters: z.object({ order_id: z.string() }),
  execute: async ({ order_id }) => String(order_id),
});

export const desk = new Agent({ name: 'desk', tools: [refund, lookupOrder, tarifa] });
export const used = [logo, orders, data, prompt, workerUrl, theme, notDir, notFile, missing];
`;

const UNICODE_TOOL = `import { tool } from '@openai/agents';
import { z } from 'zod';

export const tarifa = tool({
  name: 'tarifa_ñ',
  description: 'Quote a tariff.',
  parameters: z.object({ zona: z.string() }),
  execute: async ({ zona }) => zona,
});
`;

export interface HostileOptions {
  /** How many small generated files (spread over folders of 500). */
  manyFiles: number;
  /** Make the tree a git work tree with one commit (the codemod's --write wants a clean tree). */
  git: boolean;
}

/** Writes the hostile tree into `dir` (an empty temp repo with `node_modules/ctrlrun-gen` linked). */
export function buildHostileTree(dir: string, options: HostileOptions): void {
  writeFiles(dir, {
    'package.json': JSON.stringify(
      // a Vite app: its files run in a browser, so the scan follows their imports (of CSS, SVG, YAML too) on disk
      { name: 'hostile', private: true, type: 'module', dependencies: { '@openai/agents': '0.20.0', zod: '4.6.7' }, devDependencies: { vite: '8.3.8' } },
      null,
      2,
    ),
    // its base config is a FIFO (made below): the compiler's config reader must not wait on it
    'tsconfig.json': JSON.stringify({
      extends: './tsconfig.base.json',
      compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true },
      include: ['src'],
    }),
    '.gitignore': 'node_modules/\nvendor/\n',
    // An ignored folder a link of src/ points into: the link is read, the codemod does not write through it.
    'vendor/tools.ts': "import { tool } from '@openai/agents';\nexport const vendored = tool({ name: 'refund', execute: async () => 'v' });\n",
    'src/agent.ts': AGENT,
    'src/my tools/tarifa ñ 工具.ts': UNICODE_TOOL,
    // Non-code files an app imports (Vite, Next.js, a YAML loader).
    'src/styles.css': 'body { color: red; }\n',
    'src/theme.css': ':root { --x: 1; }\n',
    'src/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>\n',
    'src/orders.yaml': 'orders: []\n',
    'src/data.json': '{"a": 1}\n',
    'src/prompt.md': '# prompt\n',
    'src/worker.ts': 'export {};\n',
    // A file where a folder is expected (`./assets` imported, `assets` is a file without extension).
    'src/assets': 'not a folder\n',
    // A folder where a file is expected: named like a source file, a package.json, a tsconfig, a .gitignore.
    'src/folder.ts/inner.ts': 'export const inner = 1;\n',
    'src/sub/package.json/readme.txt': 'a folder named package.json\n',
    'src/sub/tsconfig.json/readme.txt': 'a folder named tsconfig.json\n',
    'src/sub/.gitignore/readme.txt': 'a folder named .gitignore\n',
    'src/sub/index.ts': "import { tool } from '@openai/agents';\nexport const nothing = tool;\n",
    // Bytes that are not UTF-8 text, in files that name the SDK (the prefilter passes them to the parser).
    'src/binary.ts': Buffer.concat([Buffer.from("import { tool } from '@openai/agents';\n"), binaryNoise(4096)]),
    'src/latin1.ts': Buffer.from("import { tool } from '@openai/agents';\n// caf\xe9 \xff\xfe\nexport const t = tool;\n", 'latin1'),
    'src/utf16.ts': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("import { tool } from '@openai/agents';\n", 'utf16le')]),
    'src/huge.ts': hugeSource(5 * 1024 * 1024),
    'src/empty.ts': '',
  });
  if (options.git) commitAll(dir);
  // left untracked (git lists them all the same): committing 20,000 files costs more than the commands
  writeMany(dir, options.manyFiles);
  // The shapes git cannot hold (or that would make `git add` fail) come after the commit.
  const src = path.join(dir, 'src');
  symlinkSync('.', path.join(src, 'loop'));
  symlinkSync('self.ts', path.join(src, 'self.ts'));
  symlinkSync('b-link.ts', path.join(src, 'a-link.ts'));
  symlinkSync('a-link.ts', path.join(src, 'b-link.ts'));
  symlinkSync('nowhere.ts', path.join(src, 'dangling.ts'));
  symlinkSync('..', path.join(src, 'root'));
  symlinkSync('agent.ts', path.join(src, 'alias.ts'));
  symlinkSync('../vendor/tools.ts', path.join(src, 'vendored.ts'));
  execFileSync('mkfifo', [path.join(src, 'pipe.ts')]);
  execFileSync('mkfifo', [path.join(dir, 'tsconfig.base.json')]);
  // A package of FIFOs: its package.json and tsconfig.json are not files a read can finish.
  mkdirSync(path.join(src, 'pipes'));
  for (const name of ['package.json', 'tsconfig.json', 'index.ts']) execFileSync('mkfifo', [path.join(src, 'pipes', name)]);
  writeFileSync(path.join(src, 'locked.ts'), "import { tool } from '@openai/agents';\nexport const locked = tool;\n");
  chmodSync(path.join(src, 'locked.ts'), 0o000);
  if (options.git) {
    // A tracked file that became a FIFO: git lists it, a plain read would wait for a writer forever.
    const tracked = path.join(src, 'worker.ts');
    rmSync(tracked);
    execFileSync('mkfifo', [tracked]);
  }
}

function binaryNoise(n: number): Buffer {
  const out = Buffer.alloc(n);
  let x = 0x2545f491;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  out[0] = 0;
  return out;
}

function hugeSource(bytes: number): string {
  const line = `  'a string literal of sixty-four bytes, over and over: filler',\n`;
  const head = "import { tool } from '@openai/agents';\nexport const filler = [\n";
  return `${head}${line.repeat(Math.ceil(bytes / line.length))}];\nexport const t = tool;\n`;
}

function writeMany(dir: string, n: number): void {
  // hard links to one file: 20,000 names cost a tenth of 20,000 writes (each is a file to list and read all the same)
  const seed = path.join(dir, 'src', 'gen', 'seed.ts');
  mkdirSync(path.dirname(seed), { recursive: true });
  writeFileSync(seed, 'export const generated = 1;\n');
  for (let i = 0; i < n; i++) {
    const folder = path.join(dir, 'src', 'gen', `d${Math.floor(i / 500)}`);
    if (i % 500 === 0) mkdirSync(folder);
    linkSync(seed, path.join(folder, `f${i}.ts`));
  }
}

function commitAll(dir: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'hostile');
}
