/**
 * A diff's example call as the model would send it (issue 40): the decision procedure's witness
 * holds the arguments as the policy decides them, and where a tool's schema fills one in
 * (`limit: z.number().int().min(1).default(0)` left out reaches the body as 0) the call that reaches
 * a region at 0 is the one that leaves `limit` out: `{"limit":0}` sent is refused by the tool. Pure.
 */
import { acceptsValue, type ParamSchema } from '../generate/tool-schemas.js';
import type { Operand } from '../policy/types.js';
import { sameScalar } from './arg-schemas.js';
import type { RegionDiff } from './diff-regions.js';

/** The arguments to send for `args`, leaving out each one only a fill-in gives; undefined when `args` are sent as they are. */
export function sentArguments(args: Readonly<Record<string, Operand>>, params: ReadonlyMap<string, ParamSchema>): Record<string, Operand> | undefined {
  let sent: Record<string, Operand> | undefined;
  for (const [name, value] of Object.entries(args)) {
    const p = params.get(name);
    const absent = p?.fill?.absent;
    if (absent === undefined || absent.from === 'prefault' || !sameScalar(absent.value, value) || acceptsValue(p!, value)) continue;
    sent ??= { ...args };
    delete sent[name];
  }
  return sent;
}

/** The regions with each witness's sent arguments where they differ from the decided ones. */
export function withSentArguments(regions: RegionDiff[], params: ReadonlyMap<string, ParamSchema> | undefined): RegionDiff[] {
  if (params === undefined) return regions;
  return regions.map((r) => {
    const sent = sentArguments(r.witness.args, params);
    return sent === undefined ? r : { ...r, witness: { ...r.witness, sent } };
  });
}
