/** `@openai/agents/realtime`, `@openai/agents-realtime` (and their subpaths). */
export function isRealtimeEntry(specifier: string): boolean {
  return /^@openai\/agents(\/|-)realtime(\/|$)/.test(specifier);
}
