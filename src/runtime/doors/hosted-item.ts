/**
 * Hosted MCP approval requests as the SDK holds them (a `RunToolApprovalItem` whose raw item is a
 * `hosted_tool_call` carrying the Responses API's `mcp_approval_request`). No imports of the
 * control: control.ts and hosted-mcp.ts both read items through here.
 */

/** Marks a tool made by `protectHostedMcp` with its action and the control that guards it. */
export const HOSTED_ACTION: unique symbol = Symbol.for('ctrlrun.protectHostedMcp.action');

export interface HostedRequest {
  /** The approval request id (`mcpr_…`): the call id of the request in the store. */
  id: string;
  serverLabel: string;
  /** The tool of the remote server the model wants to call. */
  toolName: string;
  /** The raw JSON arguments. */
  arguments: string;
}

/** The hosted MCP approval request an item or raw item carries, or null. */
export function hostedRequestOf(value: unknown): HostedRequest | null {
  const raw = (value as { rawItem?: unknown })?.rawItem ?? value;
  if (!raw || typeof raw !== 'object') return null;
  const item = raw as { type?: unknown; name?: unknown; id?: unknown; providerData?: Record<string, unknown> };
  if (item.type !== 'hosted_tool_call') return null;
  const data = item.providerData;
  if (!data || typeof data !== 'object') return null;
  if (data.type !== 'mcp_approval_request' && !(data.type === undefined && item.name === 'mcp_approval_request')) return null;
  const id = str(data.id) ?? str(item.id);
  const serverLabel = str(data.server_label) ?? str(data.serverLabel);
  const toolName = str(data.name) ?? (item.name !== 'mcp_approval_request' ? str(item.name) : undefined);
  if (!id || !serverLabel || !toolName) return null;
  return { id, serverLabel, toolName, arguments: typeof data.arguments === 'string' ? data.arguments : '{}' };
}

/** The `mcp_approval_response` a model input item carries, or null. */
export function hostedResponseOf(value: unknown): { requestId: string; approve: boolean } | null {
  if (!value || typeof value !== 'object') return null;
  const item = value as { type?: unknown; name?: unknown; providerData?: Record<string, unknown> };
  const data = item.providerData;
  if (item.type !== 'hosted_tool_call' || !data) return null;
  if (data.type !== 'mcp_approval_response' && item.name !== 'mcp_approval_response') return null;
  const requestId = str(data.approval_request_id) ?? str(data.approvalRequestId);
  if (!requestId) return null;
  return { requestId, approve: data.approve === true };
}

/** The approval request id an `mcp_call` input item answers, or null. */
export function hostedCallRequestId(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const item = value as { type?: unknown; name?: unknown; providerData?: Record<string, unknown> };
  const data = item.providerData;
  if (item.type !== 'hosted_tool_call' || !data) return null;
  if (data.type !== 'mcp_call' && item.name !== 'mcp_call') return null;
  return str(data.approval_request_id) ?? str(data.approvalRequestId) ?? null;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}
