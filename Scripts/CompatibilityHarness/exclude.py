#!/usr/bin/env python3
"""exclude.py PKG_DIR PRODUCT SCRATCH [--max-iter N]

Builds PRODUCT (an executable target whose sources are PKG_DIR/Specs/PRODUCT: the originals'
spec files after prepare.sh) and, while the compiler rejects spec code, comments out (prefix
'//EXCL ') the smallest enclosing unit of each error, never rewriting anything:
  - an example: it / xit / fit / pending / itBehavesLike block (with the lines of its call);
  - else the innermost example group: context / describe / sharedExamples (and x/f forms);
  - else (an error in spec() outside any group, or in a helper declaration) the enclosing
    top-level declaration (class / struct / enum / extension / func / let / var);
  - an `import` of a module that does not exist here: the whole file.
Each exclusion is recorded in PKG_DIR/exclusions-PRODUCT.json with the compiler's error(s).
Errors caused by an earlier exclusion ("cannot find 'X' in scope" where X was excluded) carry
the root reason. Deterministic: same inputs, same exclusions.
"""
import json, os, re, subprocess, sys

EXAMPLE_RE = re.compile(r'^\s*(it|xit|fit|pending|itBehavesLike|xitBehavesLike|fitBehavesLike)\s*\(')
GROUP_RE = re.compile(r'^\s*(context|describe|xcontext|xdescribe|fcontext|fdescribe|sharedExamples)\s*\(')
TOPDECL_RE = re.compile(r'^(public |private |fileprivate |internal |final |open |@\w+ )*(class|struct|enum|extension|func|let|var|protocol|typealias)\b')
ERR_RE = re.compile(r'^(/[^:\n]+\.swift):(\d+):(\d+): error: (.*)$')
MARK = '//EXCL '


