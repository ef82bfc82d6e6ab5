#!/usr/bin/env python3
"""What the pairs of piles can give on two threads: a replay of pile times through their order.

The kernel computes the even piles and the second thread the odd ones (see `HeapKernel` in
core/src/solve/heap/kernel.rs). Pile n needs the other thread's pile n - 3, so each thread has
one pile of slack: the kernel's pile 2j starts once its pile 2j - 2 is stored and the second
thread's pile 2j - 3 is taken; the second thread's pile 2j + 1 once its own pile 2j - 1 is done
and the kernel has stored pile 2j - 2. A pile that takes long holds the other thread up once
the slack is spent.

This draws pile times from a measured distribution and replays them through that order, with
`slack` piles of slack (1 is what the kernel does; more is what leaving the options of the
other thread's latest piles out of a pile, and settling them after, would give), the kernel's
own cost a pair (storing both values, ns), the second thread's, and a transfer between the
cores (ns). It prints the speed-up over one thread, which computes the same piles and the
kernel's stores one after the other.

It gives more than the runs do: 1.74x for 0.161 with one pile of slack and a transfer of 100 ns,
1.60x with 500, where runs with the cores close measure 1.55-1.57x (2^22 and 2^24). Timed in a
temporary build on 0.161 to 2^22, the kernel's stores and bookkeeping took about 150 ns a pair,
a waiting thread saw the other's value 190-470 ns after it was published, and the second
thread waited on 40% of its piles: what the replay leaves out (piles slower beside the other
thread, lines of the values moving between the cores) costs about a tenth more. What it is
for is the difference slack makes: read the columns against each other, not against a run.

The distribution (`BUCKETS`) was measured on the AMD EPYC VM (2026-11-30) with a temporary
timer around each pile's computing in `HeapKernel::compute_here`, one thread, piles 2^21 to
2^22: for each bucket of pile times, how many piles fell in it and their total time. It is
data, not a result of this script; the engine reads no clock per pile.

    python3 -I benches/pairs_model.py [--code 0.161|0.6] [--pairs N]
"""

import argparse
import bisect
import random

# (upper bound of the bucket in ns, piles, total ms)
BUCKETS = {
    # 0.161, after the partners were made in order of their counts (commit 0d72e4a)
    "0.161": [
        (512, 489382, 217), (1024, 1178570, 876), (2048, 409404, 497), (4096, 17943, 44),
        (8192, 886, 4), (16384, 142, 1), (32768, 493, 10), (65536, 27, 1), (262144, 2, 0.3),
    ],
    # 0.6, the same build
    "0.6": [
        (1024, 66471, 65), (2048, 1504988, 2402), (4096, 502272, 1155), (8192, 2069, 11),
        (16384, 1471, 17), (32768, 2346, 53), (65536, 870, 39), (131072, 381, 34),
        (262144, 137, 23), (524288, 11, 3),
    ],
}


def sampler(buckets, rng):
    """Pile times drawn from the buckets: a bucket by its share of piles, then its mean time
    spread by a quarter either way."""
    total = sum(count for _, count, _ in buckets)
    shares, running = [], 0
    for _, count, _ in buckets:
        running += count
        shares.append(running / total)
    means = [ms * 1e6 / count for _, count, ms in buckets]

    def draw():
        i = min(bisect.bisect_left(shares, rng.random()), len(means) - 1)
        return means[i] * rng.uniform(0.75, 1.25)

    return draw


def replay(buckets, pairs, slack, kernel_cost, thread_cost, transfer, seed=1):
    """The speed-up of two threads over one on `pairs` pairs of piles."""
    rng = random.Random(seed)
    draw = sampler(buckets, rng)
    kernel_end = [0.0] * pairs
    thread_end = [0.0] * pairs
    one_thread = 0.0
    for j in range(pairs):
        even, odd = draw(), draw()
        one_thread += even + odd + kernel_cost
        own = kernel_end[j - 1] + kernel_cost if j >= 1 else 0.0
        other = thread_end[j - 1 - slack] + transfer if j - 1 - slack >= 0 else 0.0
        kernel_end[j] = max(own, other) + even
        own = thread_end[j - 1] + thread_cost if j >= 1 else 0.0
        other = kernel_end[j - slack] + kernel_cost + transfer if j - slack >= 0 else 0.0
        thread_end[j] = max(own, other) + odd
    return one_thread / max(kernel_end[-1], thread_end[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", choices=sorted(BUCKETS), default="0.161")
    parser.add_argument("--pairs", type=int, default=200_000)
    args = parser.parse_args()
    buckets = BUCKETS[args.code]
    print(f"{args.code}: two threads over one, replaying {args.pairs} pairs of piles")
    print("kernel ns a pair | thread ns a pair | transfer ns | slack 1 | slack 2 | slack 3 | slack 4")
    for kernel_cost, thread_cost, transfer in [(150, 100, 100), (150, 100, 300), (150, 100, 500), (50, 50, 100)]:
        gains = [replay(buckets, args.pairs, s, kernel_cost, thread_cost, transfer) for s in (1, 2, 3, 4)]
        cells = " | ".join(f"{g:.2f}x" for g in gains)
        print(f"{kernel_cost:16} | {thread_cost:16} | {transfer:11} | {cells}")


if __name__ == "__main__":
    main()
