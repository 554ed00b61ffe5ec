import { bareSpecifier } from './bare-specifier.js';

/** `@openai/agents/realtime`, `@openai/agents-realtime` (and their subpaths), also by `npm:` or a URL (`bareSpecifier`). */
export function isRealtimeEntry(specifier: string): boolean {
  return /^@openai\/agents(\/|-)realtime(\/|$)/.test(bareSpecifier(specifier));
}