def strip_code(text):
    """Return text with string literal contents and comments blanked (same length), for brace matching."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            for k in range(i, j): out[k] = ' '
            i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != '\n': out[k] = ' '
            i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            for k in range(i + 3, j - 3):
                if out[k] != '\n': out[k] = ' '
            i = j
        elif c == '"':
            j = i + 1
            depth = 0
            while j < n:
                if text[j] == '\\' and j + 1 < n and text[j + 1] == '(':
                    depth += 1; j += 2; continue
                if depth and text[j] == '(':
                    depth += 1
                elif depth and text[j] == ')':
                    depth -= 1
                elif text[j] == '\\':
                    j += 2; continue
                elif text[j] == '"' and depth == 0:
                    break
                elif text[j] == '\n':
                    break
                j += 1
            for k in range(i + 1, min(j, n)): out[k] = ' '
            i = j + 1
        else:
            i += 1
    return ''.join(out)


def blocks(text):
    """List of (start_line, end_line, open_line_text_index) for each {...} pair, lines 1-based."""
    code = strip_code(text)
    line_of = []
    ln = 1
    for ch in code:
        line_of.append(ln)
        if ch == '\n': ln += 1
    stack, res = [], []
    for i, ch in enumerate(code):
        if ch == '{':
            stack.append(i)
        elif ch == '}' and stack:
            s = stack.pop()
            res.append((line_of[s], line_of[i]))
    return res, code.split('\n')


def head_start(lines, open_line):
    """The line where the statement that opens a block at open_line starts (a call spanning lines)."""
    l = open_line
    # walk back while the previous line ends with an open paren / comma (continued call)
    while l > 1 and re.search(r'[(,]\s*$', lines[l - 2]):
        l -= 1
    return l


def classify(lines, start):
    t = lines[start - 1]
    if EXAMPLE_RE.match(t): return 'example'
    if GROUP_RE.match(t): return 'group'
    if re.match(r'^\s*(override )?class func spec\(\)', t): return 'spec'
    if TOPDECL_RE.match(t): return 'top'
    return None


def name_of(lines, start):
    m = re.search(r'"((?:[^"\\]|\\.)*)"', lines[start - 1])
    if m: return m.group(1)
    return lines[start - 1].strip()[:80]


def choose_unit(path, line, msg):
    text = open(path).read()
    raw = text.split('\n')
    if re.match(r"no such module '", msg) and raw[line - 1].lstrip().startswith('import'):
        return ('file', 1, len(raw), os.path.basename(path))
    bl, code_lines = blocks(text)
    cands = []
    for (s, e) in bl:
        hs = head_start(code_lines, s)
        if hs <= line <= e:
            kind = classify(code_lines, hs)
            if kind: cands.append((e - hs, kind, hs, e))
    cands.sort()
    for want in ('example', 'group', 'top'):
        for size, kind, hs, e in cands:
            if kind == want:
                # a group directly hit only if the error is not in an example; top only outside groups
                return (kind, hs, e, name_of(raw, hs))
    # a top-level statement without braces
    if TOPDECL_RE.match(code_lines[line - 1]):
        return ('top', line, line, code_lines[line - 1].strip()[:80])
    return ('line', line, line, raw[line - 1].strip()[:80])


def declared_name(line_text):
    m = re.match(r'^(?:(?:public|private|fileprivate|internal|final|open|@\w+)\s+)*(?:class|struct|enum|protocol|typealias|func|let|var|extension)\s+([A-Za-z_][A-Za-z0-9_]*)', line_text.replace(MARK, ''))
    return m.group(1) if m else None


def build(pkg, product, scratch):
    cmd = ['nice', '-n', '10', 'swift', 'build', '--package-path', pkg, '--scratch-path', scratch, '--product', product]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def regen_main(pkg, product):
    d = os.path.join(pkg, 'Specs', product)
    out = subprocess.run([os.path.join(os.path.dirname(os.path.abspath(__file__)), 'genmain.sh'), d], stdout=subprocess.PIPE, text=True, check=True).stdout
    with open(os.path.join(d, 'main.swift'), 'w') as f: f.write(out)


def main():
    pkg, product, scratch = sys.argv[1:4]
    pkg = os.path.abspath(pkg)
    specdir = os.path.join(pkg, 'Specs', product)
    record_path = os.path.join(pkg, f'exclusions-{product}.json')
    exclusions = []
    excluded_names = {}  # declared name -> root reason
    for it in range(200):
        regen_main(pkg, product)
        rc, out = build(pkg, product, scratch)
        errs = []
        seen = set()
        for l in out.split('\n'):
            m = ERR_RE.match(l)
            if m and m.group(1).startswith(specdir) and (m.group(1), m.group(2), m.group(4)) not in seen:
                seen.add((m.group(1), m.group(2), m.group(4)))
                errs.append((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)))
        print(f'[exclude {product}] iteration {it}: rc={rc}, {len(errs)} spec errors', flush=True)
        if rc == 0:
            break
        if not errs:
            sys.stderr.write(out[-6000:])
            sys.exit('build failed without errors in spec files')
        chosen = {}  # (file, start) -> record
        for f, line, col, msg in errs:
            if f.endswith('/main.swift'):
                continue
            kind, s, e, name = choose_unit(f, line, msg)
            rel = os.path.relpath(f, specdir)
            # inside a unit already chosen this round: add the error to it
            outer = next((v for k, v in chosen.items() if k[0] == rel and k[1] <= s and e <= v['end']), None)
            if outer is not None:
                outer['errors'].append(f'{rel}:{line}:{col}: {msg}')
                continue
            # units chosen this round that lie inside this one are merged into it
            errs_inner = []
            for k in [k for k, v in chosen.items() if k[0] == rel and s <= k[1] and v['end'] <= e]:
                errs_inner += chosen.pop(k)['errors']
            root = None
            m = re.search(r"cannot find (?:type )?'([A-Za-z_][A-Za-z0-9_]*)' in scope", msg)
            if m and m.group(1) in excluded_names:
                root = excluded_names[m.group(1)]
            chosen[(rel, s)] = {'file': rel, 'start': s, 'end': e, 'kind': kind, 'name': name,
                                'errors': [f'{rel}:{line}:{col}: {msg}'] + errs_inner,
                                'root': root, 'iteration': it}
        if not chosen:
            sys.stderr.write(out[-6000:])
            sys.exit('errors only in main.swift')
        # an excluded sharedExamples block: its itBehavesLike users would fail at run time
        # ("shared example not registered"), so they are excluded with it
        for (rel, s), rec in list(chosen.items()):
            raw = open(os.path.join(specdir, rel)).read().split('\n')
            m = re.match(r'^\s*sharedExamples\s*\(\s*"([^"]*)"', raw[s - 1].replace(MARK, ''))
            if rec['kind'] != 'group' or not m:
                continue
            for root_dir, _, files in os.walk(specdir):
                for fn in files:
                    if not fn.endswith('.swift') or fn == 'main.swift':
                        continue
                    fp = os.path.join(root_dir, fn)
                    for i, t in enumerate(open(fp).read().split('\n'), 1):
                        if not t.startswith(MARK) and re.match(r'^\s*(x|f)?itBehavesLike\s*\(\s*"' + re.escape(m.group(1)) + '"', t):
                            kind, us, ue, name = choose_unit(fp, i, '')
                            r2 = os.path.relpath(fp, specdir)
                            if (r2, us) not in chosen:
                                chosen[(r2, us)] = {'file': r2, 'start': us, 'end': ue, 'kind': kind, 'name': name,
                                                    'errors': [f'{r2}:{i}:1: uses sharedExamples "{m.group(1)}", excluded'],
                                                    'root': rec['root'] or rec['errors'][0], 'iteration': it}
        for (rel, s), rec in chosen.items():
            path = os.path.join(specdir, rel)
            lines = open(path).read().split('\n')
            if rec['kind'] in ('top',):
                dn = declared_name(lines[s - 1])
                if dn:
                    excluded_names[dn] = rec['root'] or rec['errors'][0]
                    rec['declares'] = dn
            if rec['kind'] == 'file':
                for mm in re.finditer(r'^\s*(?:final )?(?:class|struct|enum|func)\s+([A-Za-z_][A-Za-z0-9_]*)', '\n'.join(lines), re.M):
                    excluded_names[mm.group(1)] = rec['errors'][0]
            for i in range(s - 1, rec['end']):
                if not lines[i].startswith(MARK):
                    lines[i] = MARK + lines[i]
            open(path, 'w').write('\n'.join(lines))
            exclusions.append(rec)
        json.dump(exclusions, open(record_path, 'w'), indent=1)
    json.dump(exclusions, open(record_path, 'w'), indent=1)
    print(f'[exclude {product}] done: {len(exclusions)} exclusions, recorded in {record_path}')


if __name__ == '__main__':
    main()
