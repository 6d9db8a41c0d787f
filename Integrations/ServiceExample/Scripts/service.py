"""What the load scripts share: the service binary, its processes, plain requests."""
import http.client
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("CARLOS_SERVICE_BINARY") or os.path.join(
    HERE, ".build", "release", "carlos-service-example")
processes = []


def build():
    """Builds the service in release mode, unless CARLOS_SERVICE_BINARY names one."""
    if not os.environ.get("CARLOS_SERVICE_BINARY"):
        print("building the service (release)", file=sys.stderr, flush=True)
        subprocess.run(["swift", "build", "-c", "release", "--package-path", HERE,
                        "--product", "carlos-service-example"], check=True)


def database():
    """DATABASE_URL, or exits saying how to get one."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        sys.exit("DATABASE_URL is not set: run through Integrations/Scripts/with-postgres.sh")
    return url


def start(*arguments, environment=None):
    """Starts `carlos-service-example ARGUMENTS` and returns the port it listens on."""
    process = subprocess.Popen([BINARY, *arguments], stdout=subprocess.PIPE, text=True,
                               env={**os.environ, **(environment or {})})
    processes.append(process)
    line = process.stdout.readline()
    match = re.match(r"listening (\d+)", line)
    if not match:
        sys.exit(f"{arguments[0]} did not start: {line!r}")
    return int(match.group(1))


def stop(keep=0):
    """Stops every process started but the first `keep`."""
    for process in processes[keep:]:
        process.terminate()
    for process in processes[keep:]:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    del processes[keep:]


def request(port, method, path):
    """One request on a connection of its own: (status, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request(method, path)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


def served(upstream):
    """How many requests the upstream has answered."""
    return int(request(upstream, "GET", "/served")[1])


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(len(ordered) * p + 0.5) - 1))]


def to_ms(text):
    """Milliseconds of a wrk duration such as `1.25ms`."""
    value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
