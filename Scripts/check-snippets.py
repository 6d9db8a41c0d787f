#!/usr/bin/env python3
"""Type-checks every Swift snippet of the documentation.

Extracts each ```swift block from README.md, MIGRATION.md, the READMEs of the
Integrations packages (Integrations/*/README.md) and the DocC articles, and type-checks it as the main file of a program (one without
an import line as if it began with `import Carlos` and `import Foundation`), next to
Scripts/Snippets/Prelude.swift (the names a snippet uses as "yours": an origin, a
token...). A snippet that starts with `// swift-tools-version` is a package manifest
and is checked against PackageDescription. A snippet of an Integrations package's
README sees that package's modules too (build it first:
`swift build --package-path Integrations/<Package>`, or build them all into one
folder and name it in INTEGRATIONS_SCRATCH).

    Scripts/check-snippets.py            # after `swift build` (and the Integrations builds)
    Scripts/check-snippets.py --list     # print the snippets it finds

An Integrations README's manifest that depends on the checkout by path
(`.package(path: "../Carlos/Integrations/...")`, as an application next to the
checkout would) is also built as that application, first: every such manifest's
executable target becomes a target of one throwaway package (one build: SwiftPM
removes from a scratch folder the checkouts that the package it builds does not use),
with the manifest's `.product` lines, the README's snippet that starts with
`// Sources/<Target>/main.swift` or else a main.swift importing every product, and the
manifests' `.package` lines, their `../Carlos` paths pointed at this checkout and
`package: "Carlos"` at the identity SwiftPM gives this checkout (its folder's name).
Each manifest must declare the packages its products name. The build goes to
INTEGRATIONS_SCRATCH when set (where the packages' modules already are), else to
Integrations/.build-readme-apps. `--no-apps` skips it.

Exits non-zero, printing the compiler's errors, when a snippet does not compile or
draws a warning (such as an `await` on a call that does not wait), or when such an
application does not build.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRELUDE = os.path.join(ROOT, "Scripts", "Snippets", "Prelude.swift")
MANIFEST_API = "/opt/swift/usr/lib/swift/pm/ManifestAPI"


def documents():
    names = ["README.md", "MIGRATION.md", "Integrations/README.md"]
    names += sorted(glob.glob("Integrations/*/README.md", root_dir=ROOT))
    names += sorted(glob.glob("Integrations/*/*/README.md", root_dir=ROOT))
    names += sorted(glob.glob("Sources/*/*.docc/*.md", root_dir=ROOT))
    return [n for n in names if os.path.exists(os.path.join(ROOT, n))]


def snippets(name):
    text = open(os.path.join(ROOT, name)).read()
    for match in re.finditer(r"^( *)```swift\n(.*?)^\1```", text, re.S | re.M):
        line = text[: match.start()].count("\n") + 2
        indent = len(match.group(1))
        code = "\n".join(l[indent:] for l in match.group(2).split("\n"))
        yield line, code


def swiftc():
    return os.environ.get("SWIFTC", "swiftc")


def package_build(name):
    """The build folder whose modules a snippet of document `name` sees: for a README
    of an Integrations package, that package's `.build`, or the folder the
    environment's INTEGRATIONS_SCRATCH names (every package built into one, as CI
    does); the root package's otherwise."""
    parts = name.split("/")
    if len(parts) in (3, 4) and parts[0] == "Integrations":
        shared = os.environ.get("INTEGRATIONS_SCRATCH")
        if shared:
            return os.path.join(ROOT, shared)
        return os.path.join(ROOT, *parts[:-1], ".build")
    return os.path.join(ROOT, ".build")


def module_paths(name):
    paths = [os.path.join(ROOT, ".build", "debug", "Modules")]
    build = package_build(name)
    if build != os.path.join(ROOT, ".build"):
        paths.insert(0, os.path.join(build, "debug", "Modules"))
    return paths


