import { parseArguments } from './arguments.js';
import { canonicalHash } from './canonical.js';
import { parseJson } from './internals.js';
import type { ApprovalRequest } from './types.js';

/**
 * Whether a stored request's `args` text (what an operator reads) is the call its `argsHash` binds
 * (what runs). Whoever can write the store could pair one with another: the inbox would show one
 * call and approve another. Checked before a request is shown as answerable or an answer accepted.
 * The text is read as the runtime reads arguments (losslessly), or as JSON.parse does for the
 * hosted MCP door, which hashes that way.
 */
export function argsMatchHash(request: Pick<ApprovalRequest, 'args' | 'argsHash'>): boolean {
  if (typeof request.args !== 'string' || typeof request.argsHash !== 'string') return false;
  try {
    const lossless = parseArguments(request.args);
    if (lossless.ok && canonicalHash(lossless.value) === request.argsHash) return true;
    const plain = parseJson(request.args);
    return plain.ok && canonicalHash(plain.value) === request.argsHash;
  } catch {
    return false;
  }
}
