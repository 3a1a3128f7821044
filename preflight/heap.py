"""The cyclic garbage collector, tuned for the mock runtime's allocation pattern.

A plan run allocates hundreds of thousands of short-lived objects (Outputs, futures, asyncio
handles) on top of a heap of about 600,000 long-lived ones (the provider SDKs' classes and
type hints). With CPython's default thresholds (700, 10, 10) the collector runs every 700
allocations and, every hundred runs, walks the whole heap: measured on the example stack
with `gc.disable()` as the floor, half of a run's CPU time was the collector. Fewer, larger
young-generation passes keep the collector running (memory stays bounded; a cycle waits at
most 50,000 allocations longer) and take a run's time close to that floor. Nothing the
program computes depends on when a collection happens."""

from __future__ import annotations

import gc
import sys
from typing import NoReturn

# Young generation every 50,000 net allocations (default 700); the older generations after
# 20 passes of the younger one each (default 10).
THRESHOLDS = (50_000, 20, 20)


def fewer_collections() -> None:
    """Set the thresholds above; for a process that runs the program under mocks (the
    `preflight` commands, the tests' workers). Call it before importing the provider SDKs,
    whose imports allocate most of the long-lived heap."""
    gc.set_threshold(*THRESHOLDS)


def exit_without_last_collections(code: int) -> NoReturn:
    """sys.exit(code) for a `preflight` command, minus the interpreter's last walks over the
    heap. A plan leaves hundreds of thousands of objects (the provider SDKs' classes, the run's
    outputs), and the collections the interpreter runs as it exits visited every one: 0.6 s of a
    3.9 s dev plan, 2.2 s of the example's 10.8 s. Frozen (moved where collections no longer
    look), they are skipped; the exit is otherwise the usual one: exit handlers run and the
    output is flushed. Only for a process about to end: nothing frozen is ever collected, so
    an object left in a reference cycle is not finalized at exit (its __del__ and weakref
    callbacks do not run, and a complaint of theirs is not printed): tests/preflight/
    test_input_gate.py runs a plan without the freeze to keep seeing those."""
    gc.freeze()
    sys.exit(code)
