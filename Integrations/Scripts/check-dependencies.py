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

Exits non-zero on a violation or when a package cannot be resolved.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIGNATURES = {
    "Postgres": {"postgres-nio"},
    "HTTP": {"async-http-client"},
    "Observability": {"swift-distributed-tracing"},
    "NIO": set(),
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
    for failure in failures:
        print(f"✘ {failure}")
    if failures:
        sys.exit(1)
    print("every package pulls only what it needs")


if __name__ == "__main__":
    main()
