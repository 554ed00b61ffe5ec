import { readConfigLayout } from './layout.js';
import { listRepo, type ListOptions } from './list.js';
import { listedFileReader, listingPrefilter, NOT_PLAIN, type FileRead, type ListedRoot, type RepoRead, type RootConfigs, type Verdict } from './read.js';
import { testFileRule } from './test-files.js';

/**
 * What the reading thread (read-worker.ts) hands back, made on the calling thread: the listing
 * (without the generated module's name, as the thread lists), every listed file's bytes or the
 * code its read failed with, and the prefilter's verdicts on the plain UTF-8 ones. A whole-process
 * `check` reads so (issue 40, item 8): a thread costs a second Node bootstrap and its own
 * compilation and garbage collection, ~45 ms of CPU on the bench's 3,000 files, for a wall-time
 * overlap bounded by the compiler's load; and the listing stays at hand for `stale-generated`.
 * `listed`: that listing and the root's configs, when the caller made them (`listRoot`, the listing
 * narrowed to these paths): nothing is listed and no config read again.
 */
export function readRepoHere(options: ListOptions, listed?: ListedRoot): RepoRead {
  const listOptions: ListOptions = {
    root: options.root,
    ...(options.paths ? { paths: [...options.paths] } : {}),
    ...(options.rootFiles ? { rootFiles: options.rootFiles } : {}),
  };
  const listing = listed?.listing ?? listRepo(listOptions);
  const { tokens, verdictOf } = listingPrefilter(listing, listed?.configs.layout);
  const read = listedFileReader(listOptions.root, listing.files);
  const files = new Map<string, FileRead>();
  const verdicts = new Map<string, Verdict>();
  for (const abs of listing.files) {
    let bytes: Buffer;
    try {
      bytes = read(abs);
    } catch (error) {
      files.set(abs, { code: (error as NodeJS.ErrnoException).code ?? 'error' });
      continue;
    }
    files.set(abs, bytes);
    const verdict = verdictOf(bytes);
    if (verdict !== NOT_PLAIN) verdicts.set(abs, verdict);
  }
  return { listing, files, prefilter: { tokens, verdicts }, ...(listed ? { root: listed.configs } : {}) };
}

/** `root` listed once and its configs read, for the reads of several of its folders (`readRepoHere`'s `listed`). */
export function listRoot(root: string): ListedRoot {
  const listing = listRepo({ root });
  return { listing, configs: rootConfigs(root, listing.configs) };
}

/** What `configs` (the listed root's) say: the layout and the test-file rule each scan of the root reads from them. */
function rootConfigs(root: string, configs: readonly string[]): RootConfigs {
  return { layout: readConfigLayout(configs), isTest: testFileRule(root, configs) };
}