def c_module_maps(name):
    """The C modules a package's dependencies bring (swift-atomics' shims...)."""
    build = package_build(name)
    return sorted(glob.glob(os.path.join(build, "checkouts", "*", "Sources", "*", "include",
                                         "module.modulemap"))
                  + glob.glob(os.path.join(build, "debug", "*.build", "module.modulemap")))


def check(name, line, code, scratch):
    main = os.path.join(scratch, "main.swift")
    if not re.search(r"^(@testable )?import ", code, re.M) and "swift-tools-version" not in code:
        code = "import Carlos\nimport Foundation\n" + code  # the stated prelude
    with open(main, "w") as f:
        f.write(code)
    if code.lstrip().startswith("// swift-tools-version"):
        command = [swiftc(), "-typecheck", "-swift-version", "6", "-I", MANIFEST_API,
                   "-package-description-version", "6.0", main]
    else:
        # Deprecated spellings stay warnings: MIGRATION.md shows them on purpose.
        command = [swiftc(), "-typecheck", "-swift-version", "6", "-warnings-as-errors",
                   "-Wwarning", "DeprecatedDeclaration", "-module-name", "Snippet"]
        for path in module_paths(name):
            command += ["-I", path]
        for module_map in c_module_maps(name):
            command += ["-Xcc", f"-fmodule-map-file={module_map}"]
        command += [PRELUDE, main]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        print(f"✘ {name}:{line} does not compile:")
        print(result.stdout + result.stderr)
        return False
    return True


CHECKOUT_PATH = re.compile(r'\.package\(path: "\.\./Carlos((?:/[^"]*)?)"\)')
APP_SOURCE = re.compile(r"^// (Sources/(\w+)/\w+\.swift)\n")


def applications(name):
    """The manifests of document `name` (an Integrations README) that depend on the
    checkout by path, each with the README's snippets of its sources."""
    if not name.startswith("Integrations/"):
        return []
    found = list(snippets(name))
    sources = {}
    for _, code in found:
        match = APP_SOURCE.match(code)
        if match:
            sources[match.group(1)] = code
    return [(line, code, sources) for line, code in found
            if code.lstrip().startswith("// swift-tools-version") and CHECKOUT_PATH.search(code)]


PACKAGE_LINE = re.compile(r'^ *(\.package\((?:url|path): "([^"]+)"[^\n]*\)),?$', re.M)
PRODUCT = re.compile(r'\.product\(name: "(\w+)", package: "([^"]+)"\)')


def identity(location):
    return os.path.basename(location.rstrip("/")).removesuffix(".git").lower()


def umbrella_products():
    """The Integrations products that gather modules of other names (no module to import)."""
    umbrellas = set()
    for manifest_path in glob.glob(os.path.join(ROOT, "Integrations", "*", "Package.swift")):
        manifest = open(manifest_path).read()
        targets = set(re.findall(r'\.(?:t|executableT)arget\(\s*name: "(\w+)"', manifest))
        umbrellas |= set(re.findall(r'\.library\(\s*name: "(\w+)"', manifest)) - targets
    return umbrellas


