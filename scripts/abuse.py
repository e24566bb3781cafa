#!/usr/bin/env python3
"""Abuse cases against `mathaloud serve`, each with the status it must get and how long the answer
took, while a probe (POST /v1/speech on fresh connections, every 20 ms) measures whether the server
still serves everyone else. Loopback only; every process and socket it opens is closed at the end.

Usage: scripts/abuse.py [MATHALOUD_BINARY] [--lines N] [--limit-ms MS]
  default binary .build/release/mathaloud (else .build/debug/mathaloud); --lines is the size of the
  slow-read batch (default 1,000,000); --limit-ms the answer time each case must meet (default 100).
Exit status 0 when every case got its status within the limit, the probe never failed, and the
server answered afterwards.
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Probe(threading.Thread):
    """POST /v1/speech every 20 ms on a new connection; keeps the worst latency and any failure."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.stop = threading.Event()
        self.worst = 0.0
        self.count = 0
        self.failures = []

    def run(self):
        body = b'{"tex":"x^2+1"}'
        while not self.stop.is_set():
            start = time.monotonic()
            try:
                status, _, _ = request(self.port, b"POST /v1/speech HTTP/1.1\r\nHost: p\r\nContent-Type: application/json\r\n"
                                       b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body, timeout=5)
                if status != 200:
                    self.failures.append(status)
            except Exception as e:  # noqa: BLE001 - any failure counts
                self.failures.append(str(e))
            self.worst = max(self.worst, time.monotonic() - start)
            self.count += 1
            self.stop.wait(0.02)


def read_response(sock, timeout=10):
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed before a response")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(b":")
        headers[k.strip().lower().decode()] = v.strip().decode()
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    return status, headers, rest[:length]


def request(port, raw, timeout=10):
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(raw)
        return read_response(s, timeout)


