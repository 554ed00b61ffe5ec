import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { spanAt } from './parse.js';
import type { SuppressionComment } from './types.js';

const MARKER = 'ctrlrun-ignore';
const COMMENT = /\/\/[ \t]*ctrlrun-ignore(?:[ \t]+([A-Za-z0-9_-]+))?(?:[ \t]+--[ \t]*(.*?))?[ \t]*$/;

/**
 * `// ctrlrun-ignore <rule-id> -- <reason>` comments. A marker inside a string, template, regex or
 * JSX text is not a comment and is skipped. A comment without a rule id has `ruleId: ''`.
 */
export function findSuppressions(sf: ts.SourceFile, text: string): SuppressionComment[] {
  const out: SuppressionComment[] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf(MARKER, from);
    if (at < 0) break;
    from = at + MARKER.length;
    const lineStart = text.lastIndexOf('\n', at) + 1;
    let lineEnd = text.indexOf('\n', at);
    if (lineEnd < 0) lineEnd = text.length;
    const slash = text.lastIndexOf('//', at);
    if (slash < lineStart || insideLiteral(sf, slash)) continue;
    const m = COMMENT.exec(text.slice(slash, lineEnd).replace(/\r$/, ''));
    if (!m) continue;
    const s: SuppressionComment = { span: spanAt(slash, lineEnd, sf), ruleId: m[1] ?? '' };
    if (m[2]) s.reason = m[2];
    out.push(s);
  }
  return out;
}

/** Kinds of literal tokens (a function, so that loading this module does not load the compiler). */
let literalKindSet: ReadonlySet<ts.SyntaxKind> | undefined;
const literalKinds = (): ReadonlySet<ts.SyntaxKind> =>
  (literalKindSet ??= new Set<ts.SyntaxKind>([
    typescript.SyntaxKind.StringLiteral,
    typescript.SyntaxKind.NoSubstitutionTemplateLiteral,
    typescript.SyntaxKind.TemplateHead,
    typescript.SyntaxKind.TemplateMiddle,
    typescript.SyntaxKind.TemplateTail,
    typescript.SyntaxKind.RegularExpressionLiteral,
    typescript.SyntaxKind.JsxText,
  ]));

/** Whether `pos` lies inside a literal token (so the `//` there does not start a comment). */
function insideLiteral(sf: ts.SourceFile, pos: number): boolean {
  let node: ts.Node = sf;
  for (;;) {
    let next: ts.Node | undefined;
    typescript.forEachChild(node, (child) => {
      if (!next && child.getStart(sf) <= pos && pos < child.end) next = child;
    });
    if (!next) break;
    node = next;
  }
  return literalKinds().has(node.kind) && node.getStart(sf) <= pos;
}
