#!/usr/bin/env python3
"""report.py NAME [NAME...] : results.md-style report of harness runs /work/compat/NAME against the
baselines in /work/compat/baseline (figures, exclusions grouped by cause with the examples each one
costs, failing examples with their messages). Prints Markdown to stdout."""
import collections, json, os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exclude import blocks

C = '/work/compat'
SUITES = [('PiedPiperSpecs', 'PiedPiper (HEAD 947de56)', 'piedpiper'), ('CarlosSpecs', 'Carlos 0.10.1', 'carlos')]
ISSUE_EXCLUDED_CLASS = 'DispatchedCacheTests'  # not in issue 23's 706 (its spec has a stored property)

# cause labels, first match wins (applied to the root compiler error of an exclusion)
CAUSES = [
    (r"generic type 'Result' specialized with too few type parameters|Result<", "`Result<T>` used as PiedPiper's type (here `FutureResult<T>`; `Result` is Swift's)"),
    (r"no such module 'UIKit'|no such module 'MapKit'", "Apple-only framework (UIKit / MapKit): not on Linux, excluded in the baseline too"),
    (r"CarlosImage", "`CarlosImage` (UIImage/NSImage): not on Linux, excluded in the baseline too"),
    (r"NSData|NSString", "`NSData` / `NSString` values (here `Data` / `String`)"),
    (r"JSONTransformer", "`JSONTransformer` not generic (here `JSONTransformer<T: Codable>`)"),
    (r"DeferredResultOperation|ConcurrentOperation|GenericOperation|Operation", "`Operation`-based request types (removed)"),
    (r"NSCoding|NSUserDefaultsCacheLevel|UserDefaults", "`NSCoding` values in the user-defaults level (here `Codable`)"),
    (r"SRC:.*>>>.*converting non-Sendable function|converting non-Sendable function.*SRC:.*>>>", "`>>>` on plain (non-`@Sendable`) closures kept in constants"),
    (r"beIdenticalTo.*BasicCache", "`BasicCache` is a struct here (the spec checks identity with `beIdenticalTo`)"),
    (r"JSONValue|AnyObject", "`JSONCache()` values are `JSONValue` here, not `AnyObject`"),
    (r"SRC:.*(NSString|NSData)", "`NSData` / `NSString` values (here `Data` / `String`)"),
    (r"Sendable", "`Sendable` required of keys, values or closures"),
]


def cause_of(msg, src=''):
    probe = msg + ' SRC: ' + src
    for rx, label in CAUSES:
        if re.search(rx, probe):
            return label
    return 'other: ' + re.sub(r"^[^:]+:\d+:\d+: ", '', msg)


def load(path):
    return json.load(open(path)) if os.path.exists(path) else None


def shared_name(specfile, line):
    """Name of the sharedExamples(...) block that encloses `line` of `specfile`, if any."""
    text = open(specfile).read().replace('//EXCL ', '')
    bl, code = blocks(text)
    raw = text.split('\n')
    best = None
    for s, e in bl:
        if s <= line <= e and re.match(r'^\s*sharedExamples\s*\(', raw[s - 1]):
            if best is None or s > best[0]:
                m = re.search(r'"([^"]*)"', raw[s - 1]); best = (s, m.group(1) if m else None)
    return best[1] if best else None


