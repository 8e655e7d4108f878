#!/usr/bin/env python3
"""Writes benchmark data with a fixed seed: a catalog of N SKUs and a batch of M orders."""
import random
import sys


def main() -> None:
    kind, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = random.Random(1001)
    skus = [f"sku-{i:04d}" for i in range(1000)]
    with open(path, "w") as out:
        if kind == "catalog":
            out.write("sku,price\n")
            for i in range(count):
                out.write(f"sku-{i:04d},{rng.randint(1, 500)}\n")
        elif kind == "batch":
            lines = []
            for _ in range(count):
                items = rng.sample(skus, rng.randint(1, 4))
                lines.append(" ".join(f"{s}={rng.randint(1, 9)}" for s in items))
                if len(lines) == 10000:
                    out.write("\n".join(lines) + "\n")
                    lines = []
            if lines:
                out.write("\n".join(lines) + "\n")
        else:
            sys.exit(f"unknown kind {kind}")


main()
