#!/usr/bin/env python3
"""Benchmarks of the PostgreSQL store: `shop` against psql doing the same durable work.

Starts its own throwaway server (trust auth, a Unix socket in `work`, fsync and
synchronous_commit on as shipped) and stops it at the end. `Benchmarks/run` calls figures();
run alone, it prints the rows:

    Benchmarks/postgresql.py SHOP_BINARY [--quick]

SHOP_BINARY is the release build (`swift build -c release`), which loads libpq (libpq5) for a
postgres:// store.
"""
import glob
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def server_available():
    """Whether a throwaway server can be started here."""
    return bool(glob.glob("/usr/lib/postgresql/*/bin/initdb"))


def _server_binaries():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda path: int(path.split("/")[-3]))
    if not found:
        sys.exit("no PostgreSQL server binaries: apt-get install postgresql")
    return os.path.dirname(found[-1])


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class _Server:
    """initdb into a private folder, pg_ctl start; as the postgres user when run as root."""

    def __init__(self, work):
        self.bin = _server_binaries()
        self.folder = tempfile.mkdtemp(prefix="pg-", dir=work)
        self.data = os.path.join(self.folder, "data")
        self.port = _free_port()
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            shutil.chown(self.folder, "postgres")
            os.chmod(self.folder, 0o755)
        self._run([f"{self.bin}/initdb", "-D", self.data, "--auth=trust", "-U", "postgres"])
        options = f"-k {self.folder} -p {self.port} -c listen_addresses=127.0.0.1"
        # close_fds (the default) keeps our pipes out of the postmaster.
        self._run([f"{self.bin}/pg_ctl", "-D", self.data, "-l", os.path.join(self.folder, "log"),
                   "-o", options, "-w", "start"])

    def _run(self, argv):
        subprocess.run(self.as_user + argv, check=True, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def uri(self, database):
        return f"postgresql:///{database}?host={self.folder}&port={self.port}&user=postgres"

    def psql(self, database, *arguments, stdout=subprocess.DEVNULL):
        return subprocess.run(
            [f"{self.bin}/psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", self.uri(database),
             *arguments], check=True, stdin=subprocess.DEVNULL, stdout=stdout)

    def stop(self):
        self._run([f"{self.bin}/pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop"])
        shutil.rmtree(self.folder, ignore_errors=True)


def _time(argv, env):
    start = time.perf_counter()
    result = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"benchmark command failed ({result.returncode}): {' '.join(argv)}")
    return elapsed


def _alternate(a, b, runs, before=None):
    times_a, times_b = [], []
    for _ in range(runs):
        if before:
            before()
        times_a.append(a())
        if before:
            before()
        times_b.append(b())
    return statistics.median(times_a), statistics.median(times_b)


_SCHEMA = ("(number bigint PRIMARY KEY, placed_at timestamptz NOT NULL, items jsonb NOT NULL, "
           "total bigint NOT NULL, payable bigint NOT NULL)")
_SHAPED = _SCHEMA[:-1] + ", ref text UNIQUE, voids bigint UNIQUE)"


