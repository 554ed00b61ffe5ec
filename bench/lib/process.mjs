// Whole processes as a user waits for them (start-up included), shared by the check and codemod
// benches: wall time, and the CPU time the process used (user + system, all its threads), read by a
// probe at the process's exit (steadier than wall time on a loaded machine).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

/** A timer of node processes; `dir` holds its probe and the file the probe writes. */
export function processTimer(dir) {
  const probe = path.join(dir, '.bench-cpu-probe.cjs');
  writeFileSync(
    probe,
    "process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeFileSync(process.env.BENCH_CPU_OUT, String((u.user + u.system) / 1000)); });\n",
  );
  const cpuOut = path.join(dir, '.bench-cpu.txt');
  return (args, { okCodes = [0, 1], cwd } = {}) => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['--require', probe, ...args], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      ...(cwd ? { cwd } : {}),
      env: { ...process.env, BENCH_CPU_OUT: cpuOut },
    });
    if (!okCodes.includes(r.status)) throw new Error(`bench process failed (${r.status}): ${r.stderr}`);
    return { wall: performance.now() - t0, cpu: Number(readFileSync(cpuOut, 'utf8')) };
  };
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const medianWall = (runs) => median(runs.map((r) => r.wall));
export const medianCpu = (runs) => median(runs.map((r) => r.cpu));
