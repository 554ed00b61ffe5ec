import { existsSync } from 'node:fs';
import moduleApi from 'node:module';
import type { Worker } from 'node:worker_threads';
import type { ListOptions, RepoListing } from './list.js';
import { unpackFiles, verdictsByFile, type PackedFiles, type RepoRead } from './read.js';

/** The thread's first message (read-worker.ts). */
interface FirstMessage {
  candidates: string[];
}

/**
 * The worker's script, next to this module: the CLI's bundle has it as one CommonJS file
 * (read-worker.cjs, which starts sooner); tsc's output has the ES module.
 */
function workerFile(): URL {
  const cjs = new URL('./read-worker.cjs', import.meta.url);
  return existsSync(cjs) ? cjs : new URL('./read-worker.js', import.meta.url);
}

/**
 * The thread's environment when this process has Node's compile cache on: a thread turns it on
 * from `NODE_COMPILE_CACHE` only (not from the process's `module.enableCompileCache()`), and
 * without it compiled its script anew on every run, on the path to its first answer (issue 40,
 * item 8). Nothing when the cache is off (or Node cannot say where it is).
 */
function compileCacheEnv(): { env?: NodeJS.ProcessEnv } {
  const dir = (moduleApi as { getCompileCacheDir?: () => string | undefined }).getCompileCacheDir?.();
  return dir ? { env: { ...process.env, NODE_COMPILE_CACHE: dir } } : {};
}

/** A listing and read of the repo under way on another thread. */
export interface PendingRepoRead {
  /** What is being listed (the scan may use the result only for these very options). */
  options: ListOptions;
  /**
   * The first files (at most two) the scan will certainly parse, known before the whole repo is
   * read: with one that the scan keeps, the compiler is worth loading now. Undefined when the
   * thread failed.
   */
  candidates(): Promise<string[] | undefined>;
  /** The listing and the files' bytes; undefined when the thread could not do it (read in-thread then). */
  result(): Promise<RepoRead | undefined>;
  /** Stops the thread (its answer is not wanted). */
  cancel(): void;
  /** Why the thread gave no answer, once `result()` is undefined (for `--debug`). */
  failure(): string | undefined;
}

/**
 * Start-up (issue 10): lists the repo and reads every listed file on a worker thread, so the file
 * system's work (about a third of `check` on a large repo: thousands of open/read calls) overlaps
 * the main thread's loading of the compiler. The worker's bytes are the same bytes a read on the
 * main thread would get; anything that goes wrong with the thread (it cannot start, it throws, it
 * exits without an answer) makes `result()` undefined, and the scan reads the files itself.
 * `worker_.file` names another script for the thread (the tests run both builds' scripts).
 */
export function startRepoRead(options: ListOptions, worker_: { file?: URL } = {}): PendingRepoRead {
  const listOptions: ListOptions = {
    root: options.root,
    ...(options.paths ? { paths: [...options.paths] } : {}),
    ...(options.generatedModule ? { generatedModule: options.generatedModule } : {}),
  };
  let promise: Promise<RepoRead | undefined>;
  let early: Promise<string[] | undefined>;
  let worker: Worker | undefined;
  let failure: string | undefined;
  try {
    // node:worker_threads loaded here: the CLI reads on its own thread and never pays for loading it
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    worker = new Worker(worker_.file ?? workerFile(), { workerData: listOptions, ...compileCacheEnv() });
    const thread = worker;
    let found: (candidates: string[] | undefined) => void = () => {};
    early = new Promise((resolve) => (found = resolve));
    promise = new Promise((resolve) => {
      thread.on('message', (message: FirstMessage | { listing: RepoListing; packed: PackedFiles; tokens: string[]; verdicts: Uint8Array }) => {
        if ('candidates' in message) return found(message.candidates);
        // The scan waited for the answer; the process need not wait for the thread's exit.
        thread.unref();
        const files = message.listing.files;
        resolve({
          listing: message.listing,
          files: unpackFiles(files, message.packed),
          prefilter: { tokens: message.tokens, verdicts: verdictsByFile(files, message.verdicts) },
        });
      });
      const failed = (why: string): void => {
        failure ??= why;
        found(undefined);
        resolve(undefined);
      };
      thread.once('error', (error: Error) => failed(error.message));
      thread.once('exit', (code: number) => failed(`the thread exited (${code}) without an answer`));
    });
  } catch (error) {
    failure = `the thread could not start: ${(error as Error).message}`;
    promise = Promise.resolve(undefined);
    early = Promise.resolve(undefined);
  }
  return {
    options: listOptions,
    candidates: () => early,
    result: () => promise,
    cancel: () => void worker?.terminate(),
    failure: () => failure,
  };
}
