"""Native crashes: segmentation faults, aborts, bus errors, heap corruption (and exits 139/134)."""

from __future__ import annotations

import re

from runshepherd.diagnosis.formats.schedulers import KALDI_ENDED_WELL
from runshepherd.diagnosis.rules.base import RAY_LISTED_CAUSES, Context, Signal, pat
from runshepherd.diagnosis.rules.family import exits, family, fixes_by_evidence, words

_SEG_EXPL = (
    "The program crashed inside native code (a segmentation fault or abort), not in your Python: "
    "often a library built for a different CUDA/driver version, a broken C extension, or a hardware fault."
)
_SEG_FIX = (
    "Run it in an environment whose native libraries match: torch and the compiled extensions built for the same "
    "CUDA and driver (pin them, or rebuild the image); resubmit once in case it was transient, and report the node "
    "name if it repeats on the same machine."
)

# Where the crash happened decides the fix. While a module was being imported (faulthandler shows importlib's
# frames, or the command was a bare import): two native libraries clash when loaded together, fixed in the code
# (import order, or one of them in its own process). Reported only by a launcher (torchrun's "Signal 11
# (SIGSEGV) received by PID", a data-loader worker's "Unexpected segmentation fault"), with no frame or library
# named: nobody can tell where, and the threads retry (and investigate if it repeats).
_AT_IMPORT = re.compile(r"<frozen importlib\._bootstrap|\bpython3? -c ['\"]?import \w+\s*;\s*import\b")
_LAUNCHER_ONLY = re.compile(
    r"Signal 11 \(SIGSEGV\) received by PID|\bexitcode\s*:\s*-11\b|Unexpected segmentation fault encountered in worker"
)
# an illegal instruction (strsignal's "Illegal instruction", zsh's "illegal hardware instruction", SIGILL, exit code
# 132 = 128 + 4, glibc zh_CN "非法指令"): a binary built for a newer processor than the machine's, fixed by another
# build or other nodes, not by versions of Python packages
_ILLEGAL = re.compile(
    r"Illegal instruction|illegal hardware instruction|\bSIGILL\b|\bexit code:? 132\b|\(exit code 132\)|非法指令"
)
_ILLEGAL_FIX = (
    "Use an image or wheel built for this machine's CPU (without AVX/AVX2, or for an older instruction set), "
    "rebuild the native code for it, or run on nodes with a newer processor."
)
_IMPORT_FIX = (
    "Two native libraries crash when loaded into one process: change the import order (the thread's working "
    "order, e.g. import the other library first), or load one of them in a separate process; versions built "
    "against the same CUDA/OpenMP runtime avoid the clash."
)
_RETRY_FIX = (
    "Nothing in the log says where the crash happened: resubmit once; if it repeats, run with "
    "`python -X faulthandler` (or allow a core dump) to find the library, and try `num_workers=0` if a "
    "data-loader worker crashed."
)


# a native stack trace through libc's abort or raise: boost::stacktrace's "2# abort in /lib/…/libc.so.6" (Triton, other
# C++ servers' signal handlers), gdb's "#2  0x… in __GI_abort () at abort.c:79" or "#1 … in raise () from libc.so.6"
_ABORT_FRAME = (
    r"^\s*#?\d+#?\s+(?:0x[0-9a-fA-F]+ in )?(?:__GI_)?(?:abort|raise)(?: \([^)]*\))? (?:in|from|at) "
    r"\S*(?:libc[.\-]|abort\.c|raise\.c)"
)
_ABORT = (
    r"^\W*(?:\S+: )?Aborted(?: \(core dumped\))?\s*$|terminate called after throwing|Check failure stack trace"
    r"|Fatal Python error: Aborted|is killed by signal: Aborted|SIGABRT|Signal 6\b|\bAbort trap\b|^zsh: abort"
    r"|[Aa]ssertion\b.{0,200}\bfailed"
    f"|{_ABORT_FRAME}"
)


