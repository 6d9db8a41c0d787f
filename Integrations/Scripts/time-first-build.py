#!/usr/bin/env python3
"""Times the first build of an Integrations README's application, as a new user meets it.

Writes the README's manifest and its `// Sources/<Target>/main.swift` snippet into a
fresh folder, with the manifest's Carlos URL pointed at a tagged clone of this
checkout's HEAD (`file://`, tagged 1.0.0 for a VERSION of 1.0.0-dev), runs
`swift build` there from an empty `.build`,
and prints the wall-clock and CPU (user + system) time with the load average before
and after. Run it on an idle machine:

    Integrations/Scripts/time-first-build.py CarlosHummingbird
    Integrations/Scripts/time-first-build.py CarlosVapor
"""
import importlib.util
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("snippets", os.path.join(ROOT, "Scripts", "check-snippets.py"))
snippets = importlib.util.module_from_spec(spec)
spec.loader.exec_module(snippets)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    document = f"Integrations/{sys.argv[1]}/README.md"
    apps = snippets.applications(document)
    if not apps:
        sys.exit(f"{document} has no application manifest that depends on Carlos by URL")
    line, manifest, sources = apps[0]
    name = re.search(r'name: "(\w+)"', manifest).group(1)
    with tempfile.TemporaryDirectory() as folder:
        url, _ = snippets.tagged_clone(folder)
        manifest = manifest.replace(snippets.CARLOS_URL, url)
        app = os.path.join(folder, name)
        os.makedirs(app)
        with open(os.path.join(app, "Package.swift"), "w") as f:
            f.write(manifest)
        for path, code in sources.items():
            os.makedirs(os.path.join(app, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(app, path), "w") as f:
                f.write(code)
        print(f"{document}:{line}: `swift build` of {name}, load average {os.getloadavg()[0]:.1f} at the start",
              flush=True)
        start = time.monotonic()
        result = subprocess.run(["swift", "build"], cwd=app)
        seconds = time.monotonic() - start
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"✘ {name} does not build ({seconds:.0f} s)")
    cpu = usage.ru_utime + usage.ru_stime
    print(f"✔ {name}: first build {int(seconds // 60)} min {int(seconds % 60)} s, "
          f"{int(cpu // 60)} min {int(cpu % 60)} s of CPU, load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
