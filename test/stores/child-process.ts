import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../helpers/paths.js';

export const AGENT_CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'children', 'agent-child.mjs');

export type ChildEvent = {
  ready?: boolean;
  paused?: string;
  inBody?: boolean;
  outcome?: string;
  output?: unknown;
  error?: string;
  reason?: string | null;
  message?: string;
};

export interface Child {
  process: ChildProcess;
  events: ChildEvent[];
  /** Resolves with the first event matching `match` (rejects if the process exits first). */
  waitFor(match: (e: ChildEvent) => boolean): Promise<ChildEvent>;
  /** Resolves with every event once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; events: ChildEvent[]; stderr: string }>;
  go(): void;
}

/** Spawns test/stores/children/agent-child.mjs (it imports dist/: build first). */
export function spawnAgentChild(config: Record<string, unknown>): Child {
  if (!existsSync(path.join(REPO_ROOT, 'dist/runtime/index.js'))) throw new Error('dist/ is missing: run `npm run build` before these tests');
  const child = spawn(process.execPath, [AGENT_CHILD, JSON.stringify(config)], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  const events: ChildEvent[] = [];
  const waiters: Array<{ match: (e: ChildEvent) => boolean; resolve: (e: ChildEvent) => void; reject: (e: Error) => void }> = [];
  let buffer = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout!.on('data', (d: Buffer) => {
    buffer += d.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.trim()) continue;
      const event = JSON.parse(line) as ChildEvent;
      events.push(event);
      for (const w of [...waiters]) {
        if (w.match(event)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(event);
        }
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; events: ChildEvent[]; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => {
      for (const w of waiters.splice(0))
        w.reject(new Error(`child exited (${code ?? signal}) before the expected event; stderr: ${stderr}; events: ${JSON.stringify(events)}`));
      resolve({ code, signal, events, stderr });
    }),
  );
  child.stdin!.on('error', () => undefined);
  return {
    process: child,
    events,
    exited,
    waitFor: (match) => {
      const found = events.find(match);
      if (found) return Promise.resolve(found);
      if (child.exitCode !== null || child.signalCode !== null) return Promise.reject(new Error(`child already exited; stderr: ${stderr}`));
      return new Promise((resolve, reject) => waiters.push({ match, resolve, reject }));
    },
    go: () => {
      child.stdin!.write('go\n');
    },
  };
}

/** Body runs recorded in the O_APPEND count file. */
export function bodyRuns(countFile: string): string[] {
  return existsSync(countFile) ? readFileSync(countFile, 'utf8').split('\n').filter(Boolean) : [];
}
