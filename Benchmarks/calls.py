#!/usr/bin/env python3
"""Calls into named functions, read from a callgrind output file.

    calls.py FILE

Prints one line per figure (name, then the number of calls in the whole run): the events that
`Benchmarks/count`, `Benchmarks/engines` and `Benchmarks/hops` report per request beside the
instructions, each the sum of the calls into
the functions listed for it below, from every caller and every thread:

- allocations: the C allocator's entry points (Swift's own objects, Foundation's, Dispatch's);
- tasks: tasks created (`swift_task_create`: `Task {}`, `async let`, a group's child tasks);
- jobs: jobs handed to the global concurrent executor (`swift_task_enqueueGlobal`): each is a
  task that suspended and resumes on another turn of the pool, the "hop" between a callback's
  thread (or an actor) and the cooperative threads;
- switches: `swift_task_switch`, the calls that move a task to another executor (an actor's or
  the global one's) when an async function's isolation differs from its caller's; a call does not
  always suspend (on the right executor it returns at once), so it counts the places, and `jobs`
  counts the suspensions that went through the pool;
- main-jobs: jobs handed to the main actor's executor, the main queue (`swift_task_enqueueMainExecutor`
  before Swift 6.3; `swift_dispatchEnqueueMain` from 6.3, where the main executor is Swift's
  `DispatchMainExecutor`): a task that resumes on the main actor after running elsewhere;
- continuations: `swift_continuation_init` (`withChecked/UnsafeContinuation`): a wait for a
  callback.
"""

import re
import sys

FIGURES = {
    "allocations": ("malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc"),
    "tasks": ("swift_task_create",),
    "jobs": ("swift_task_enqueueGlobal",),
    "main-jobs": ("swift_task_enqueueMainExecutor", "swift_dispatchEnqueueMain"),
    "switches": ("swift_task_switch",),
    "continuations": ("swift_continuation_init",),
}

NAMED = re.compile(r"^\((\d+)\)(?: (.*))?$")


def counts(path):
    """The number of calls into each function named in FIGURES, over the whole file."""
    wanted = {name for names in FIGURES.values() for name in names}
    names = {}
    totals = dict.fromkeys(wanted, 0)
    callee = None
    with open(path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if line.startswith("cfn="):
                callee = resolve(line[4:].strip(), names)
            elif line.startswith("fn="):
                resolve(line[3:].strip(), names)
            elif line.startswith("calls=") and callee in wanted:
                totals[callee] += int(line[6:].split()[0])
    return {figure: sum(totals[name] for name in functions) for figure, functions in FIGURES.items()}


def resolve(text, names):
    """A function's name from a `fn=`/`cfn=` field, which names it once and numbers it after."""
    match = NAMED.match(text)
    if not match:
        return text
    number, name = match.groups()
    if name is not None:
        names[number] = name
    return names.get(number, "")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: calls.py CALLGRIND-OUT-FILE")
    figures = counts(sys.argv[1])
    # Every run allocates: none counted means the file was not read as expected.
    if figures["allocations"] == 0:
        sys.exit("calls.py: no call into the allocator found in " + sys.argv[1])
    for figure, total in figures.items():
        print(figure, total)
