"""Writes ctrlrun-hashes.json: expected CTRLRun 0.12.2 policy hashes, computed by a canonicaliser
written here from CTRLRun's published algorithm (its `_canonical_policy` and `canonical_bytes`):
the document read with PyYAML's safe_load; {actions, authority, controls, environment, mode, schema}
with environment defaulting to "production", mode to "enforce", controls and authority null when
absent; JSON with sorted keys, no whitespace, ensure_ascii=False, UTF-8; "sha256:" + hex digest.
Run by hand (`python3 test/policy/data/gen-ctrlrun-hashes.py`) when adding a case; the test reads
the JSON and needs no Python."""
import hashlib, json, os, yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..', '..', '..')

def ctrlrun_hash(text):
    doc = yaml.safe_load(text)
    canonical = {
        'actions': doc.get('actions'),
        'authority': None,
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
}
out = [{'name': name, 'policy': text, 'hash': ctrlrun_hash(text)} for name, text in cases.items()]
json.dump({'generator': 'gen-ctrlrun-hashes.py (PyYAML %s)' % yaml.__version__, 'cases': out}, open(os.path.join(HERE, 'ctrlrun-hashes.json'), 'w'), indent=1, ensure_ascii=False)
for c in out: print(c['hash'], c['name'])