def build_applications(apps):
    """Builds the applications of `apps` ((document, line, manifest, sources) each) as
    one package, with one executable target per application: each target takes its
    manifest's `.product` lines, the package takes every manifest's `.package` lines
    (the highest `from:` where two differ). One package, because SwiftPM removes from a
    scratch folder the checkouts that the package it builds does not use, and the next
    build's new checkouts would compile again. That every `package:` a manifest's
    products name is declared by that manifest's own `.package` lines is checked here.
    Returns the number of applications that fail."""
    failed = 0
    checkout = os.path.basename(ROOT).lower()
    umbrellas = umbrella_products()
    packages, targets = {}, []
    for index, (name, line, manifest, sources) in enumerate(apps):
        declared = {"carlos" if "../Carlos" == location else identity(location): line_
                    for line_, location in PACKAGE_LINE.findall(manifest)
                    for location in [location]}
        products = PRODUCT.findall(manifest)
        missing = sorted({package for _, package in products if package.lower() not in declared})
        if missing:
            print(f"✘ {name}:{line}: products of {', '.join(missing)}, which no `.package` line declares")
            failed += 1
            continue
        for key, line_ in declared.items():
            line_ = CHECKOUT_PATH.sub(lambda m: f'.package(path: "{ROOT}{m.group(1)}")', line_)
            version = re.search(r'from: "([^"]+)"', line_)
            old = packages.get(key)
            if old and version and re.search(r'from: "([^"]+)"', old):
                newer = max(version.group(1), re.search(r'from: "([^"]+)"', old).group(1),
                            key=lambda v: tuple(int(x) for x in v.split(".")))
                line_ = re.sub(r'from: "[^"]+"', f'from: "{newer}"', line_)
            packages[key] = line_
        for target in re.findall(r'\.executableTarget\(\s*name: "(\w+)"', manifest):
            code = sources.get(f"Sources/{target}/main.swift",
                               "".join(f"import {product}\n" for product, _ in products
                                       if product not in umbrellas))
            dependencies = [f'.product(name: "{product}", package: "{checkout if package == "Carlos" else package}")'
                            for product, package in products]
            targets.append((f"{target}{index}", dependencies, code, name, line))
    manifest = "\n".join(
        ["// swift-tools-version: 6.1", "import PackageDescription", "",
         "let package = Package(", '  name: "ReadmeApplications",', "  platforms: [.macOS(.v15)],",
         "  dependencies: ["]
        + [f"    {line_}," for line_ in packages.values()]
        + ["  ],", "  targets: ["]
        + [f'    .executableTarget(name: "{target}", dependencies: [{", ".join(deps)}]),'
           for target, deps, _, _, _ in targets]
        + ["  ]", ")", ""])
    shared = os.environ.get("INTEGRATIONS_SCRATCH")
    scratch = os.path.join(ROOT, shared) if shared else os.path.join(ROOT, "Integrations", ".build-readme-apps")
    with tempfile.TemporaryDirectory() as folder:
        app = os.path.join(folder, "ReadmeApplications")
        for target, _, code, _, _ in targets:
            os.makedirs(os.path.join(app, "Sources", target))
            with open(os.path.join(app, "Sources", target, "main.swift"), "w") as f:
                f.write(code)
        with open(os.path.join(app, "Package.swift"), "w") as f:
            f.write(manifest)
        start = time.monotonic()
        result = subprocess.run(["swift", "build", "--package-path", app, "--scratch-path", scratch],
                                capture_output=True, text=True, cwd=ROOT)
        seconds = time.monotonic() - start
    if result.returncode != 0:
        print(f"✘ the READMEs' applications do not build ({seconds:.0f} s):")
        print(manifest)
        print(result.stdout[-8000:] + result.stderr[-8000:])
        return failed + len(targets)
    for target, _, _, name, line in targets:
        print(f"✔ {name}:{line}: its application builds (as target {target})")
    print(f"the READMEs' applications built in {seconds:.0f} s")
    return failed


def main():
    listing = "--list" in sys.argv
    total = failed = apps = apps_failed = 0
    if not listing and "--no-apps" not in sys.argv:
        # First: the build also gives the snippets below the Integrations modules.
        found = [(name, *app) for name in documents() for app in applications(name)]
        apps = len(found)
        apps_failed = build_applications(found)
    with tempfile.TemporaryDirectory() as scratch:
        for name in documents():
            for line, code in snippets(name):
                total += 1
                if listing:
                    print(f"==== {name}:{line}\n{code}")
                elif not check(name, line, code, scratch):
                    failed += 1
    if not listing:
        print(f"{total - failed} of {total} snippets compile; "
              f"{apps - apps_failed} of {apps} README applications build")
    sys.exit(1 if failed or apps_failed else 0)


if __name__ == "__main__":
    main()
