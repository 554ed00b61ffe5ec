"""Writes ctrlrun-hashes.json: expected CTRLRun 0.12.2 policy hashes, computed by a canonicaliser
written here from CTRLRun's published algorithm (its `_canonical_policy` and `canonical_bytes`):
the document read with PyYAML's safe_load; {actions, authority, controls, environment, mode, schema}
with environment defaulting to "production", mode to "enforce", controls and authority null when
absent; JSON with sorted keys, no whitespace, ensure_ascii=False, UTF-8; "sha256:" + hex digest.
Run by hand (`python3 test/policy/data/gen-ctrlrun-hashes.py`) when adding a case; the test reads
the JSON and needs no Python."""
import datetime, hashlib, json, os, re, yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..', '..', '..')

def duration(text):
    m = re.fullmatch(r'P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?', text)
    d, h, mi, s = (int(x or 0) for x in m.groups())
    return d * 86400 + h * 3600 + mi * 60 + s

def expiry(value):
    if isinstance(value, str):
        value = datetime.datetime.fromisoformat(value)
    assert value.tzinfo is not None
    return value.isoformat()

def canonical_grant(g):
    # CTRLRun's _canonical_grant: every field that narrows a grant; constraints as {argument, op, operand}
    def split(key):
        for op in ('neq', 'lte', 'gte', 'eq', 'in', 'lt', 'gt'):
            if key.endswith('_' + op):
                return key[: -len(op) - 1], op
    constraints = {}
    for key, operand in sorted((g.get('constraints') or {}).items()):
        argument, op = split(key)
        constraints[key] = {'argument': argument, 'op': op, 'operand': operand}
    return {
        'actions': list(g['actions']),
        'constraints': constraints,
        'delegable': bool(g.get('delegable', False)),
        'environments': g.get('environments'),
        'expires_at': None if g.get('expires_at') is None else expiry(g['expires_at']),
        'resources': g.get('resources'),
        'subject': {'agent': g['subject'].get('agent'), 'user': g['subject'].get('user')},
        'tasks': g.get('tasks'),
        'budgets': None if g.get('budgets') is None else [{'metric': b['metric'], 'limit': b['limit'], 'window': duration(b['window'])} for b in g['budgets']],
    }

def canonical_authority(section):
    if section is None:
        return None
    return {
        'max_delegation_depth': section.get('max_delegation_depth', 3),
        'grants': {g['id']: canonical_grant(g) for g in section['grants']},
        'break_glass': {},
    }

def ctrlrun_hash(text):
    doc = yaml.safe_load(text)
    canonical = {
        'actions': doc.get('actions'),
        'authority': canonical_authority(doc.get('authority')),
        'controls': doc.get('controls'),
        'environment': doc['environment'] if isinstance(doc.get('environment'), str) else 'production',
        'mode': doc.get('mode', 'enforce'),
        'schema': doc['schema'],
    }
    data = json.dumps(canonical, sort_keys=True, separators=(',', ':'), ensure_ascii=False).encode('utf-8')
    return 'sha256:' + hashlib.sha256(data).hexdigest()

cases = {
 'spec example (v6)': open(os.path.join(ROOT, 'fixtures/policy/valid/spec-example.yaml')).read(),
 'refund-desk fixture': open(os.path.join(ROOT, 'fixtures/refund-desk/ctrlrun.yaml')).read(),
 'v4 controls with a version label': open(os.path.join(ROOT, 'fixtures/policy/valid/v4-controls.yaml')).read(),
 'v8 any ids': open(os.path.join(ROOT, 'fixtures/policy/valid/v8-any-ids.yaml')).read(),
 'huge integers': open(os.path.join(ROOT, 'fixtures/policy/valid/huge-int.yaml')).read(),
 'minimal v1, no environment (hashes as production)': 'schema: ctrlrun.policy/v1\nactions:\n  a.read:\n    decision: allow\n',
 'the same rule as rules: (not the decision shorthand)': 'schema: ctrlrun.policy/v1\nactions:\n  a.read:\n    rules:\n      - decision: allow\n',
 'YAML 1.1 values': 'schema: ctrlrun.policy/v3\nmode: observe\nenvironment: staging\nactions:\n  a.b:\n    rules:\n      - when: { flag_eq: no, n_lte: 017, m_gte: 0b11, big_lt: 1_000, t_eq: 1:30, s_eq: y, z_eq: ~ }\n        decision: approve\n      - decision: deny\n',
 'unicode keys sort by code point': 'schema: ctrlrun.policy/v8\nactions:\n  "\\U0001F600.emoji":\n    decision: allow\n  "\\uFF21.fullwidth":\n    decision: deny\n  "z.plain":\n    effect: "k:{名前}"\n    decision: approve\n',
 'operands: null, lists, mappings': open(os.path.join(ROOT, 'fixtures/policy/valid/eq-values.yaml')).read(),
 'authority: grants, tasks, budgets (v7)': open(os.path.join(ROOT, 'fixtures/policy/valid/v7-authority.yaml')).read(),
 'authority: an unquoted timestamp, an offset kept, a depth of 0': 'schema: ctrlrun.policy/v3\nauthority:\n  max_delegation_depth: 0\n  grants:\n    - id: lead\n      subject: { agent: lead, user: "mira@*" }\n      actions: [bank.payout]\n      constraints: { amount_lte: 10000000, amount_gte: 0 }\n      delegable: true\n      expires_at: 2027-01-01T09:30:00+02:00\nactions:\n  bank.payout:\n    decision: approve\n',
 'upstream pins (v8): digests, one digest, the schema pin, a null pin': 'schema: ctrlrun.policy/v8\nactions:\n  stripe.payout:\n    decision: approve\n    effect: "payout:{payout_id}"\n    upstream:\n      tls_cert_sha256: ["sha256:d685f535bdf0c0b02e991ba7f5eff2c55a927481e55877eb80fc9aa837cf9643", "sha256:1111111111111111111111111111111111111111111111111111111111111111"]\n  one.digest:\n    decision: allow\n    upstream: { tls_cert_sha256: "sha256:d685f535bdf0c0b02e991ba7f5eff2c55a927481e55877eb80fc9aa837cf9643", tool_schema_sha256: "sha256:2222222222222222222222222222222222222222222222222222222222222222" }\n  no.pin:\n    decision: allow\n    upstream:\n',
 'authority: grants: [] (denies everything)': 'schema: ctrlrun.policy/v3\nauthority:\n  grants: []\nactions:\n  a.read:\n    decision: allow\n',
}
out = [{'name': name, 'policy': text, 'hash': ctrlrun_hash(text)} for name, text in cases.items()]
json.dump({'generator': 'gen-ctrlrun-hashes.py (PyYAML %s)' % yaml.__version__, 'cases': out}, open(os.path.join(HERE, 'ctrlrun-hashes.json'), 'w'), indent=1, ensure_ascii=False)
for c in out: print(c['hash'], c['name'])