def suite_report(name, product, title, base):
    out = []
    B = load(f'{C}/baseline/{base}-results.json')
    H = load(f'{C}/{name}/{product}-results.json')
    X = load(f'{C}/{name}/exclusions-{product}.json') or []
    BX = load(f'{C}/baseline/exclusions-{product}.json') or []
    if not H:
        return [f'### {title}: no results yet\n']
    bnames = [e[1] for e in B['examples']]
    bat = {e[1]: (e[0], e[2]) for e in B['examples']}
    bpass = {n for n in bnames if B['results'].get(n, {}).get('status') == 'passed'}
    hnames = {e[1] for e in H['examples']}
    hpass = {n for n, r in H['results'].items() if r['status'] == 'passed'}
    compiled = [n for n in bnames if n in hnames]
    passed = [n for n in bnames if n in hpass]
    passed_of_bpass = [n for n in passed if n in bpass]
    pend = set(B['pending'])
    lines = [f'### {title}', '']
    npend = len([n for n in bnames if n in pend])
    npass = len([n for n in bnames if n in bpass])
    nrun = len([n for n in bnames if B['results'].get(n, {}).get('status') == 'not run'])
    lines.append(f"Baseline (the original on this machine): {len(bnames)} examples ({len(bnames) - npend} real + {npend} pending), {npass} pass, {len(bnames) - npass - nrun} fail" + (f", {nrun} not run (network)" if nrun else '') + (f" ({len(bnames) - len(set(bnames))} example names occur twice)" if len(bnames) != len(set(bnames)) else '') + '.')
    lines.append('')
    lines.append('| | compiled | passed | passed, of the baseline\'s passing |')
    lines.append('|---|--:|--:|--:|')
    def row(label, keep):
        bn = [n for n in bnames if keep(n)]
        bp = [n for n in bn if n in bpass]
        c = [n for n in bn if n in hnames]
        p = [n for n in bn if n in hpass]
        pp = [n for n in p if n in bpass]
        pct = lambda a, b: f'{100.0 * a / b:.1f} %' if b else '-'
        lines.append(f'| {label} | {len(c)} / {len(bn)} ({pct(len(c), len(bn))}) | {len(p)} / {len(bn)} | {len(pp)} / {len(bp)} ({pct(len(pp), len(bp))}) |')
    row('all examples', lambda n: True)
    row('real examples (not pending)', lambda n: n not in pend)
    row('pending examples (Quick reports them as passed; they never run)', lambda n: n in pend)
    if base == 'carlos':
        row(f'issue 23\'s denominators (without {ISSUE_EXCLUDED_CLASS})', lambda n: bat[n][0] != ISSUE_EXCLUDED_CLASS)
        row(f'the same, real examples only', lambda n: bat[n][0] != ISSUE_EXCLUDED_CLASS and n not in pend)
    extra = [e[1] for e in H['examples'] if e[1] not in set(bnames)]
    if extra:
        lines.append(f'\nExamples in the harness but not in the baseline: {len(extra)}: ' + '; '.join(extra[:10]))
    # failing examples
    fails = [(n, r) for n, r in sorted(H['results'].items()) if r['status'] != 'passed']
    lines.append(f'\n**Failing examples ({len(fails)})**' + (':' if fails else '.'))
    for n, r in fails:
        was = 'not run in the baseline either' if B['results'].get(n, {}).get('status') == 'not run' else ('fails in the baseline too' if n in bat and n not in bpass else ('passes in the baseline' if n in bpass else 'not in baseline'))
        lines.append(f'- [{r["status"]}; {was}] {n}')
        for m in r['messages'][:4]:
            lines.append(f'    - `{m[:400]}`')
    # exclusions: which baseline examples each one costs
    specdir = f'{C}/{name}/Specs/{product}'
    lost = [n for n in bnames if n not in hnames]
    for x in X:
        x['lost'] = []
        x['shared'] = shared_name(os.path.join(specdir, x['file']), x['start']) if x['kind'] in ('example', 'group') else None
    unattributed = []
    for n in lost:
        cls, at = bat[n]
        f, _, l = at.rpartition(':')
        l = int(l)
        cands = [x for x in X if x['file'] == f and x['start'] <= l <= x['end']]
        if not cands:
            comps = [c.strip() for c in n.split(', ')]
            for x in X:
                if x['shared'] and x['shared'] in n and (x['name'] in comps or any(c.startswith(x['name']) for c in comps)):
                    cands.append(x)
        if cands:
            best = min(cands, key=lambda x: x['end'] - x['start'])
            best['lost'].append(n)
        else:
            unattributed.append(n)
    by_cause = collections.OrderedDict()
    for x in X:
        root = x.get('root') or x['errors'][0]
        m = re.match(r'^([^:]+):(\d+):', root)
        src = ''
        if m and os.path.exists(os.path.join(specdir, m.group(1))):
            src = open(os.path.join(specdir, m.group(1))).read().split('\n')[int(m.group(2)) - 1].replace('//EXCL ', '')
        x['src'] = src.strip()
        c = cause_of(root, src)
        by_cause.setdefault(c, []).append(x)
    order = sorted(by_cause.items(), key=lambda kv: -sum(len(x['lost']) for x in kv[1]))
    lines.append(f'\n**Exclusions: {len(X)} units, {len(lost)} examples not compiled**, grouped by cause (examples lost: units):')
    for c, xs in order:
        nl = sum(len(x['lost']) for x in xs)
        lines.append(f'- **{nl}**: {c} ({len(xs)} units)')
    ident = [x for x in X if base == 'carlos' and x['lost'] and 'beIdenticalTo(' in '\n'.join(open(os.path.join(specdir, x['file'])).read().replace('//EXCL ', '').split('\n')[x['start'] - 1:x['end']])]
    if ident:
        lines.append(f"\nExcluded units that check identity with `beIdenticalTo` (in this suite, of a `BasicCache` but for one `Future` check in NormalizationTests.swift; `BasicCache` is a struct here, so a unit counted above under another cause, its first error, would not compile for this reason either): **{sum(len(x['lost']) for x in ident)}** examples: " + '; '.join(f"{x['file']}:{x['start']} \"{x['name'][:60]}\" ({len(x['lost'])})" for x in ident))
    lines.append('\nEvery exclusion (file:lines, kind, name, examples it costs, the compiler\'s first error; `root` when the error only followed an earlier exclusion):')
    for c, xs in order:
        lines.append(f'\n*{c}*')
        for x in sorted(xs, key=lambda x: (x['file'], x['start'])):
            root = f" (root: `{x['root'][:200]}`)" if x.get('root') else ''
            sh = f" in sharedExamples \"{x['shared']}\"" if x['shared'] else ''
            lines.append(f"- {x['file']}:{x['start']}-{x['end']} {x['kind']} \"{x['name'][:90]}\"{sh}: {len(x['lost'])} ex. — `{x['errors'][0][:260]}`{root}" + (f' (+{len(x["errors"]) - 1} more errors)' if len(x['errors']) > 1 else '') + (f" — at: `{x['src'][:120]}`" if x.get('src') else ''))
    if unattributed:
        lines.append(f'\nNot compiled, not attributed to one exclusion ({len(unattributed)}): ' + '; '.join(unattributed[:20]))
    return lines


