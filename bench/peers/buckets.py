#!/usr/bin/env python3
"""Share of a folded profile's samples by what the broker was doing (issue 13's "why").

    python3 bench/peers/buckets.py < send.folded

Input: `thread;frame;...;leaf count` lines (flamegraph.py --fold-only). Samples of the
ReputService thread are one bucket (dispatch into ConsumeQueue and IndexFile); any other
sample goes to the bucket of the innermost frame that matches a rule below, so malloc called
from the header decoder counts as malloc. The rules name our functions and the kernel's; a
sample that matches none is "other".
"""
import re
import sys
from collections import Counter

RULES = [
    ("flush: msync / fdatasync and the checkpoint",
     r"FlushCommitLogAndCheckpoint|msync|fdatasync"),
    ("CommitLog append: the kernel zeroing fresh page-cache pages on first touch",
     r"__pi_memset|clear_page|folio_zero"),
    ("request header decode (JSON -> ext fields -> typed header)",
     r"DecodeJsonHeader|HeaderFromExtFields|DecodeSendMessageRequestHeader|ExtFields::Set|"
     r"ParseJavaInt|ParseJavaLong|GenericReader|DecodeCustomHeader"),
    ("response header encode",
     r"AppendString|EncodeJsonHeader|HeaderToExtFields|EncodeHeader"),
    ("record encode, body CRC, copy into the CommitLog",
     r"crc32|EncodeRecord|AppendMessage|DoAppend|CommitLog::Put|CommitLog::Append|"
     r"MessageProperties"),
    ("pull: ConsumeQueue lookup and record scan",
     r"ConsumeQueue::GetEntries|DecodeEntry|GetMessages|FindFileByOffset|DecodeRecord"),
    ("socket write (kernel copy and TCP)",
     r"sendmsg|writev|tcp_sendmsg|_copy_from_iter|DoWrite"),
    ("socket read (kernel copy and TCP)",
     r"recvmsg|recvfrom|tcp_recvmsg|_copy_to_iter|readv|async_read_some"),
    ("thread hand-offs: wake-ups, futex, scheduling",
     r"futex|try_to_wake_up|_raw_spin_unlock_irqrestore|finish_task_switch|__schedule|"
     r"pthread_cond|epoll_wait"),
    ("malloc / free",
     r"malloc|_int_free|__libc_free|tcache|cfree|operator new|operator delete"),
    ("send / pull processor logic (checks, properties, stats)",
     r"SendMessageProcessor|PullMessageProcessor|PutRecorder|BrokerStats|StatsItem|"
     r"Permission|TopicConfig"),
]
COMPILED = [(name, re.compile(rx)) for name, rx in RULES]
REPUT = "reput thread: dispatch into ConsumeQueue and IndexFile"


def bucket(frames):
    if frames[0].startswith("ReputServ"):
        return REPUT
    for frame in reversed(frames[1:]):
        for name, rx in COMPILED:
            if rx.search(frame):
                return name
    return "other"


def main():
    counts = Counter()
    total = 0
    for line in sys.stdin:
        stack, _, n = line.rstrip("\n").rpartition(" ")
        if not stack or not n.isdigit():
            continue
        counts[bucket(stack.split(";"))] += int(n)
        total += int(n)
    for name, n in counts.most_common():
        print("%6.1f%%  %s" % (100.0 * n / max(total, 1), name))


if __name__ == "__main__":
    main()
