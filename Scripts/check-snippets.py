#!/usr/bin/env python3
"""Type-checks every Swift snippet of the documentation.

Extracts each ```swift block from README.md, MIGRATION.md, the READMEs of the
integrations (Integrations/*/README.md) and the DocC articles, and type-checks it as the main file of a program (one without
an import line as if it began with `import Carlos` and `import Foundation`), next to
Scripts/Snippets/Prelude.swift (the names a snippet uses as "yours": an origin, a
token...). A snippet that starts with `// swift-tools-version` is a package manifest
and is checked against PackageDescription. A snippet of an integration's README sees
the integrations' modules too: those of the folder INTEGRATIONS_SCRATCH names, else of
.build-integrations (`swift build --enable-all-traits --scratch-path .build-integrations`;
the applications' build below also puts them there).

    Scripts/check-snippets.py            # after `swift build` (and the build with traits)
    Scripts/check-snippets.py --list     # print the snippets it finds

A README's manifest that depends on Carlos by URL
(`.package(url: "https://github.com/<owner>/Carlos.git", from: …, traits: […])`, as an
application would) is also built as that application, first, against a clone of this
checkout's HEAD tagged with the version in VERSION without its pre-release part (which
every such manifest must name), by `file://` URL and version: every such manifest's executable target becomes a target of one throwaway package (one
build: SwiftPM removes from a scratch folder the checkouts that the package it builds
does not use), with the manifest's `.product` lines, the README's snippet that starts
with `// Sources/<Target>/main.swift` or else a main.swift importing every product,
the manifests' `.package` lines and every trait any of them turns on. Each manifest
must declare the packages its products name and turn on the trait of each Carlos
product it uses. The CarlosHummingbird README's server is then run and asked twice.
The build goes to INTEGRATIONS_SCRATCH when set, else to .build-integrations.
`--no-apps` skips it.

Exits non-zero, printing the compiler's errors, when a snippet does not compile or
draws a warning (such as an `await` on a call that does not wait), or when such an
application does not build or run.
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
    of an integration, the folder INTEGRATIONS_SCRATCH names, else .build-integrations
    (built with every trait on); the root package's `.build` otherwise."""
    parts = name.split("/")
    if len(parts) in (3, 4) and parts[0] == "Integrations":
        return os.path.join(ROOT, os.environ.get("INTEGRATIONS_SCRATCH", ".build-integrations"))
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
        tools = re.search(r"swift-tools-version: *([\d.]+)", code).group(1)
        command = [swiftc(), "-typecheck", "-swift-version", "6", "-I", MANIFEST_API,
                   "-package-description-version", tools, main]
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


CARLOS_URL = "https://github.com/<owner>/Carlos.git"
CARLOS_LINE = re.compile(r'\.package\(url: "' + re.escape(CARLOS_URL) + r'", from: "([^"]+)"(?:, traits: \[([^\]]*)\])?\)')
APP_SOURCE = re.compile(r"^// (Sources/(\w+)/\w+\.swift)\n")


def applications(name):
    """The manifests of document `name` that depend on Carlos by URL, each with the
    document's snippets of its sources."""
    found = list(snippets(name))
    sources = {}
    for _, code in found:
        match = APP_SOURCE.match(code)
        if match:
            sources[match.group(1)] = code
    return [(line, code, sources) for line, code in found
            if code.lstrip().startswith("// swift-tools-version") and CARLOS_URL in code]


PACKAGE_LINE = re.compile(r'^ *(\.package\((?:url|path): "([^"]+)"[^\n]*\)),?$', re.M)
PRODUCT = re.compile(r'\.product\(name: "(\w+)", package: "([^"]+)"\)')


def identity(location):
    return os.path.basename(location.rstrip("/")).removesuffix(".git").lower()


def root_manifest():
    return open(os.path.join(ROOT, "Package.swift")).read()


def product_traits():
    """Each library product of the root manifest with the trait it needs (the comment
    `// Trait "…"` above it; none for the core's), and the traits each trait turns on."""
    manifest = root_manifest()
    needs, current = {}, None
    products = manifest[manifest.index("products: ["):manifest.index("traits: traits")]
    for line in re.sub(r"\(\s*\n\s*", "(", products).split("\n"):
        if "// Trait" in line:
            current = re.search(r'"(\w+)"', line).group(1)
        for product in re.findall(r'\.library\(name: "(\w+)"', line):
            needs[product] = current
    implied = {}
    for trait, enabled in re.findall(r'name: "(\w+)",(?:[^()]|\([^()]*\))*?enabledTraits: \[([^\]]*)\]',
                                     manifest):
        implied[trait] = set(re.findall(r'"(\w+)"', enabled))
    return needs, implied


def umbrella_products():
    """The root's library products that gather modules of other names (no module to import)."""
    manifest = root_manifest()
    targets = set(re.findall(r'\.(?:t|executableT|testT)arget\(\s*name: "(\w+)"', manifest))
    return set(re.findall(r'\.library\(\s*name: "(\w+)"', manifest)) - targets


def missing_traits(manifest):
    """The products of Carlos that `manifest` uses without turning their trait on."""
    needs, implied = product_traits()
    match = CARLOS_LINE.search(manifest)
    on = set(re.findall(r'"(\w+)"', match.group(2) or "")) if match else set()
    on |= {t for trait in on for t in implied.get(trait, ())}
    return [(product, needs[product]) for product, package in PRODUCT.findall(manifest)
            if package == "Carlos" and needs.get(product) and needs[product] not in on]


