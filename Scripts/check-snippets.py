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
checkout would) is also built as that application: the manifest goes into a
throwaway folder, its `../Carlos` paths replaced by this checkout's real path and its
`package: "Carlos"` by the identity SwiftPM gives this checkout (its folder's name);
each executable target gets the README's snippet that starts with
`// Sources/<Target>/main.swift`, or a main.swift importing every product the
manifest names; then `swift build` builds it, in INTEGRATIONS_SCRATCH when set (the
packages' modules are already built there), else in the named package's `.build`.
`--no-apps` skips these builds.

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


def build_application(name, line, manifest, sources):
    """Builds the application of the manifest at `name`:`line`; False when it fails."""
    identity = os.path.basename(ROOT).lower()
    local = CHECKOUT_PATH.sub(lambda m: f'.package(path: "{ROOT}{m.group(1)}")', manifest)
    local = local.replace('package: "Carlos")', f'package: "{identity}")')
    app_name = re.search(r'Package\(\s*name: "([^"]+)"', manifest).group(1)
    shared = os.environ.get("INTEGRATIONS_SCRATCH")
    if shared:
        scratch = os.path.join(ROOT, shared)
    else:
        first = CHECKOUT_PATH.search(manifest.split(".package(path: \"../Carlos\")")[-1])
        scratch = os.path.join(ROOT + (first.group(1) if first else ""), ".build")
    with tempfile.TemporaryDirectory() as folder:
        app = os.path.join(folder, app_name)
        os.makedirs(app)
        with open(os.path.join(app, "Package.swift"), "w") as f:
            f.write(local)
        products = re.findall(r'\.product\(name: "(\w+)"', manifest)
        for target in re.findall(r'\.executableTarget\(\s*name: "(\w+)"', manifest):
            path = f"Sources/{target}/main.swift"
            code = sources.get(path, "".join(f"import {p}\n" for p in products))
            os.makedirs(os.path.join(app, "Sources", target))
            with open(os.path.join(app, path), "w") as f:
                f.write(code)
        start = time.monotonic()
        result = subprocess.run(["swift", "build", "--package-path", app, "--scratch-path", scratch],
                                capture_output=True, text=True)
        seconds = time.monotonic() - start
    if result.returncode != 0:
        print(f"✘ {name}:{line}: the application {app_name} does not build:")
        print(result.stdout[-5000:] + result.stderr[-5000:])
        return False
    print(f"✔ {name}:{line}: the application {app_name} builds ({seconds:.0f} s)")
    return True


def main():
    listing = "--list" in sys.argv
    total = failed = apps = apps_failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        for name in documents():
            for line, code in snippets(name):
                total += 1
                if listing:
                    print(f"==== {name}:{line}\n{code}")
                elif not check(name, line, code, scratch):
                    failed += 1
    if not listing and "--no-apps" not in sys.argv:
        for name in documents():
            for line, manifest, sources in applications(name):
                apps += 1
                if not build_application(name, line, manifest, sources):
                    apps_failed += 1
    if not listing:
        print(f"{total - failed} of {total} snippets compile; "
              f"{apps - apps_failed} of {apps} README applications build")
    sys.exit(1 if failed or apps_failed else 0)


if __name__ == "__main__":
    main()
