# usage: test-metrics.py [TESTS_DIR] [--files]
# -> how many integration tests (#[test] fns in harness/tests/*.rs, not common/) build their
#    project on the shared builder (`Project`), how many make a temporary folder by hand
#    (tempfile::tempdir / TempDir / NamedTempFile), and how many make no files at all.
# A test counts as on the builder when its body, or a helper of the same file it calls
# (transitively), names `Project`; "by hand" when it reaches a tempfile call and no `Project`.
import os, re, sys

args = [a for a in sys.argv[1:] if not a.startswith('--')]
tests_dir = args[0] if args else os.path.join(os.path.dirname(__file__), '..', 'harness', 'tests')
per_file = '--files' in sys.argv

def code_only(src):
    """The source with comments, strings and char literals blanked (newlines kept), so that
    braces inside them do not count."""
    out = []; i = 0; n = len(src)
    while i < n:
        c = src[i]
        if src.startswith('//', i):
            j = src.find('\n', i); j = n if j < 0 else j
            out.append(' ' * (j - i)); i = j
        elif src.startswith('/*', i):
            j = src.find('*/', i + 2); j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', src[i:j])); i = j
        elif re.match(r'b?r#*"', src[i:i + 40]) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == '_')):
            m = re.match(r'b?r(#*)"', src[i:])
            end = '"' + m.group(1)
            j = src.find(end, i + m.end()); j = n if j < 0 else j + len(end)
            out.append('""' + re.sub(r'[^\n]', ' ', src[i + 2:j])); i = j
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == '\\' else 1
            j += 1
            out.append('""' + re.sub(r'[^\n]', ' ', src[i + 2:j])); i = j
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", src[i:])
            if m:
                out.append("' '" + ' ' * (m.end() - 3)); i += m.end()
            else:
                out.append(c); i += 1
        else:
            out.append(c); i += 1
    return ''.join(out)

FN = re.compile(r'\bfn\s+(\w+)\s*(<[^>{]*>)?\s*\(')

def functions(code):
    """(name, is_test, body text) of every fn with a body."""
    result = []
    for m in FN.finditer(code):
        start = code.find('{', m.end())
        semi = code.find(';', m.end())
        if start < 0 or (0 <= semi < start):
            continue
        depth = 0; j = start
        while j < len(code):
            if code[j] == '{': depth += 1
            elif code[j] == '}':
                depth -= 1
                if depth == 0: break
            j += 1
        before = code[max(0, m.start() - 300):m.start()]
        attrs = re.findall(r'#\[([^\]]*)\]\s*$|#\[([^\]]*)\]', before.split('}')[-1].split(';')[-1])
        is_test = any(re.match(r'\s*(\w+::)?test\b', a or b) for a, b in attrs)
        result.append((m.group(1), is_test, code[m.end():j]))
    return result

BUILDER = re.compile(r'\bProject\b')
# A run stated as expectations on the builder: `….args([..]).status(..)….run()`.
EXPECT = re.compile(r'\.run\(\)')
HAND = re.compile(r'\btempdir\s*\(|\bTempDir\b|\bNamedTempFile\b|\btempfile::')

def classify(path):
    code = code_only(open(path).read())
    fns = functions(code)
    by_name = {}
    for name, _, body in fns:
        by_name.setdefault(name, []).append(body)
    memo = {}
    def reaches(name, pattern, seen):
        key = (name, pattern.pattern)
        if key in memo: return memo[key]
        if name in seen: return False
        seen = seen | {name}
        found = False
        for body in by_name.get(name, []):
            if pattern.search(body): found = True; break
            for called in set(re.findall(r'\b(\w+)\s*(?:::<[^>]*>)?\s*\(', body)) | set(re.findall(r'\.(\w+)\s*\(', body)):
                if called in by_name and reaches(called, pattern, seen): found = True; break
            if found: break
        memo[key] = found
        return found
    rows = []
    for name, is_test, body in fns:
        if not is_test: continue
        if reaches(name, BUILDER, frozenset()): kind = 'builder'
        elif reaches(name, HAND, frozenset()): kind = 'hand'
        else: kind = 'none'
        rows.append((name, kind, kind == 'builder' and reaches(name, EXPECT, frozenset())))
    return rows

totals = {'builder': 0, 'hand': 0, 'none': 0}
totals_expect = [0]
lines = []
for f in sorted(os.listdir(tests_dir)):
    if not f.endswith('.rs'): continue
    rows = classify(os.path.join(tests_dir, f))
    counts = {k: sum(1 for _, kind, _ in rows if kind == k) for k in totals}
    expecting = sum(1 for _, _, e in rows if e)
    totals_expect[0] += expecting
    for k in totals: totals[k] += counts[k]
    own = 'own harness()' if re.search(r'\bfn harness\s*\(', open(os.path.join(tests_dir, f)).read()) else ''
    lines.append(f'{f:28} tests={len(rows):3} builder={counts["builder"]:3} hand={counts["hand"]:3} none={counts["none"]:3} expect={expecting:3} {own}')
if per_file:
    print('\n'.join(lines))
all_tests = sum(totals.values())
makes_files = totals['builder'] + totals['hand']
print(f'integration tests: {all_tests}; on the builder: {totals["builder"]} '
      f'({100 * totals["builder"] / all_tests:.0f}%); temporary folder by hand: {totals["hand"]}; '
      f'no files: {totals["none"]}; of the tests that make files, on the builder: '
      f'{100 * totals["builder"] / max(1, makes_files):.0f}%')
print(f'on the builder with its expectations (.run()): {totals_expect[0]}')
print('own harness() helpers:', sum(1 for l in lines if l.endswith('own harness()')))
