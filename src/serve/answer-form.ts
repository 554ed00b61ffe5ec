import { html } from 'hono/html';
import { parseArguments } from '../runtime/arguments.js';
import { canonicalJson } from '../runtime/canonical.js';
import { editOf, editRefusal } from '../runtime/edits.js';
import type { ApprovalRequest } from '../runtime/types.js';

/**
 * The request page's edit form, built from the tool's parameter schema as the request filed it (one
 * field per argument, typed: whole numbers as text read exactly, booleans and enums as choices,
 * anything nested as JSON), and its way back: the fields read into the edited arguments' JSON text
 * by the same schema. What the text means is the answer's check (operator-actions: the tool's
 * schema, the policy's decision). No script: the page has none.
 */

type Html = ReturnType<typeof html>;

interface Property {
  name: string;
  schema: Record<string, unknown>;
  required: boolean;
}

/** The editable arguments of a request (the schema's top-level properties), or why there is no form. */
export function editableProperties(request: Pick<ApprovalRequest, 'door'>): { ok: true; properties: Property[] } | { ok: false; why: string } {
  const refused = editRefusal(request);
  if (refused !== undefined) return { ok: false, why: refused };
  const schema = request.door?.schema as { properties?: unknown; required?: unknown } | undefined;
  const props = schema?.properties;
  if (props === null || typeof props !== 'object') return { ok: false, why: "the tool's schema names no arguments" };
  const required = new Set(Array.isArray(schema?.required) ? (schema.required as unknown[]) : []);
  return {
    ok: true,
    properties: Object.entries(props as Record<string, unknown>).map(([name, s]) => ({
      name,
      schema: s !== null && typeof s === 'object' ? (s as Record<string, unknown>) : {},
      required: required.has(name),
    })),
  };
}

const typesOf = (s: Record<string, unknown>): string[] => (Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : []);

/** The form's fields, prefilled with the arguments to approve: an earlier approver's edit, else the model's. */
export function editFields(request: ApprovalRequest, properties: Property[]): Html {
  const edit = editOf(request);
  const parsed = parseArguments(edit?.args ?? request.args);
  const values: Record<string, unknown> = parsed.ok ? parsed.value : {};
  return html`${properties.map((p) => field(p, Object.hasOwn(values, p.name) ? values[p.name] : undefined))}`;
}

function field(p: Property, value: unknown): Html {
  const name = `arg.${p.name}`;
  const types = typesOf(p.schema);
  const label = html`<code>${p.name}</code>${p.required ? '' : html` <span class="meta">(optional)</span>`}${
    typeof p.schema.description === 'string' ? html` <span class="meta">${p.schema.description}</span>` : ''
  }`;
  const shown = value === undefined || value === null ? '' : typeof value === 'string' ? value : canonicalJson(value);
  if (Array.isArray(p.schema.enum)) {
    const options = p.schema.enum as unknown[];
    return html`<label>${label} <select name="${name}" data-testid="edit-${p.name}">${options.map((o) => {
      const text = canonicalJson(o);
      return html`<option value="${text}" ${value !== undefined && canonicalJson(value) === text ? 'selected' : ''}>${text}</option>`;
    })}</select></label>`;
  }
  if (types.includes('boolean')) {
    return html`<label>${label} <select name="${name}" data-testid="edit-${p.name}">${['true', 'false', ...(types.includes('null') ? [''] : [])].map(
      (o) => html`<option value="${o}" ${shown === o ? 'selected' : ''}>${o === '' ? '(none)' : o}</option>`,
    )}</select></label>`;
  }
  if (types.includes('integer') || types.includes('number')) {
    // text, not type=number: a browser rounds large numbers; the digits are read exactly
    return html`<label>${label} <input type="text" inputmode="numeric" name="${name}" value="${shown}" data-testid="edit-${p.name}"></label>`;
  }
  if (types.includes('string') && !types.some((t) => t === 'object' || t === 'array')) {
    return html`<label>${label} <input type="text" name="${name}" value="${shown}" data-testid="edit-${p.name}"></label>`;
  }
  return html`<label>${label} <span class="meta">(JSON)</span> <textarea name="${name}" rows="2" data-testid="edit-${p.name}">${shown}</textarea></label>`;
}

const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/**
 * The edited arguments' JSON text from the form's `arg.<name>` fields, each read by its schema
 * type (an empty optional field: left out, or `null` where the schema admits it). A field that does
 * not read as its type is refused with its name.
 */
export function editedFromForm(
  request: Pick<ApprovalRequest, 'door'>,
  form: Record<string, unknown>,
): { ok: true; text: string } | { ok: false; message: string } {
  const editable = editableProperties(request);
  if (!editable.ok) return { ok: false, message: `This call cannot be approved with edits: ${editable.why}.` };
  const parts: string[] = [];
  for (const p of editable.properties) {
    const raw = form[`arg.${p.name}`];
    if (typeof raw !== 'string') {
      if (p.required) return { ok: false, message: `The edited arguments lack ${p.name}.` };
      continue;
    }
    const value = fieldJson(p, raw);
    if (value === null) return { ok: false, message: `${p.name}: "${raw.slice(0, 80)}" is not a ${typesOf(p.schema).join(' or ') || 'JSON value'}.` };
    if (value !== undefined) parts.push(`${JSON.stringify(p.name)}:${value}`);
  }
  return { ok: true, text: `{${parts.join(',')}}` };
}

/** One field as JSON text; undefined: left out; null: it does not read as its type. */
function fieldJson(p: Property, raw: string): string | undefined | null {
  const types = typesOf(p.schema);
  const text = raw.trim();
  if (text === '') {
    if (types.includes('null')) return 'null';
    if (!p.required) return undefined;
    return types.includes('string') ? JSON.stringify(raw) : null;
  }
  if (Array.isArray(p.schema.enum)) return validJson(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text;
  if (types.includes('integer') && INTEGER.test(text)) return text;
  if (types.includes('number') && NUMBER.test(text)) return text;
  if (types.includes('string') && !types.some((t) => t === 'object' || t === 'array')) return JSON.stringify(raw);
  if (types.includes('integer') || types.includes('number') || types.includes('boolean')) return null;
  return validJson(text);
}

function validJson(text: string): string | null {
  try {
    JSON.parse(text);
    return text;
  } catch {
    return null;
  }
}
