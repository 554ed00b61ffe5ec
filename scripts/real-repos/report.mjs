// The loop's results as one markdown table, and the differences between two runs (two refs).

const STEP_ORDER = ['init', 'generate', 'codemod', 'codemod-write', 'check'];

/** One row per repository and Node: each step's exit, the doors, check's findings, the checks before → after, the flags. */
export function markdownTable(results) {
  const lines = [
    `ctrlrun-gen ${results.ref} (${results.sha.slice(0, 12)}), ${results.repos.length} repositories, Node ${results.nodes.join(' and ')}`,
    '',
    '`*`: the check before was run on the first Node only (on a later Node it runs again where the check fails after in a way it did not on the first).',
    '',
    '| repo | layout | node | install | init, generate, codemod, --write, check | doors in source | mapped | protected | check before init → after (by rule) | app checks before → after | flags |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const repo of results.repos) {
    if (repo.error) {
      lines.push(`| ${repo.id} | ${repo.layout.join(', ')} | | ${cell(repo.error)} | | | | | | | not run |`);
      continue;
    }
    for (const r of repo.runs) lines.push(row(repo, r));
  }
  return `${lines.join('\n')}\n`;
}

function row(repo, r) {
  const install = repo.install.length === 0 ? 'none' : repo.install.map((i) => `${i.pm} ${i.exit}`).join(', ');
  const exits = STEP_ORDER.map((name) => r.steps.find((s) => s.name === name)?.exit ?? '–').join(', ');
  const toolSteps = r.steps.filter((s) => s.name.startsWith('add ') || s.name.startsWith('reinstall')).filter((s) => s.exit !== 0);
  const dry = r.codemodDry;
  const written = r.codemodWrite;
  const protectedCount = written
    ? `${written.toolsRewritten + written.doorsRewritten}${written.alreadyProtected ? ` (+${written.alreadyProtected} already)` : ''}`
    : '–';
  const codemodNotes = written
    ? ['conflicts', 'unmapped', 'noLiteralName', 'unanalysable', 'unparseable'].filter((k) => written[k] > 0).map((k) => `${k} ${written[k]}`)
    : [];
  const checks = r.checks
    .map((c) => `${c.name}: ${fmtCheck(c.before)} → ${fmtCheck(c.after)}${c.verdict === 'ok' || c.verdict === 'same-fail' ? '' : ` **${c.verdict}**`}`)
    .join('; ');
  const flags = [...r.flags, ...(r.unseen?.length ? [`unseen: ${r.unseen.join(', ')}`] : []), ...toolSteps.map((s) => `${s.name} exit ${s.exit}`)];
  return `| ${repo.id} | ${repo.layout.join(', ')} | ${r.node} | ${install} | ${exits}${dry && written && dry.toolsRewritten !== written.toolsRewritten ? ' (dry/write differ)' : ''} | ${fmtCensus(r.census)} | ${fmtKinds(r.init?.entryKinds)}${r.init?.notes?.length ? ` (${r.init.notes.length} notes)` : ''} | ${protectedCount}${codemodNotes.length ? `; ${codemodNotes.join(', ')}` : ''} | ${fmtFindings(r.check0)} → ${fmtFindings(r.check)} | ${cell(checks) || 'none'} | ${cell(flags.join('; '))} |`;
}

function fmtCheck(c) {
  if (!c) return '–';
  const mark = c.fromNode ? '*' : '';
  return c.tsErrors ? `${c.exit}${mark} (${c.tsErrors} TS)` : `${c.exit}${mark}`;
}

function fmtCensus(counts) {
  if (!counts) return '–';
  const shown = Object.entries(counts).filter(([, n]) => n > 0);
  return shown.length ? shown.map(([k, n]) => `${k} ${n}`).join(', ') : '0';
}

function fmtKinds(kinds) {
  if (!kinds) return '–';
  const shown = Object.entries(kinds);
  return shown.length ? shown.map(([k, n]) => `${k} ${n}`).join(', ') : '0';
}

function fmtFindings(check) {
  if (!check) return '–';
  const rules = Object.entries(check.byRule).sort((a, b) => b[1] - a[1]);
  return rules.length ? rules.map(([rule, n]) => `${rule} ${n}`).join(', ') : '0';
}

function cell(text) {
  return String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** What changed from run `a` to run `b`, repository by repository and Node by Node; the same when nothing did. */
export function compareRuns(a, b) {
  const lines = [`${a.ref} (${a.sha.slice(0, 12)}) → ${b.ref} (${b.sha.slice(0, 12)})`, '', '| repo | node | what changed |', '|---|---|---|'];
  for (const repoB of b.repos) {
    const repoA = a.repos.find((r) => r.id === repoB.id);
    for (const runB of repoB.runs ?? []) {
      const runA = repoA?.runs?.find((r) => r.node.split('.')[0] === runB.node.split('.')[0]);
      const changes = runA ? diffRun(runA, runB) : ['new in this run'];
      lines.push(`| ${repoB.id} | ${runB.node} | ${cell(changes.join('; ') || 'the same')} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function diffRun(a, b) {
  const changes = [];
  for (const name of STEP_ORDER) {
    const ea = a.steps.find((s) => s.name === name)?.exit ?? '–';
    const eb = b.steps.find((s) => s.name === name)?.exit ?? '–';
    if (ea !== eb) changes.push(`${name} exit ${ea} → ${eb}`);
  }
  const rules = new Set([...Object.keys(a.check?.byRule ?? {}), ...Object.keys(b.check?.byRule ?? {})]);
  for (const rule of rules) {
    const na = a.check?.byRule?.[rule] ?? 0;
    const nb = b.check?.byRule?.[rule] ?? 0;
    if (na !== nb) changes.push(`${rule} ${na} → ${nb}`);
  }
  const pa = (a.codemodWrite?.toolsRewritten ?? 0) + (a.codemodWrite?.doorsRewritten ?? 0);
  const pb = (b.codemodWrite?.toolsRewritten ?? 0) + (b.codemodWrite?.doorsRewritten ?? 0);
  if (pa !== pb) changes.push(`protected ${pa} → ${pb}`);
  if (fmtKinds(a.init?.entryKinds) !== fmtKinds(b.init?.entryKinds)) changes.push(`mapped ${fmtKinds(a.init?.entryKinds)} → ${fmtKinds(b.init?.entryKinds)}`);
  for (const c of b.checks) {
    const ca = a.checks.find((x) => x.name === c.name && x.dir === c.dir);
    if (ca && ca.verdict !== c.verdict) changes.push(`${c.name} ${ca.verdict} → ${c.verdict}`);
  }
  const fa = new Set(a.flags);
  const fb = new Set(b.flags);
  for (const f of fb) if (!fa.has(f)) changes.push(`+ ${f}`);
  for (const f of fa) if (!fb.has(f)) changes.push(`− ${f}`);
  return changes;
}
