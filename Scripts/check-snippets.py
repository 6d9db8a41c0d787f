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

Exits non-zero, printing the compiler's errors, when a snippet does not compile or
draws a warning (such as an `await` on a call that does not wait).
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

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


def main():
    listing = "--list" in sys.argv
    total = failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        for name in documents():
            for line, code in snippets(name):
                total += 1
                if listing:
                    print(f"==== {name}:{line}\n{code}")
                elif not check(name, line, code, scratch):
                    failed += 1
    if not listing:
        print(f"{total - failed} of {total} snippets compile")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
