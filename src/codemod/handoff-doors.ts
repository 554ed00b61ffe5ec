import { yamlScalar } from '../manifest/yaml-scalar.js';
import type { FileScan, HandoffSite } from '../scan/types.js';
import type { DoorTools } from './door-tools.js';

/** A handoff that runs app code or takes the model's input (what `unprotected-handoff` reports). */
const isDoor = (h: HandoffSite) => h.onHandoff !== false || h.inputType !== false;

/**
 * `handoff(agent, config)` → `protectHandoff('<action>', agent, config)`, and a mapped agent listed
 * in `handoffs: [agent]` → `protectHandoff('<action>', agent)`: the action is the manifest's for the
 * target agent's name (`- handoff: { to }`). A plain agent the manifest does not map is left as the
 * transfer it is; a handoff that runs `onHandoff` or takes input and cannot be rewritten is reported.
 */
export function planHandoffs(scan: FileScan, d: DoorTools): void {
  const { plan, text, ctx, at, left } = d;
  for (const h of scan.handoffs ?? []) {
    if (h.form === 'protected') continue;
    // `h.onInvokeHandoff = f`: a conflict whatever its mapping, named with the doors written by hand (hand-doors.ts)
    if (h.constructed === 'assignment') continue;
    const action = h.to !== undefined ? ctx.handoffActions.get(h.to) : undefined;
    if (action === undefined) {
      if (h.form !== 'call' || !isDoor(h)) continue;
      if (h.to === undefined) {
        left(
          'handoff',
          h.span,
          'unanalysable',
          'the agent it hands off to is not one this file makes with a literal `name`',
          'Make the agent in this file with a literal `name` so the handoff can be mapped.',
        );
      } else {
        left(
          'handoff',
          h.span,
          'unmapped',
          `the manifest maps no action to the handoff to '${h.to}'`,
          `Add \`- handoff: { to: ${yamlScalar(h.to)} }\` with its \`action:\` to ctrlrun.tools.yaml (\`allow\` or \`deny\`: a handoff cannot pause).`,
          h.to,
        );
      }
      continue;
    }
    if (!Object.hasOwn(ctx.policy.actions, action)) {
      left(
        'handoff',
        h.span,
        'unknown-action',
        `the handoff to '${h.to}' maps to '${action}', which the policy does not define`,
        `Add action '${action}' to ctrlrun.yaml.`,
        h.to,
      );
      continue;
    }
    // protectHandoff takes a Handoff the app made and guards a copy of it: `new Handoff(agent, invoke)` is wrapped in place
    const wrapped = h.constructed === 'new' && h.onHandoff === true;
    if (h.constructed && !wrapped) {
      left('handoff', h.span, 'unanalysable', ...leftConstructed(h.constructed), h.to);
      continue;
    }
    const callee = ctx.callee('protectHandoff');
    if (h.form === 'element' || wrapped) {
      plan.edits.push({ start: h.span.start, end: h.span.start, text: `${callee}(${ctx.quoted(action)}, ` }, { start: h.span.end, end: h.span.end, text: ')' });
    } else if (h.callee && h.argumentsStart !== undefined && h.binding) {
      plan.edits.push({ start: h.callee.start, end: h.callee.end, text: callee });
      const next = text[h.argumentsStart];
      plan.edits.push({
        start: h.argumentsStart,
        end: h.argumentsStart,
        text: `${ctx.quoted(action)}${next === ')' ? '' : /\s/.test(next ?? '') ? ',' : ', '}`,
      });
      plan.replaced.push({ factory: 'handoff', binding: h.binding, start: h.span.start });
    } else {
      left('handoff', h.span, 'unanalysable', 'handoff is called through .call/.apply/Reflect.apply', 'Call it directly: `handoff(agent, { ... })`.', h.to);
      continue;
    }
    plan.used.add('protectHandoff');
    plan.findings.push({
      kind: 'door-rewritten',
      ...at(h.span),
      door: 'handoff',
      name: h.to as string,
      action,
      to: wrapped ? `protectHandoff('${action}', new Handoff(${h.to}, …))` : `protectHandoff('${action}', ${h.to})`,
      removed: [],
    });
  }
}

/** Why a Handoff made another way is left, and what to write. */
function leftConstructed(how: 'new' | 'subclass'): [message: string, hint: string] {
  if (how === 'new') {
    return [
      '`new Handoff(agent)` is given no invoke function (the SDK needs one), so there is nothing to protect',
      "Give it its invoke function, `new Handoff(agent, onInvokeHandoff)`, and run the codemod again: it becomes `protectHandoff('<action>', new Handoff(...))`.",
    ];
  }
  return [
    'a class extending Handoff runs its invoke function in every instance, and the codemod does not follow the class to where each instance is made',
    "Write it `handoff(agent, { onHandoff, inputType })` so it can become `protectHandoff(...)` (protectHandoff also takes an instance, `protectHandoff('<action>', new Page())`, but check reports the class).",
  ];
}
