// The parallel reader's thread (parallel-read.ts): lists the repo as the scanner does, reads every
// listed file and runs the scanner's prefilter on it, then hands all back with the bytes in one
// transferred buffer. It loads no compiler and no parser: its whole point is to do the file
// system's work while the main thread loads the compiler.
//
// Messages, in order: `{ candidates }` — the first files (at most CANDIDATES) the scan will
// certainly parse (plain UTF-8 that the prefilter passes), sent as soon as they are found or, with
// fewer, once every file is read — then `{ listing, packed, tokens, verdicts }`.
import { parentPort, workerData } from 'node:worker_threads';
import { listRepo, type ListOptions } from './list.js';
import { listingPrefilter, NOT_PLAIN, packFiles, PLAIN_PARSE } from './read.js';

/** Two: the first may be the generated module, which the scan leaves out (this thread does not know its name). */
const CANDIDATES = 2;

const port = parentPort!;
const listOptions = workerData as ListOptions;

const listing = listRepo(listOptions);
const { tokens, verdictOf } = listingPrefilter(listing);
// NOT_PLAIN also stands for a file that could not be read.
const verdicts = new Uint8Array(listing.files.length).fill(NOT_PLAIN);
const candidates: string[] = [];
let told = false;
const tell = (): void => {
  told = true;
  port.postMessage({ candidates });
};
const packed = packFiles(listOptions.root, listing.files, (i, bytes) => {
  const verdict = verdictOf(bytes);
  verdicts[i] = verdict;
  if (verdict !== PLAIN_PARSE || told) return;
  candidates.push(listing.files[i]!);
  if (candidates.length === CANDIDATES) tell();
});
if (!told) tell();
port.postMessage({ listing, packed, tokens, verdicts }, [packed.arena, verdicts.buffer]);
