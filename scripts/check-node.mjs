// `npm test`'s first step (package.json `pretest`): the tests need Node 22.13+ (node:sqlite unflagged,
// the SDK's own `openai` dependency needs 22). On an older Node, one line naming both and exit 1,
// before the build and a dozen confusing failures. The package itself runs on Node 20.19+ (`engines`).
import { pathToFileURL } from 'node:url';

export const NEEDED = '22.13.0';

/** The line to print when Node `found` ("20.20.2") is older than NEEDED; null when it will do. */
export function nodeProblem(found) {
  const have = found.replace(/^v/, '').split('.').map(Number);
  const need = NEEDED.split('.').map(Number);
  const diff = need.map((n, i) => (have[i] ?? 0) - n).find((d) => d !== 0) ?? 0;
  if (diff >= 0) return null;
  return `npm test needs Node ${NEEDED} or later (24 for development: .nvmrc); this is Node ${found.replace(/^v/, '')}. Switch Node (nvm use) and run it again; the package itself runs on Node 20.19+.`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problem = nodeProblem(process.versions.node);
  if (problem !== null) {
    console.error(problem);
    process.exit(1);
  }
}
