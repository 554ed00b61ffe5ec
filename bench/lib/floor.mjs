// The floor of a whole-process figure (issue 40, item 8: "start-up and the parse are the floor"),
// as processes timed beside the others: the CLI's start-up (the caller times it), and a process
// that loads the compiler as the CLI does (its own code cache, src/scan/code-cache.ts), reads every
// listed file (the text test must) and parses the files the command parses. Their sum, less one
// bare Node start (both count it), is what no scan, rule or rewrite can go under.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The arguments of the parse floor's process: `all` read, `parsed` read and parsed. Writes its lists beside `dir`'s files. */
export function parseFloorProcess(root, dir, all, parsed) {
  const lists = path.join(dir, '.bench-floor-files.json');
  writeFileSync(lists, JSON.stringify({ all, parsed }));
  const cache = pathToFileURL(path.join(root, 'dist/scan/code-cache.js')).href;
  const compiler = pathToFileURL(path.join(root, 'dist/scan/typescript.js')).href;
  return [
    '--input-type=module',
    '-e',
    `import { readFileSync } from 'node:fs';
     import { defaultCodeCacheDir, requireWithCodeCache } from '${cache}';
     import { compilerFile } from '${compiler}';
     const ts = requireWithCodeCache(compilerFile(), defaultCodeCacheDir());
     const { all, parsed } = JSON.parse(readFileSync(${JSON.stringify(lists)}, 'utf8'));
     for (const f of all) readFileSync(f);
     for (const f of parsed) ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);`,
  ];
}

/** A bare Node start, subtracted once from the floor (the start-up and the parse process both pay it). */
export const BARE_NODE = ['-e', '0'];

/** The floor's wall and CPU from medians: start-up + parse − bare Node. */
export function floorOf(startup, parse, bare) {
  return { wall: startup.wall + parse.wall - bare.wall, cpu: startup.cpu + parse.cpu - bare.cpu };
}
