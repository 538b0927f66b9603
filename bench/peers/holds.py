#!/usr/bin/env python3
"""Stretches of a thread's samples spent inside one page fault, from `perf script -F
comm,tid,time,ip,sym` of a `perf record -F <hz> -g` run (bench/peers/holds.sh):

    perf script -i perf.data -F comm,tid,time,ip,sym | bench/peers/holds.py --min-ms 3

A stretch is a run of samples of one thread, each with a page-fault frame in its stack and
each within --gap-ms of the one before (the thread stayed on a CPU in the fault). Prints per
thread: samples, samples in faults, stretches at least --min-ms long, the longest ones with the
frames most of their samples share, and the longest gaps between samples (off a CPU).
"""
import argparse
import collections
import sys


def read_samples(lines):
    sample = None
    for line in lines:
        if not line.strip():
            if sample:
                yield sample
            sample = None
            continue
        if line[0] not in " \t":
            head = line.split()
            # "comm tid time:" (a comm with spaces keeps its last three fields apart)
            sample = (" ".join(head[:-2]), head[-2], float(head[-1].rstrip(":")), [])
        elif sample is not None:
            parts = line.strip().split(None, 1)
            sample[3].append(parts[1] if len(parts) > 1 else parts[0])
    if sample:
        yield sample


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--min-ms", type=float, default=3.0)
    ap.add_argument("--gap-ms", type=float, default=1.5)
    ap.add_argument("--show", type=int, default=8)
    args = ap.parse_args()
    threads = collections.defaultdict(list)
    for comm, tid, t, frames in read_samples(sys.stdin):
        threads[(comm, tid)].append((t, frames))
    for (comm, tid), samples in sorted(threads.items(), key=lambda kv: -len(kv[1])):
        if len(samples) < 50:
            continue
        samples.sort(key=lambda s: s[0])
        runs, run = [], []
        in_faults = 0
        for t, frames in samples:
            fault = any("page_fault" in f for f in frames)
            in_faults += fault
            if fault and run and t - run[-1][0] <= args.gap_ms / 1000:
                run.append((t, frames))
                continue
            if run:
                runs.append(run)
            run = [(t, frames)] if fault else []
        if run:
            runs.append(run)
        long_runs = [r for r in runs if (r[-1][0] - r[0][0]) * 1000 >= args.min_ms]
        print(f"{comm}[{tid}]: {len(samples)} samples, {in_faults} in page faults, "
              f"{len(long_runs)} stretches of {args.min_ms:g} ms or more in one fault")
        for r in sorted(long_runs, key=lambda r: r[0][0] - r[-1][0])[:args.show]:
            common = collections.Counter()
            for _, frames in r:
                for f in set(frames[:10]):
                    common[f] += 1
            # Leaf first, in the order of a sample from the middle of the stretch.
            middle = r[len(r) // 2][1][:10]
            top = " <- ".join(f.split("(")[0] for f in middle if common[f] * 2 >= len(r))
            print(f"  {(r[-1][0] - r[0][0]) * 1000:6.1f} ms at {r[0][0]:.3f}: {top}")
        gaps = sorted((samples[i + 1][0] - samples[i][0], samples[i][0])
                      for i in range(len(samples) - 1))[-5:]
        print("  longest gaps between samples (off a CPU): " +
              ", ".join(f"{g * 1000:.1f} ms" for g, _ in reversed(gaps)))


if __name__ == "__main__":
    main()