def figures(shop_binary: str, work: str, quick: bool) -> list[tuple[str, str, str, bool]]:
    """(figure, measured, goal, met) rows: place ÷ psql insert, batch ÷ psql \\copy."""
    os.makedirs(work, exist_ok=True)
    small_runs = 40 if quick else 200
    big_runs = 2 if quick else 5
    batch_orders = 100_000
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work, "LC_ALL": "C"}
    server = _Server(work)
    rows = []
    try:
        server.psql("postgres", "-c", "CREATE DATABASE bench")
        uri = server.uri("bench")
        server.psql("bench", "-c", f"CREATE TABLE peer {_SCHEMA}")
        # The same rows into a table of shop's shape: its nullable ref and voids, each with
        # its unique index, which the server fills for every row (NULLs too).
        server.psql("bench", "-c", f"CREATE TABLE peer_shaped {_SHAPED}")

        # 1. place ÷ psql insert: one order, committed with synchronous_commit on, each a new
        # process and a new connection over the same socket.
        def place():
            return _time([shop_binary, "place", "--orders", uri, "pen=2", "lamp=1"], env)

        items = ('[{"sku": "pen", "quantity": 2, "price": 30}, '
                 '{"sku": "lamp", "quantity": 1, "price": 190}]')
        insert = ("INSERT INTO peer SELECT coalesce(max(number), 1000) + 1, now(), "
                  f"'{items}', 250, 225 FROM peer")

        def peer_insert():
            return _time([f"{server.bin}/psql", "-X", "-q", "-d", uri, "-c", insert], env)

        place()  # creates the table, so every timed run does the same work
        shop_place, psql_insert = _alternate(place, peer_insert, small_runs)
        ratio = shop_place / psql_insert
        rows.append((f"`shop place` into PostgreSQL ÷ `psql -c \"insert …\"` "
                     f"({shop_place * 1000:.2f} ms ÷ {psql_insert * 1000:.2f} ms)",
                     f"{ratio:.2f}", "≤ 1.1", ratio <= 1.1))

        # 2. a batch ÷ psql \copy of the very rows that batch saved.
        catalog = os.path.join(work, "pg-catalog.csv")
        batch = os.path.join(work, "pg-batch.txt")
        rows_file = os.path.join(work, "pg-rows.tsv")
        generate = os.path.join(HERE, "generate.py")
        subprocess.run([sys.executable, generate, "catalog", catalog, "1000"], check=True)
        subprocess.run([sys.executable, generate, "batch", batch, str(batch_orders)], check=True)

        def empty_both():
            server.psql("bench", "-c", "TRUNCATE shop_orders, peer, peer_shaped")

        def shop_batch():
            return _time([shop_binary, "batch", "-q", "--catalog", catalog, "--orders", uri,
                          batch], env)

        empty_both()
        shop_batch()
        server.psql("bench", "-c", f"\\copy (SELECT number, placed_at, items, total, payable FROM shop_orders "
                                   f"ORDER BY number) "
                                   f"TO '{rows_file}'")

        def copy():
            return _time([f"{server.bin}/psql", "-X", "-q", "-d", uri, "-c",
                          f"\\copy peer FROM '{rows_file}'"], env)

        def copy_shaped():
            return _time([f"{server.bin}/psql", "-X", "-q", "-d", uri, "-c",
                          f"\\copy peer_shaped (number, placed_at, items, total, payable) "
                          f"FROM '{rows_file}'"], env)

        times = {"shop": [], "copy": [], "shaped": []}
        for _ in range(big_runs):  # in turns, each into empty tables
            for name, run in (("shop", shop_batch), ("copy", copy), ("shaped", copy_shaped)):
                empty_both()
                times[name].append(run())
        shop_time, copy_time, shaped_time = (statistics.median(times[name])
                                             for name in ("shop", "copy", "shaped"))
        ratio = shop_time / copy_time
        rows.append((f"`shop batch` of {batch_orders:,} orders into PostgreSQL ÷ `psql \\copy` of "
                     f"the same rows ({shop_time:.2f} s ÷ {copy_time:.2f} s)",
                     f"{ratio:.2f}", "≤ 1", ratio <= 1))
        shaped = shop_time / shaped_time
        rows.append((f"the same ÷ `psql \\copy` into a table of `shop`'s shape (`ref` and "
                     f"`voids` with their unique indexes; {shop_time:.2f} s ÷ {shaped_time:.2f} s)",
                     f"{shaped:.2f}", "≤ 1", shaped <= 1))
    finally:
        server.stop()
    return rows


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    work = os.path.join(HERE, "work")
    for figure, measured, goal, met in figures(os.path.abspath(sys.argv[1]), work,
                                               "--quick" in sys.argv):
        print(f"| {figure} | {measured} | {goal} | {'yes' if met else '**no**'} |")