# A Kaldi pipe whose reader stops early (gmm-init-mono's `subset-feats --n=10` reads ten utterances and exits): the
# programs writing into it (apply-cmvn, add-deltas) fail to write, throw KaldiFatalError and abort with a core dump,
# and run.pl's footer still says the job ended with code 0, because the pipeline's status is its reader's
_KALDI_ERROR = re.compile(r"^ERROR \([\w.+-]+(?:\[[^\]]*\])?:")
_KALDI_WRITE_FAILED = re.compile(
    r"Failed to write \w+ to stream|Error in TableWriter::Write|Error closing TableWriter|Write failure to standard output"
)
_KALDI_ENDED_WELL = re.compile(KALDI_ENDED_WELL)


def _writer_lost_its_reader(ctx: Context, s: Signal) -> bool:
    """The abort is a Kaldi writer's whose reader closed the pipe, in a job that ended with code 0: the footer that
    closes the log (run.pl writes it last) says the job succeeded, and every Kaldi ERROR in the log is a failed write."""
    lines = ctx.log.lines
    footer = next((ln.index for ln in reversed(lines[-5:]) if _KALDI_ENDED_WELL.search(ln.text)), None)
    if footer is None or not 0 <= s.order < footer:
        return False
    errors = [ln.text for ln in lines if _KALDI_ERROR.match(ln.text)]
    return bool(errors) and all(_KALDI_WRITE_FAILED.search(t) for t in errors)


# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): the shell's and glibc's names for a process
# killed by a fatal signal (strsignal: "Segmentation fault", "Bus error", "Illegal instruction", "Aborted") and
# glibc's heap checks ("double free", "free(): invalid pointer", "stack smashing detected")
ROOT_WORDS = (
    words(
        r"\bsegmentation fault\b|\bsegfault\b|\bSIGSEGV\b|\bcore dumped\b|\billegal instruction\b|\bbus error\b"
        r"|\bSIG(?:BUS|ABRT|ILL)\b|\bstack smashing\b|\bdouble free\b|\bfree\(\): invalid\b|\bcorrupted (?:size"
        r"|double-linked|unsorted)\b|\baccess violation\b",
        0.6,
        "a crash in native code (a fatal signal)",
    ),
    # the same fatal signals in a Chinese locale (glibc's zh_CN strsignal: "段错误" segmentation fault, "核心已转储"
    # core dumped, "总线错误" bus error, "非法指令" illegal instruction)
    words(r"段错误|核心已转储|总线错误|非法指令", 0.6, "a crash in native code (a fatal signal)"),
)