def baseline_report():
    out = ['## Baselines: the originals\' own suites on the originals, this machine', '']
    for product, title, base in SUITES:
        B = load(f'{C}/baseline/{base}-results.json')
        X = load(f'{C}/baseline/exclusions-{product}.json') or []
        names = [e[1] for e in B['examples']]
        pend = set(B['pending'])
        npass = len([n for n in names if B['results'].get(n, {}).get('status') == 'passed'])
        npend = len([n for n in names if n in pend])
        out.append(f'### {title}')
        nrun = len([n for n in names if B['results'].get(n, {}).get('status') == 'not run'])
        out.append(f'{len(names)} examples = {len(names) - npend} real + {npend} pending; {npass} pass (pending ones included, as Quick reports them on Linux), {len(names) - npass - nrun} fail' + (f', {nrun} not run (needs the public network; it fails without it)' if nrun else '') + '.')
        if base == 'carlos':
            d = [e[1] for e in B['examples'] if e[0] == ISSUE_EXCLUDED_CLASS]
            dp = len([n for n in d if n in pend])
            dpass = len([n for n in d if B['results'].get(n, {}).get('status') == 'passed'])
            out.append(f'Without {ISSUE_EXCLUDED_CLASS} ({len(d)} examples: {len(d) - dp} real + {dp} pending, {dpass} pass; issue 23 left this class out, its stored `queue` property does not compile under Quick 7 without mechanical rule 5): **{len(names) - len(d)} examples = {len(names) - len(d) - (npend - dp)} real + {npend - dp} pending, {npass - dpass} pass** — issue 23\'s 706 / 636 / 70 / 704 exactly.')
        for n, r in sorted(B['results'].items()):
            if r['status'] != 'passed':
                out.append(f'- {"not run" if r["status"] == "not run" else "fails"}: {n} — `{r["messages"][0][:200]}`')
        for x in X:
            out.append(f"- not built on Linux: {x['file']}:{x['start']}-{x['end']} {x['kind']} \"{x['name']}\" — `{x['errors'][0][:150]}`")
        out.append('')
    return out


def main():
    names = sys.argv[1:]
    out = []
    if names and names[0] == 'baseline':
        out += baseline_report()
        names = names[1:]
    for name in names:
        commit = open(f'{C}/{name}/snapshot/COMMIT').read().strip()
        pkg = open(f'{C}/{name}/Package.swift').read()
        compat = re.findall(r'product\(name: "(\w*Compatibility)"', pkg)
        out.append(f'## Harness `{name}`: /work/main at {commit[:7]}' + (f', spec files also `import {compat[0]}`' if compat else ', spec files unchanged but for the mechanical rules'))
        out.append('')
        for product, title, base in SUITES:
            out += suite_report(name, product, title, base)
            out.append('')
    print('\n'.join(out))


if __name__ == '__main__':
    main()
