#!/usr/bin/env python3
"""Checks that each Integrations package pulls only what it needs.

Each package exists for one client or framework, its *signature* dependency
(below). A user who adds one package must not get another package's signature
dependency: this script fails when a package's resolved dependency graph contains
another package's signature dependency, unless it arrives through a framework the
package itself is built on (Vapor brings async-http-client, for one), which is
printed as allowed. Packages listed in EXAMPLES (programs, not libraries) may depend
on everything. It prints each package's resolved dependencies.

    Integrations/Scripts/check-dependencies.py     # after the packages resolved

Then it resolves an application that depends on every library package here and pins
each dependency the manifests take with `from:` to that lowest version (`exact:`), in
a scratch folder of its own: the lowest versions the manifests allow must resolve
together (swift-nio 2.101.2, say, while the newest is 2.101.3). With `--build-lowest`
it builds that application instead (every package's library at those versions), in
INTEGRATIONS_SCRATCH when set.

Exits non-zero on a violation or when a package cannot be resolved.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIGNATURES = {
    "CarlosPostgres": {"postgres-nio"},
    "CarlosHTTP": {"async-http-client"},
    "CarlosObservability": {"swift-distributed-tracing"},
    "CarlosNIO": set(),
    # swift-crypto also arrives with postgres-nio and Vapor, so it marks no package.
    "CarlosCrypto": set(),
    "CarlosHummingbird": {"hummingbird"},
    "CarlosVapor": {"vapor"},
}
EXAMPLES = {"ServiceExample"}


def packages():
    """The packages' folders relative to Integrations/: each folder with a Package.swift
    (the folder's name is the package's identity)."""
    return [name for name in sorted(os.listdir(HERE))
            if os.path.isfile(os.path.join(HERE, name, "Package.swift"))]


def tree(path):
    result = subprocess.run(
        ["swift", "package", "--package-path", os.path.join(HERE, path),
         "show-dependencies", "--format", "json"],
        capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"✘ {path}: could not resolve its dependencies:\n{result.stderr}")
    return json.loads(result.stdout[result.stdout.index("{"):])


def closure(node):
    found = set()
    for child in node.get("dependencies", []):
        found.add(child["identity"])
        found |= closure(child)
    return found


def is_local(node):
    return not node.get("url", "").startswith("http")


def version_key(version):
    return tuple(int(part) for part in version.split("."))


def lowest_versions():
    """The lowest version each library package's manifest allows for each URL: the
    highest of their `from:` versions."""
    lowest = {}
    for path in packages():
        if path in EXAMPLES:
            continue
        manifest = open(os.path.join(HERE, path, "Package.swift")).read()
        for url, version in re.findall(r'\.package\(url: "([^"]+)", from: "([^"]+)"\)', manifest):
            if url not in lowest or version_key(version) > version_key(lowest[url]):
                lowest[url] = version
    return lowest


def check_lowest(build):
    """Resolves (and with `build`, builds) an application on every library package with
    each dependency pinned to the lowest version allowed."""
    libraries = [path for path in packages() if path not in EXAMPLES]
    lowest = lowest_versions()
    dependencies = [f'    .package(path: "{os.path.join(HERE, path)}"),' for path in libraries]
    dependencies += [f'    .package(url: "{url}", exact: "{version}"),'
                     for url, version in sorted(lowest.items())]
    products = []
    modules = []
    for path in libraries:
        manifest = open(os.path.join(HERE, path, "Package.swift")).read()
        for product in re.findall(r'\.library\(\s*name: "(\w+)"', manifest):
            products.append((product, path))
        modules += re.findall(r'\.target\(\s*name: "(\w+)"', manifest)
    manifest = "\n".join([
        "// swift-tools-version: 6.1",
        "import PackageDescription",
        "",
        "let package = Package(",
        '  name: "LowestVersions",',
        "  platforms: [.macOS(.v15)],",
        "  dependencies: [",
        *dependencies,
        "  ],",
        "  targets: [",
        '    .executableTarget(name: "LowestVersions", dependencies: [',
        *[f'      .product(name: "{product}", package: "{path}"),' for product, path in products],
        "    ])",
        "  ]",
        ")",
        ""])
    with tempfile.TemporaryDirectory() as folder:
        app = os.path.join(folder, "LowestVersions")
        os.makedirs(os.path.join(app, "Sources", "LowestVersions"))
        with open(os.path.join(app, "Package.swift"), "w") as f:
            f.write(manifest)
        with open(os.path.join(app, "Sources", "LowestVersions", "main.swift"), "w") as f:
            # A product named after its package may gather several modules.
            f.write("".join(f"import {product}\n" for product, _ in products
                            if product in modules))
        pins = ", ".join(f"{url.split('/')[-1].removesuffix('.git')} {version}"
                         for url, version in sorted(lowest.items()))
        start = time.monotonic()
        command = ["swift", "build" if build else "package", "--package-path", app]
        if build and os.environ.get("INTEGRATIONS_SCRATCH"):
            # Reuses the modules that do not depend on a pinned package; the scratch
            # folder's checkouts are left at the lowest versions.
            command += ["--scratch-path", os.path.abspath(os.environ["INTEGRATIONS_SCRATCH"])]
        if not build:
            command.append("resolve")
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            print(result.stdout[-5000:] + result.stderr[-5000:])
            return f"the lowest versions allowed do not {'build' if build else 'resolve'} together ({pins})"
        print(f"lowest versions {'built' if build else 'resolved'} together "
              f"in {time.monotonic() - start:.0f} s: {pins}")
    return None


def main():
    failures = []
    for path in packages():
        name = os.path.basename(path)
        root = tree(path)
        everything = closure(root)
        third_party = set()
        for child in root.get("dependencies", []):
            if not is_local(child):
                third_party |= closure(child)
        print(f"{name}: {len(everything)} packages: {', '.join(sorted(everything))}")
        if name in EXAMPLES:
            continue
        for other, signature in SIGNATURES.items():
            if other == name:
                continue
            for identity in sorted(signature & everything):
                if identity in third_party and identity not in SIGNATURES.get(name, set()):
                    print(f"  allowed: {identity} ({other}'s) comes with {name}'s own framework")
                else:
                    failures.append(f"{name} pulls {identity}, the dependency of {other}")
    if failures:
        for failure in failures:
            print(f"✘ {failure}")
        sys.exit(1)
    print("every package pulls only what it needs")
    failure = check_lowest(build="--build-lowest" in sys.argv)
    if failure:
        print(f"✘ {failure}")
        sys.exit(1)


if __name__ == "__main__":
    main()