FAMILY = family(
    "segfault",
    # not infrastructure: a native crash in user code or a library is rarely fixed by resubmitting unchanged
    # (the dev threads: 5 of 17 answered "retry"; the rest changed versions, imports, code or resources), so the
    # session proposes a fix or asks instead of retrying automatically
    origin="user",
    # maintainers mostly answer a segfault in a Python ML stack by changing the environment the native code runs in:
    # matching versions of torch, its CUDA wheels and compiled extensions, another driver or image. The corpus
    # rulebook (COLLECTING.md) names that fix_driver_or_image (an environment, not a package the code lacks); on dev,
    # of the segfaults read as such, 24 were labelled fix_driver_or_image and 14 add_dependency (the older parts'
    # word for the same answer), 25 fix_code
    fix_kind="fix_driver_or_image",
    explanation=_SEG_EXPL,
    fix_description=_SEG_FIX,
    exclude=RAY_LISTED_CAUSES,  # Ray's list of what may have killed a worker names SIGSEGV third
    patterns=(
        pat(r"Segmentation fault|SIGSEGV|signal 11\b|Signal 11 \(SIGSEGV\)", 0.9),
        # valgrind's memcheck catching a native program writing where it may not ("==355249== Invalid write of size
        # 8"), and its own abort on the heap the program corrupted ("Heap block lo/hi size mismatch"): the memory
        # fault a bare run would die of, caught first
        pat(r"^==\d+== Invalid write of size \d+", 0.72),
        pat(r"valgrind: Heap block lo/hi size mismatch", 0.8),
        pat(r"Fatal Python error: (?:Segmentation fault|Aborted|Bus error|Illegal instruction)", 0.9),
        pat(r"is killed by signal: (?:Segmentation fault|Aborted)", 0.9),
        pat(r"Illegal instruction|^(?!.*\babort(?:ed)?\b).*core dumped", 0.86),
        # an abort that dumped core (bash "Aborted (core dumped)", zsh "abort (core dumped)") is SIGABRT: a program
        # ending itself on an error it has just reported, read as weakly as the other SIGABRT reports
        pat(r"\babort(?:ed)?\s+\(core dumped\)", 0.7),
        pat(
            r"double free or corruption|free\(\): invalid (?:pointer|next size|size)|malloc\(\): corrupted|stack smashing detected"
            # glibc's other heap-corruption aborts (malloc/malloc.c's malloc_printerr messages)
            r"|munmap_chunk\(\): invalid pointer|corrupted (?:size vs\. prev_size|double-linked list)|realloc\(\): invalid pointer",
            0.86,
        ),
        pat(r"terminate called after throwing an instance of", 0.7),
        pat(r"SIGABRT|Signal 6 \(SIGABRT\)", 0.7),
        pat(_ABORT_FRAME, 0.7),
        # the shells' own reports of a native crash: macOS bash appends the signal number to BSD's strsignal
        # (``Segmentation fault: 11`` is read above, ``Bus error: 10``, ``Abort trap: 6``); zsh names them in lower
        # case (``zsh: illegal hardware instruction  python``, ``zsh: abort  python``)
        pat(r"\bBus error: 10\b|\billegal hardware instruction\b", 0.88),
        pat(r"\bAbort trap: 6\b|^zsh: abort(?:ed)?\s", 0.7),
        # Python's faulthandler on Windows (Modules/faulthandler.c: "Windows fatal exception: access violation",
        # "stack overflow", "code <n>"), and the NTSTATUS codes a crashed Windows process exits with, in hex
        pat(r"Windows fatal exception: (?:access violation|stack overflow|page error|code \d+)", 0.88),
        pat(r"\b0x[cC]0000(?:005|0[fF][dD]|01[dD]|409)\b", 0.85),
    ),
    exit_codes=(
        exits(139, -11, strength=0.6),
        # SIGABRT is how runtimes end themselves on an error they detected (NCCL's watchdog, a failed C++ check,
        # "terminate called after throwing"): weaker than a segfault's code, and too weak to make a later error of
        # another family (the one that aborted) look like its echo
        exits(134, -6, strength=0.56),
        # SIGILL (128 + 4): the CPU met an instruction it does not have, a binary built for newer processors (a
        # TensorFlow wheel built with AVX on a CPU without it); SIGBUS (128 + 7): a mapping that went away under it
        exits(
            132,
            -4,
            strength=0.6,
            explanation="The task was killed by an illegal-instruction signal (exit code 132, SIGILL): a compiled "
            "library uses processor instructions this machine's CPU does not have (often a build that needs AVX).",
        ),
        exits(135, -7, strength=0.58),
        # Windows exit codes of a native crash (PyCharm's "Process finished with exit code -1073741819
        # (0xC0000005)", or unsigned: 3221225477): NTSTATUS access violation (0xC0000005), stack overflow
        # (0xC00000FD), illegal instruction (0xC000001D), stack buffer overrun / fail-fast (0xC0000409)
        exits(
            -1073741819,
            3221225477,
            -1073741571,
            3221225725,
            -1073741795,
            3221225501,
            -1073740791,
            3221226505,
            strength=0.85,
            explanation="The program crashed inside native code: Windows ended it with a crash code (an access "
            "violation, a stack overflow or an illegal instruction), not a Python error.",
        ),
    ),
    # an abort is how a program ends itself on an error it has just reported (a C++ exception's ``what()``, glog's
    # ``F… Check failed: …`` before ``*** Check failure stack trace ***``, the message before a failed C assertion):
    # when another family read an earlier line, the abort is that error's echo; a segmentation fault never is
    echo_evidence=_ABORT,
    fix_from_evidence=fixes_by_evidence(
        (_AT_IMPORT, "fix_code", _IMPORT_FIX),
        (_ILLEGAL, "fix_driver_or_image", _ILLEGAL_FIX),
        (_LAUNCHER_ONLY, "retry", _RETRY_FIX),
    ),
    recovered=_writer_lost_its_reader,
    root_words=ROOT_WORDS,
)