def release_version():
    """The version in VERSION without its pre-release part (1.0.0 for 1.0.0-dev): the
    version the documentation's manifests name."""
    return open(os.path.join(ROOT, "VERSION")).read().strip().split("-")[0]


def tagged_clone(folder):
    """A clone of this checkout's HEAD in `folder`, tagged with `release_version()`:
    what an application fetches by URL. Returns its file:// URL and the version."""
    version = release_version()
    clone = os.path.join(folder, "Carlos")
    if subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                      capture_output=True, text=True).stdout.strip():
        print("note: the tree has uncommitted changes; the applications build against HEAD")
    subprocess.run(["git", "clone", "--quiet", ROOT, clone], check=True)
    subprocess.run(["git", "-C", clone, "tag", version], check=True)
    return f"file://{clone}", version


def build_applications(apps):
    """Builds the applications of `apps` ((document, line, manifest, sources) each) as
    one package, against a tagged clone of this checkout fetched by `file://` URL and
    version, with one executable target per application: each target takes its
    manifest's `.product` lines, the package takes every manifest's `.package` lines
    (the highest `from:` where two differ, every trait any of them turns on). One
    package, because SwiftPM removes from a scratch folder the checkouts that the
    package it builds does not use. Checked here for each manifest on its own: that it
    declares the packages its products name and turns on the trait of every Carlos
    product it uses. Then the CarlosHummingbird README's server is run and asked twice,
    as its README does. Returns the number of applications that fail."""
    failed = 0
    umbrellas = umbrella_products()
    packages, targets, traits = {}, [], set()
    for index, (name, line, manifest, sources) in enumerate(apps):
        declared = {identity(location): line_ for line_, location in PACKAGE_LINE.findall(manifest)}
        products = PRODUCT.findall(manifest)
        missing = sorted({package for _, package in products if package.lower() not in declared})
        if missing:
            print(f"✘ {name}:{line}: products of {', '.join(missing)}, which no `.package` line declares")
            failed += 1
            continue
        for product, trait in missing_traits(manifest):
            print(f"✘ {name}:{line}: uses {product} without the trait {trait}")
            failed += 1
        carlos = CARLOS_LINE.search(manifest)
        if not carlos:
            print(f"✘ {name}:{line}: its Carlos line is not `.package(url: \"{CARLOS_URL}\", from: …, traits: […])`")
            failed += 1
            continue
        if carlos.group(1) != release_version():
            print(f"✘ {name}:{line}: depends on Carlos from {carlos.group(1)}, not {release_version()} (VERSION)")
            failed += 1
        traits |= set(re.findall(r'"(\w+)"', carlos.group(2) or ""))
        for key, line_ in declared.items():
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
            dependencies = [f'.product(name: "{product}", package: "{package}")'
                            for product, package in products]
            targets.append((f"{target}{index}", dependencies, code, name, line))
    shared = os.environ.get("INTEGRATIONS_SCRATCH")
    scratch = os.path.join(ROOT, shared or ".build-integrations")
    with tempfile.TemporaryDirectory() as folder:
        url, version = tagged_clone(folder)
        on = ", ".join(f'"{trait}"' for trait in sorted(traits))
        packages["carlos"] = f'.package(url: "{url}", from: "{version}", traits: [{on}])'
        manifest = "\n".join(
            ["// swift-tools-version: 6.1", "import PackageDescription", "",
             "let package = Package(", '  name: "ReadmeApplications",', "  platforms: [.macOS(.v15)],",
             "  dependencies: ["]
            + [f"    {line_}," for line_ in packages.values()]
            + ["  ],", "  targets: ["]
            + [f'    .executableTarget(name: "{target}", dependencies: [{", ".join(deps)}]),'
               for target, deps, _, _, _ in targets]
            + ["  ]", ")", ""])
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
            print(f"✘ the READMEs' applications do not build against {url} {version} ({seconds:.0f} s):")
            print(manifest)
            print(result.stdout[-8000:] + result.stderr[-8000:])
            return failed + len(targets)
        for target, _, _, name, line in targets:
            print(f"✔ {name}:{line}: its application builds (as target {target})")
        print(f"the READMEs' applications built against {url} {version} in {seconds:.0f} s")
        server = [target for target, _, _, name, _ in targets
                  if name == "Integrations/CarlosHummingbird/README.md" and target.startswith("MyServer")]
        if server:
            failed += run_server(os.path.join(scratch, "debug", server[0]), folder)
    return failed


def run_server(binary, home):
    """Runs the CarlosHummingbird README's server and counts two visits, as the README
    shows: 1, then 2. Returns 1 when it does not answer so."""
    environment = dict(os.environ, HOME=home, XDG_CACHE_HOME=os.path.join(home, ".cache"))
    process = subprocess.Popen([binary], env=environment, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        answers, deadline = [], time.monotonic() + 30
        while len(answers) < 2 and time.monotonic() < deadline:
            result = subprocess.run(["curl", "-s", "--max-time", "5", "-X", "PUT",
                                     "http://127.0.0.1:8080/visits/home"], capture_output=True, text=True)
            if result.returncode == 0:
                answers.append(result.stdout.strip())
            else:
                time.sleep(0.5)
    finally:
        process.terminate()
        process.wait(timeout=10)
    if answers != ["1", "2"]:
        print(f"✘ the CarlosHummingbird README's server answered {answers}, not ['1', '2']")
        return 1
    print("✔ the CarlosHummingbird README's server runs: two visits counted 1, 2")
    return 0


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
