#!/usr/bin/env python3
"""Measures the mapped-file allocation choices of the store (docs/operations/disk.md).

1. fdatasync after a 4 KiB append into blocks that are (a) fallocated but never written,
   (b) already written once (a "warmed" file), (c) sparse (ftruncate only) - what each
   costs SYNC_FLUSH per group commit.
2. Creating a ConsumeQueue-sized and an IndexFile-sized file: fallocate vs sparse vs
   fallocate + pre-write - the time, and the blocks the file takes at once.

Usage: scripts/measure-prealloc.py [DIR] (default: a fresh directory under the cwd; use
the store's disk). ROUNDS=N appends per case (default 400).
"""
import os
import statistics
import sys
import tempfile
import time

ROUNDS = int(os.environ.get("ROUNDS", "400"))
PAGE = 4096


def fdatasync_cost(path, mode):
    size = ROUNDS * PAGE + PAGE
    fd = os.open(path, os.O_CREAT | os.O_RDWR | os.O_TRUNC, 0o644)
    try:
        if mode == "fallocated":
            os.posix_fallocate(fd, 0, size)
        elif mode == "written":
            os.posix_fallocate(fd, 0, size)
            os.pwrite(fd, b"\0" * size, 0)
        else:  # sparse
            os.ftruncate(fd, size)
        os.fsync(fd)
        data = b"x" * PAGE
        samples = []
        for i in range(ROUNDS):
            os.pwrite(fd, data, i * PAGE)
            t = time.perf_counter()
            os.fdatasync(fd)
            samples.append((time.perf_counter() - t) * 1e6)
        return statistics.median(samples), sorted(samples)[int(len(samples) * 0.99) - 1]
    finally:
        os.close(fd)
        os.unlink(path)


def create_cost(path, size, mode):
    t = time.perf_counter()
    fd = os.open(path, os.O_CREAT | os.O_RDWR | os.O_TRUNC, 0o644)
    if mode == "sparse":
        os.ftruncate(fd, size)
    else:
        os.posix_fallocate(fd, 0, size)
        if mode == "fallocate+write":
            chunk = b"\0" * (1 << 20)
            for pos in range(0, size, len(chunk)):
                os.pwrite(fd, chunk[: min(len(chunk), size - pos)], pos)
    os.fsync(fd)
    elapsed_ms = (time.perf_counter() - t) * 1e3
    blocks = os.fstat(fd).st_blocks * 512
    os.close(fd)
    os.unlink(path)
    return elapsed_ms, blocks


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else "."
    d = tempfile.mkdtemp(prefix="prealloc-", dir=base)
    try:
        print(f"directory {d}, {ROUNDS} appends of 4 KiB per case")
        for mode in ("fallocated", "written", "sparse"):
            p50, p99 = fdatasync_cost(os.path.join(d, "f"), mode)
            print(f"fdatasync after a 4 KiB append into {mode:10s} blocks: "
                  f"p50 {p50:8.0f} us  p99 {p99:8.0f} us")
        sizes = {"ConsumeQueue (300000 x 20 B)": 300000 * 20,
                 "IndexFile (default, 420 MB)": 40 + 5000000 * 4 + 20000000 * 20}
        for name, size in sizes.items():
            for mode in ("sparse", "fallocate", "fallocate+write"):
                ms, blocks = create_cost(os.path.join(d, "c"), size, mode)
                print(f"create {name:30s} {mode:16s}: {ms:8.1f} ms, {blocks / 2**20:7.1f} MiB on disk")
    finally:
        os.rmdir(d)


if __name__ == "__main__":
    main()
