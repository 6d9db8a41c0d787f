#!/usr/bin/env python3
"""Checks that each package trait pulls only what its integration needs.

For the core alone and for each trait of the root manifest, it resolves a throwaway
application that depends on this checkout with only that trait on and uses the
trait's products, and prints the packages it pulls (`swift package
show-dependencies`). The core alone must pull none, and `HTTPCaching` none. Each
integration exists for one client or framework, its *signature* dependency (below):
an application that turns on one trait must not get another trait's signature
dependency, unless it arrives through the framework the trait itself is built on
(Vapor brings async-http-client, for one), which is printed as allowed.

    Integrations/Scripts/check-dependencies.py [--build-lowest]

It builds an application that uses CarlosPostgres without its trait: the build must
fail with an error that names the trait. Then it resolves an application with every trait on and each dependency the root
manifest takes with `from:` pinned to that lowest version (`exact:`): the lowest
versions the manifest allows must resolve together (swift-nio 2.101.2, say, while the
newest is 2.101.3). With `--build-lowest` it builds that application instead, in
INTEGRATIONS_SCRATCH when set.

Exits non-zero on a violation or when an application cannot be resolved.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MANIFEST = open(os.path.join(ROOT, "Package.swift")).read()
_spec = importlib.util.spec_from_file_location("snippets", os.path.join(ROOT, "Scripts", "check-snippets.py"))
SNIPPETS = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(SNIPPETS)
SIGNATURES = {
    "Postgres": {"postgres-nio"},
    "HTTP": {"async-http-client"},
    "Observability": {"swift-distributed-tracing"},
    # swift-crypto also arrives with postgres-nio and Vapor, so it marks no trait.
    "Crypto": set(),
    "NIO": set(),
    "Hummingbird": {"hummingbird"},
    "Vapor": {"vapor"},
    "HTTPCaching": set(),
}
# What an application that turns on no trait, or only these, may pull: nothing.
DEPENDENCY_FREE = {None, "HTTPCaching"}


def traits():
    return re.findall(r'\.trait\(\s*name: "(\w+)"', MANIFEST)


def products(trait):
    """The root's library products that need `trait` (the core's when it is None), as
    Scripts/check-snippets.py reads them from the manifest."""
    needs, _ = SNIPPETS.product_traits()
    return [product for product, needed in needs.items() if needed == trait]


def application(folder, name, dependency, products_used, imports=None):
    app = os.path.join(folder, name)
    os.makedirs(os.path.join(app, "Sources", name))
    uses = ", ".join(f'.product(name: "{p}", package: "Carlos")' for p in products_used)
    with open(os.path.join(app, "Package.swift"), "w") as f:
        f.write("\n".join([
            "// swift-tools-version: 6.1", "import PackageDescription", "",
            "let package = Package(",
            f'  name: "{name}",', "  platforms: [.macOS(.v15)],",
            "  dependencies: [", *[f"    {line}," for line in dependency], "  ],",
            f'  targets: [.executableTarget(name: "{name}", dependencies: [{uses}])]',
            ")", ""]))
    with open(os.path.join(app, "Sources", name, "main.swift"), "w") as f:
        f.write("".join(f"import {module}\n" for module in (imports or products_used)))
    return app


def closure(node):
    found = set()
    for child in node.get("dependencies", []):
        found.add(child["identity"])
        found |= closure(child)
    return found


def check_trait(folder, trait):
    """The packages an application with only `trait` on pulls, and the violations."""
    on = f', traits: ["{trait}"]' if trait else ""
    label = trait or "core"
    app = application(folder, f"Only{label}", [f'.package(name: "Carlos", path: "{ROOT}"{on})'],
                      products(trait))
    result = subprocess.run(["swift", "package", "--package-path", app, "show-dependencies",
                             "--format", "json"], capture_output=True, text=True)
    if result.returncode != 0:
        return None, [f"{label}: could not resolve:\n{result.stderr[-3000:]}"]
    tree = json.loads(result.stdout[result.stdout.index("{"):])
    carlos = next(child for child in tree["dependencies"] if child["identity"] != "")
    everything = closure(carlos)
    direct = {child["identity"] for child in carlos.get("dependencies", [])}
    print(f"{label} ({', '.join(products(trait))}): {len(everything)} packages"
          + (f": {', '.join(sorted(everything))}" if everything else ""))
    failures = []
    if trait in DEPENDENCY_FREE and everything:
        failures.append(f"{label} pulls {', '.join(sorted(everything))}; it must pull nothing")
    for other, signature in SIGNATURES.items():
        if other == trait:
            continue
        for identity in sorted(signature & everything):
            if identity not in direct and identity not in SIGNATURES.get(trait, set()):
                print(f"  allowed: {identity} ({other}'s) comes with {label}'s own framework")
            else:
                failures.append(f"{label} pulls {identity}, the dependency of {other}")
    return everything, failures


def check_missing_trait(folder):
    """Builds an application that uses `PostgresCacheLevel` without the trait Postgres:
    the build must fail with an error that names the trait."""
    app = application(folder, "MissingTrait", [f'.package(name: "Carlos", path: "{ROOT}")'],
                      ["CarlosPostgres"])
    with open(os.path.join(app, "Sources", "MissingTrait", "main.swift"), "a") as f:
        f.write("let level: PostgresCacheLevel<String>? = nil\nprint(level as Any)\n")
    result = subprocess.run(["swift", "build", "--package-path", app], capture_output=True, text=True)
    wanted = 'is built only with the package trait "Postgres"'
    if result.returncode == 0 or wanted not in result.stdout + result.stderr:
        print(result.stdout[-3000:] + result.stderr[-3000:])
        return "CarlosPostgres used without its trait does not fail with an error naming the trait"
    print(f"CarlosPostgres used without its trait: the build fails, 'PostgresCacheLevel' "
          f"is unavailable: CarlosPostgres {wanted}")
    return None


def version_key(version):
    return tuple(int(part) for part in version.split("."))


def check_lowest(folder, build):
    """Resolves (and with `build`, builds) an application on every trait's products with
    each dependency pinned to the lowest version the root manifest allows."""
    lowest = dict(re.findall(r'\.package\(url: "([^"]+)", from: "([^"]+)"\)', MANIFEST))
    every = [trait for trait in traits() if trait != "HTTPCaching"]
    used = [product for trait in every for product in products(trait)]
    on = ", ".join(f'"{trait}"' for trait in every)
    dependency = [f'.package(name: "Carlos", path: "{ROOT}", traits: [{on}])']
    dependency += [f'.package(url: "{url}", exact: "{version}")' for url, version in sorted(lowest.items())]
    # A product that gathers several modules (CarlosObservability) has no module of its name.
    modules = set(re.findall(r'\.target\(\s*name: "(\w+)"', MANIFEST))
    app = application(folder, "LowestVersions", dependency, used,
                      imports=[product for product in used if product in modules])
    pins = ", ".join(f"{url.split('/')[-1].removesuffix('.git')} {version}"
                     for url, version in sorted(lowest.items()))
    start = time.monotonic()
    command = ["swift", "build" if build else "package", "--package-path", app]
    if build and os.environ.get("INTEGRATIONS_SCRATCH"):
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
    with tempfile.TemporaryDirectory() as folder:
        for trait in [None, *traits()]:
            _, found = check_trait(folder, trait)
            failures += found
        if not failures:
            print("every trait pulls only what it needs; the core pulls nothing")
            for failure in [check_missing_trait(folder),
                            check_lowest(folder, build="--build-lowest" in sys.argv)]:
                if failure:
                    failures.append(failure)
    for failure in failures:
        print(f"✘ {failure}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