def post(path, body, content_type=b"application/json"):
    return (b"POST %s HTTP/1.1\r\nHost: a\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n"
            % (path, content_type, len(body)) + body)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?")
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--limit-ms", type=float, default=100)
    args = parser.parse_args()
    binary = args.binary or os.path.join(ROOT, ".build/release/mathaloud")
    if not os.access(binary, os.X_OK):
        binary = os.path.join(ROOT, ".build/debug/mathaloud")
    port = free_port()
    # The 10^5-deep formula is larger than the default formula limit (64 KiB, which answers 413); the
    # limit is raised here so that the parser's own depth limit is what answers it.
    server = subprocess.Popen([binary, "serve", "--port", str(port), "--log-format", "off", "--read-timeout", "2",
                               "--max-formula", "262144", "--max-connections", "4096"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    results = []
    ok = True
    try:
        for _ in range(200):
            try:
                request(port, b"GET /readyz HTTP/1.1\r\nHost: a\r\n\r\n", timeout=1)
                break
            except OSError:
                time.sleep(0.05)

        def case(name, expected, action, limit=args.limit_ms / 1000):
            nonlocal ok
            probe = Probe(port)
            probe.start()
            start = time.monotonic()
            try:
                got, detail = action()
            except Exception as e:  # noqa: BLE001
                got, detail = "exception", str(e)
            seconds = time.monotonic() - start
            time.sleep(0.1)
            probe.stop.set()
            probe.join()
            good = got == expected and (limit is None or seconds <= limit) and not probe.failures
            ok = ok and good
            results.append(good)
            timing = f"{seconds * 1000:8.1f} ms" if limit is not None else f"{seconds:8.1f} s "
            print(f"{'ok  ' if good else 'FAIL'} {name:<46} {str(got):<9} (want {expected}) {timing}  "
                  f"probe: {probe.count} requests, worst {probe.worst * 1000:.1f} ms, failures {len(probe.failures)}"
                  f"{'  ' + detail if detail else ''}", flush=True)

        def hundred_megabytes():
            with socket.create_connection(("127.0.0.1", port)) as s:
                s.sendall(b"POST /v1/speech HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
                          b"Content-Length: 104857600\r\n\r\n" + b"{" * 65536)
                status, _, body = read_response(s)
                return status, json.loads(body)["error"]["code"]
        case("100 MB body", 413, hundred_megabytes)

        def deep_tex():
            tex = "{" * 100_000 + "x" + "}" * 100_000
            status, _, body = request(port, post(b"/v1/speech", json.dumps({"tex": tex}).encode()))
            ids = [d["id"] for d in json.loads(body).get("diagnostics", [])]
            return status, ",".join(sorted(set(ids)))
        case("10^5 nested braces in TeX", 200, deep_tex)

        def deep_json():
            status, _, body = request(port, post(b"/v1/speech", b"[" * 100_000 + b"]" * 100_000))
            return status, json.loads(body)["error"]["code"]
        case("10^5 nested JSON arrays", 400, deep_json)

        def macro_bomb():
            tex = r"\def\a#1{#1#1}\def\b#1{\a{\a{\a{\a{#1}}}}}\b{\b{\b{\b{\b{\b{x}}}}}}"
            status, _, body = request(port, post(b"/v1/speech", json.dumps({"tex": tex}).encode()))
            o = json.loads(body)
            return status, ",".join(sorted({d["id"] for d in o.get("diagnostics", [])})) or o.get("error", {}).get("code", "")
        case("macro bomb (16^6 copies)", 200, macro_bomb)

        def invalid_utf8():
            status, _, body = request(port, post(b"/v1/speech", b'{"tex": "\xc3\x28\xff"}'))
            return status, json.loads(body)["error"]["code"]
        case("invalid UTF-8", 400, invalid_utf8)

        def header_flood():
            head = b"GET /healthz HTTP/1.1\r\nHost: a\r\n" + b"".join(b"X-F-%d: %s\r\n" % (i, b"a" * 100) for i in range(20_000))
            with socket.create_connection(("127.0.0.1", port)) as s:
                try:
                    s.sendall(head + b"\r\n")
                except OSError:
                    pass
                status, _, _ = read_response(s)
                return status, ""
        case("header flood (2 MB of headers)", 431, header_flood)

        idle = []

        def idle_connections():
            for _ in range(1000):
                idle.append(socket.create_connection(("127.0.0.1", port)))
            start = time.monotonic()
            status, _, _ = request(port, post(b"/v1/speech", b'{"tex":"y"}'))
            return status, f"answered {1000 * (time.monotonic() - start):.1f} ms after 1,000 idle connections opened"
        case("1,000 idle connections", 200, idle_connections, limit=None)
        for s in idle:
            s.close()

        def one_byte_per_second():
            raw = post(b"/v1/speech", b'{"tex":"x"}')
            with socket.create_connection(("127.0.0.1", port)) as s:
                start = time.monotonic()
                for byte in raw:
                    try:
                        s.sendall(bytes([byte]))
                    except OSError:
                        break
                    s.settimeout(1.0)
                    try:
                        if s.recv(1) == b"":
                            break
                    except socket.timeout:
                        continue
                    except OSError:
                        break
                return "cut off", f"after {time.monotonic() - start:.1f} s (read timeout 2 s), {raw.index(byte)} bytes sent"
        case("client sending 1 byte/s", "cut off", one_byte_per_second, limit=None)

        def slow_batch():
            rss_before = rss(server.pid)
            with socket.create_connection(("127.0.0.1", port)) as s:
                s.sendall(b"POST /v1/speech:batch HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-ndjson\r\n"
                          b"Transfer-Encoding: chunked\r\n\r\n")
                block = b"".join(b'{"id":%d,"tex":"x_{%d}+\\\\frac{1}{%d}"}\n' % (i, i % 1000, i % 7 + 2) for i in range(1000))
                for _ in range(args.lines // 1000):
                    s.sendall(b"%x\r\n" % len(block) + block + b"\r\n")
                s.sendall(b"0\r\n\r\n")
                sent = time.monotonic()
                s.settimeout(120)
                first = s.recv(4096)
                waited = time.monotonic() - sent
                status = int(first.split(b" ")[1])
                # Read slowly: 16 KiB every 100 ms for 3 s, then hang up.
                got = len(first)
                for _ in range(30):
                    time.sleep(0.1)
                    got += len(s.recv(16384))
                rss_after = rss(server.pid)
            return status, (f"{args.lines:,} lines; first byte {waited:.1f} s after the last line; read {got:,} bytes "
                            f"slowly then hung up; server RSS {rss_before} -> {rss_after} MiB")
        case(f"{args.lines:,}-line batch read slowly", 200, slow_batch, limit=None)

        status, _, _ = request(port, post(b"/v1/speech", b'{"tex":"x^2"}'))
        alive = status == 200
        print(f"{'ok  ' if alive else 'FAIL'} server still serving afterwards: {status}")
        ok = ok and alive
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
    print(f"abuse.py: {sum(results)}/{len(results)} cases passed; " + ("passed" if ok else "FAILED"))
    return 0 if ok else 1


def rss(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) // 1024
    return 0


if __name__ == "__main__":
    sys.exit(main())
