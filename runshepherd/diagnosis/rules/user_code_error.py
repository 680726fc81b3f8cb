"""Errors in the user's own code: the root Python exception when no more specific family claims it."""

from __future__ import annotations

import re

from runshepherd.diagnosis.errorblock import cause_below, chained_after, exception_type
from runshepherd.diagnosis.formats.compilers import ERROR_AT_SOURCE_RE, NATIVE_SOURCE
from runshepherd.diagnosis.frames import installed_or_stdlib, traceback_frames
from runshepherd.diagnosis.rules.base import (
    SCRIPT_EXEC_FORMAT,
    Context,
    FunctionRule,
    PatternRule,
    Signal,
    compiled_extension,
    pat,
    raised,
)
from runshepherd.diagnosis.rules.family import family, words

_FIX = (
    "Fix the code at the line the traceback points to (the last frame in your own files), test it on a small "
    "input locally, and resubmit. Resources and the task structure stay as they are."
)

# A call and the function it calls disagree on the arguments, or an import names something the module lacks: the
# code may be wrong, or the installed release of the library may not be the one it was written for (the same message
# is fixed by a code change in one thread and by a pin in the next), so the reading says both instead of blaming
# the program's own code
_SIGNATURE = re.compile(
    r"got an unexpected keyword argument|takes (?:from )?\d+ (?:to \d+ )?positional arguments? but \d+"
    r"|missing \d+ required (?:positional|keyword-only) arguments?|got multiple values for (?:keyword )?argument"
    r"|^cannot import name|^module '[\w.]+' has no attribute"
)
_SIGNATURE_FIX = (
    "Compare the call with the signature of the function it calls (for a library, in the release installed: `pip "
    "show` names it); fix the call at the line the traceback points to, or install the release the code was "
    "written for (its requirements file), then resubmit."
)


def _root_reading(short: str, msg: str) -> tuple[str, str]:
    """The explanation and fix for a root exception: a signature or import mismatch says it may be either side."""
    detail = f": {msg[:160]}" if msg else ""
    if short in {"TypeError", "ImportError", "AttributeError"} and _SIGNATURE.search(msg):
        return (
            f"A call does not match the function it calls, or an import names something its module lacks "
            f"({short}{detail}): either the calling code is wrong or, when that function or module belongs to an "
            "installed library, the release installed is not the one the code was written for.",
            _SIGNATURE_FIX,
        )
    if short == "KeyError" and msg:
        # a lookup of an entry the mapping lacks: the mapping is often a config, a dataset's fields or a checkpoint
        # (a missing config key is as common as a wrong lookup), so the reading names both sides
        return (
            f"The program looked up {msg[:120]} in a mapping that has no such entry (KeyError): either the code asks "
            "for the wrong key, or the config, data or checkpoint it reads lacks that entry.",
            "Find where that key should come from (the config file, the dataset's fields, the checkpoint) and add it "
            "there, or fix the lookup at the line the traceback points to; then resubmit.",
        )
    return f"The program stopped with an error in its own code ({short}{detail}).", _FIX


_SHAPES = PatternRule(
    name="user_code_shapes",
    label="user_code_error",
    origin="user",
    fix_kind="fix_code",
    explanation="The code failed with a shape or device mismatch between tensors (a bug in the model or data "
    "code, not in the infrastructure).",
    fix_description=_FIX,
    patterns=(
        pat(
            r"size mismatch for(?! [\w.]+: copying a param)|shapes cannot be multiplied"
            r"|Expected all tensors to be on the same device",
            0.8,
        ),
        # a checkpoint's shape that the model does not have, pasted without its loading error (read below when it is)
        pat(r"size mismatch for [\w.]+: copying a param", 0.7),
        pat(r"Error executing job with overrides|Traceback \(most recent call last\)", 0.4, secondary=True),
    ),
)

# A checkpoint whose tensors do not fit the model the code built ("Error(s) in loading state_dict for YoloBody:" and
# below it "size mismatch for head.weight: copying a param with shape [75, 256] from checkpoint, the shape in current
# model is [255, 256]"). Whether the code or the settings it was given built the wrong model (a class count,
# channels, an image size that differs from the training run's), the log does not say: dev labels these code 16 and
# refused settings 9 times, so the reading stays below the confident band. It is read at the loading error's line
_LOADING_STATE = re.compile(r"^(?:\w+\.)*\w*Error: Error\(s\) in loading state_dict\b")
_SIZE_MISMATCH = re.compile(r"\bsize mismatch for [\w.]+: copying a param with shape\b")


def _checkpoint_shapes(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    for idx, ln, _ in raised(ctx, _LOADING_STATE):
        below = next((b for b in lines[idx + 1 : idx + 40] if _SIZE_MISMATCH.search(b.text)), None)
        if below is None:
            continue
        return [
            Signal(
                "user_code_error",
                "user",
                0.7,
                idx,
                [ln.raw.rstrip(), below.raw.rstrip()],
                "The checkpoint does not fit the model the program built: a parameter has another shape in the "
                "checkpoint than in the model, so the model was built with other settings (number of classes, "
                "channels, sizes) or other code than the one that saved the checkpoint.",
                "fix_code",
                "Build the model with the settings the checkpoint was trained with (the class count, channels and "
                "sizes in its config), or load a checkpoint trained for this model; then resubmit.",
            )
        ]
    return []


# a check that says the program's own class must implement a method or hook (Lightning: "`train_dataloader` must be
# implemented to be used with the Lightning Trainer", raised as a MisconfigurationException): what it asks for is code,
# a method the person writes, whatever the exception's class says (not "does not implement __len__, max_steps has to
# be specified": a setting is the fix there). TRAIN (stop 35): zn-0037, zzc-0011 (user_code_error), read
# validation_error from the exception's class
_HOOK_REQUIRED = PatternRule(
    name="user_code_hook_required",
    label="user_code_error",
    origin="user",
    fix_kind="fix_code",
    explanation="A library's check says the program's own class must implement a method (a hook it calls) that "
    "the class does not define: the code is missing that method.",
    fix_description="Implement the method the message names in your class (or pass what it provides another way, "
    "such as a datamodule), then rerun.",
    patterns=(
        pat(
            r"^(?:\w++\.)*+[A-Z]\w*(?:Error|Exception): .*\bmust (?:be (?:implemented|overridden)|implement|override)\b",
            0.8,
            flags=0,
        ),
    ),
)

# torch.load refusing a full pickle under PyTorch 2.6's weights_only default ("Weights only load failed. This file can
# still be loaded … (1) In PyTorch 2.6, we changed the default value of the `weights_only` argument"): the call that
# loads the file passes weights_only=False (a file one trusts) or allowlists the classes the message names; read so
# with or without a traceback (not missing_dependency's release statement: the fix is the call, not a version).
# TRAIN (stop 56): zzzzzf-0010 (user_code_error, read missing_dependency 0.8 with no traceback shown)
_WEIGHTS_ONLY = PatternRule(
    name="user_code_weights_only_load",
    label="user_code_error",
    origin="user",
    fix_kind="fix_code",
    explanation="torch.load refused the checkpoint: since PyTorch 2.6 it loads only tensors and allowlisted types "
    "by default (weights_only=True), and this file pickles other objects.",
    fix_description="If you trust the file, pass weights_only=False to the torch.load call that reads it (or "
    "allowlist the classes the message names with torch.serialization.add_safe_globals), then rerun.",
    patterns=(pat(r"\bWeights only load failed\b", 0.8, flags=0),),
)

# a debugger breakpoint (``breakpoint()``, ``pdb.set_trace()``) left in the code: in a batch job the debugger's prompt
# reads end-of-input and quits, raising bdb.BdbQuit (a class that ends in neither Error nor Exception)
_BREAKPOINT = PatternRule(
    name="user_code_breakpoint",
    label="user_code_error",
    origin="user",
    fix_kind="fix_code",
    explanation="A debugger breakpoint left in the code (breakpoint() or pdb.set_trace()) stopped the job: with no "
    "terminal to read commands from, the debugger quit and raised bdb.BdbQuit.",
    fix_description="Remove the breakpoint() / pdb.set_trace() call from the code (or run with PYTHONBREAKPOINT=0) "
    "and resubmit.",
    patterns=(pat(r"^(?:bdb\.)?BdbQuit\s*$|\bbdb\.BdbQuit\b", 0.84),),
)


# the program (or a library it calls: OGB's "This will download 1.38GB. Will you proceed? (y/N)") asking for keyboard
# input in a job that has no terminal: input() reads end-of-file at once and raises EOFError
_PROMPT_WITHOUT_TERMINAL = PatternRule(
    name="user_code_prompt_without_terminal",
    label="user_code_error",
    origin="user",
    fix_kind="fix_code",
    explanation="The program stopped at a question it asked on the terminal (input()): a batch job has no terminal to "
    "answer from, so the read hit end-of-file and raised EOFError.",
    fix_description="Answer the question ahead of time (the library's option or argument for it, a file or dataset "
    "already in place so it is not asked), or pipe the answer in (`yes | python …`), and resubmit.",
    patterns=(pat(r"^(?:\w+\.)*EOFError: EOF when reading a line\s*$", 0.76, flags=0),),
)


# the program defining one command-line option twice: argparse refuses the second add_argument ("argument
# --batch-size: conflicting option string: --batch-size", cpython Lib/argparse.py _handle_conflict_error), absl the
# second DEFINE ("DuplicateFlagError: The flag 'x' is defined twice"). Raised while the parser is being built, before
# any argument the person gave is read: the code's, not the settings' (a script that adds an option a library it
# imports already added)
_OPTION_DEFINED_TWICE = PatternRule(
    name="user_code_option_defined_twice",
    label="user_code_error",
    origin="user",
    fix_kind="fix_code",
    explanation="The program defines the same command-line option twice (its own parser and a module it imports, "
    "or two add_argument calls), so the parser refused to be built before any argument was read.",
    fix_description="Remove or rename one of the two definitions of the option the error names (or build the parser "
    "with conflict_handler='resolve'), then resubmit.",
    patterns=(
        pat(r"\bconflicting option strings?: \S+|\bDuplicateFlagError: The flag '[^']+' is defined twice", 0.84),
    ),
)


# the job script under ``set -u`` (or ``set -eu``) reading a variable it never set: bash prints "<script>: line N:
# NAME: unbound variable" and, not being interactive, exits there (bash manual, The Set Builtin: -u); a misspelt
# variable in the script, so nothing after that line ran
_UNBOUND = PatternRule(
    name="user_code_unbound_variable",
    label="user_code_error",
    origin="user",
    fix_kind="fix_code",
    explanation=lambda m: (
        f"The job script stopped at line {m.group('line')}: it reads the variable "
        f"'{m.group('var')}', which is not set, and the script runs under `set -u`, so the shell exited there and nothing "
        "after that line ran."
    ),
    fix_description="Fix the variable's name in the job script (or set it before that line, or give it a default "
    "with ${NAME:-default}), then resubmit.",
    patterns=(pat(r"\bline (?P<line>\d+): (?P<var>[A-Za-z_]\w*): unbound variable\s*$", 0.86, flags=0),),
)


# a bash script run by /bin/sh (dash on Debian and Ubuntu: ``sh train.sh``), which stops at the first bash-only
# construct in its own "script: line: script: message" form: ``${var:0:3}`` gives "Bad substitution", ``[[``,
# ``source`` and arrays give "Syntax error: … unexpected" or "[[: not found"
_SH_NOT_BASH = PatternRule(
    name="user_code_sh_not_bash",
    label="user_code_error",
    origin="user",
    fix_kind="fix_code",
    explanation=lambda m: (
        f"The shell script stopped at line {m.group('line')} on a construct /bin/sh does not know "
        f"({m.group('what')}): it is written for bash but was run with sh."
    ),
    fix_description="Run the script with bash (`bash script.sh`, or a `#!/bin/bash` first line and `./script.sh`), "
    "or rewrite that line in plain sh, then resubmit.",
    patterns=(
        pat(
            r"^\S+: (?P<line>\d+): (?:\S+: )?(?P<what>Bad substitution|Syntax error: .{1,40} unexpected.*|\[\[: not found)\s*$",
            0.82,
            flags=0,
        ),
    ),
)


# a script started as a program (``srun train.py``, ``./run.sh``) that has no ``#!`` first line naming its
# interpreter: the kernel cannot execute a text file (ENOEXEC) and the launcher reports "execve(): train.py: Exec
# format error" (slurmstepd) or "exec ./run.sh: exec format error". The script is fine; how it is started is not.
# (A binary, not a script, refused the same way is an image for another CPU architecture: image_pull's)
_SCRIPT_NOT_EXECUTABLE = PatternRule(
    name="user_code_script_without_interpreter",
    label="user_code_error",
    origin="user",
    fix_kind="fix_code",
    explanation=lambda m: (
        f"The job started the script '{m.group('script')}' as a program, but it has no '#!' first line naming its "
        "interpreter, so the system could not execute it (exec format error)."
    ),
    fix_description="Start it through its interpreter (`python3 script.py`, `bash script.sh`, also after srun or "
    "mpirun), or give it a first line such as `#!/usr/bin/env python3` and make it executable, then resubmit.",
    patterns=(pat(SCRIPT_EXEC_FORMAT, 0.86),),
)


# a launcher given an environment assignment where its command goes: ``nohup CUDA_VISIBLE_DEVICES=0 python x.py``
# runs a program named "CUDA_VISIBLE_DEVICES=0" (nohup, env, timeout and xargs exec their first word), so coreutils
# reports "nohup: failed to run command 'CUDA_VISIBLE_DEVICES=0': No such file or directory". No file is missing: the
# assignment belongs before the launcher (or after ``env``), so the launch line is what to change
_ASSIGNMENT_AS_COMMAND = PatternRule(
    name="user_code_assignment_as_command",
    label="user_code_error",
    origin="user",
    fix_kind="fix_code",
    explanation=lambda m: (
        f"The launch line gives '{m.group('var')}=…' where {m.group('tool')} expects the command to run, so "
        f"{m.group('tool')} tried to run a program of that name and nothing started."
    ),
    fix_description="Put the variable assignment before the launcher (VAR=value nohup python …) or after `env`, "
    "then resubmit.",
    patterns=(
        pat(
            r"^(?P<tool>nohup|timeout|xargs|stdbuf|nice): failed to run command '(?P<var>[A-Za-z_]\w*)=[^']*'",
            0.86,
            flags=0,
        ),
    ),
)


# The program's own package not importable from where it was started: ``No module named 'torchtitan'`` raised by an
# import in ``…/torchtitan/torchtitan/train.py``, a file that lives inside a directory of that very name (and not
# under site-packages). The package is there; the script was run so that its parent is not on sys.path (run as a file
# one directory too deep, an import a refactor made absolute), so installing a dependency fixes nothing: the launch
# (``python -m pkg.train`` from the root, PYTHONPATH) or the import is what to change
_NO_MODULE = re.compile(r"^(?:\w+\.)*(?:ModuleNotFound|Import)Error: No module named '(?P<mod>[\w.]+)'")
_IMPORTING_FRAME = re.compile(r'^\s*File "(?P<path>[^"]+)", line \d+')
_INSTALLED = re.compile(r"[/\\](?:site|dist)-packages[/\\]")
# ... or a top-level name that is a directory of a project's layout, never the name a package is installed under:
# ``src`` (a project laid out under src/ that is installed is imported by its package's name, never as ``src``) and
# ``scripts`` (a project's entry scripts). ``No module named 'src'`` raised from the project's own file means the
# project root is not on sys.path: the script was started from inside a subdirectory or as a file. (``utils``,
# ``common``, ``training`` are not such names: installable projects use them as their packages' names, and TRAIN has
# them fixed by installing the project as often as by launching it from its root)
_LAYOUT_DIRS = frozenset({"src", "scripts"})
# A submodule missing from a package Python did find, when that package carries a name research projects give their
# own folders and no installable distribution is imported as (``No module named 'models.backbone'``: ``models`` was
# found, ``backbone`` is not in it): a file of the project is missing from the checkout (never committed, renamed),
# which the project's code fixes; an installed library's missing submodule (``transformers.models.x``) is a version's
_PROJECT_FOLDERS = frozenset({"models", "model", "networks", "nets", "modules", "layers", "datasets", "dataset"})


def _own_package_not_importable(ctx: Context) -> list[Signal]:
    from runshepherd.diagnosis.rules.family import deepest_frame

    lines = ctx.log.lines
    for idx in ctx.log.exceptions[:6]:
        m = _NO_MODULE.match(lines[idx].text.strip())
        frame = deepest_frame(lines, idx) if m else None
        fm = _IMPORTING_FRAME.match(frame.text) if frame is not None else None
        if m is None or frame is None or fm is None or _INSTALLED.search(fm.group("path")):
            continue
        top, _, sub = m.group("mod").partition(".")
        if compiled_extension(m.group("mod")):
            # the package is there and its native part was never built: missing_dependency reads it, not a file to
            # add to the checkout
            continue
        inside = top in re.split(r"[/\\]", fm.group("path"))[:-1]
        if sub and top in _PROJECT_FOLDERS:
            return [
                Signal(
                    "user_code_error",
                    "user",
                    0.92,
                    idx,
                    [lines[idx].raw.rstrip(), frame.raw.rstrip()],
                    f"Python found the project's own package '{top}' but no module '{sub}' in it: a file the code "
                    "imports is missing from this copy of the project (never committed, renamed or moved).",
                    "fix_code",
                    f"Add the missing module to '{top}' (update the checkout to a version that has it, or the commit that "
                    "fixes the import), or change the import to the module's current name. Installing a package does "
                    "not fix this.",
                )
            ]
        if not inside and top not in _LAYOUT_DIRS:
            continue
        # the same line printed earlier without its traceback (another rank's or process' copy) is this error
        first = next(i for i in ctx.log.exceptions if lines[i].text.strip() == lines[idx].text.strip())
        return [
            Signal(
                "user_code_error",
                "user",
                0.92,
                first,
                [lines[idx].raw.rstrip(), frame.raw.rstrip()],
                f"The program's own package '{top}' could not be imported: "
                + (
                    "the file that imports it lives inside it, so the package is there, but"
                    if inside
                    else f"'{top}' names a directory of the project's own layout (never a package one installs), so"
                )
                + " the script was started from a place (or as a file) that leaves its parent directory off Python's "
                "path.",
                # what to change is where the script is started from (or the path Python searches), not its code
                "fix_path",
                f"Start the script as a module from the directory that holds '{top}' (python -m {top}.<module>), add "
                "that directory to PYTHONPATH, or install the project (pip install -e .); or make the import relative "
                "to how the script is run. Installing a package from PyPI does not fix this.",
            )
        ]
    return []


# CUDA touched in a DataLoader worker: the worker is a forked copy of a process that had already initialised CUDA (the
# dataset holds CUDA tensors, or moves samples to the GPU), and CUDA cannot be used in a forked child, so the worker
# fails with "CUDA error: initialization error" (torch re-raises it as "Caught RuntimeError in DataLoader worker
# process N"; https://pytorch.org/docs/stable/notes/multiprocessing.html#cuda-in-multiprocessing). The driver is fine:
# the dataset's tensors belong on the CPU (or num_workers=0, or the 'spawn' start method)
_WORKER_CAUGHT = re.compile(r"\bCaught \w+ in DataLoader worker process \d+")
_CUDA_INIT_ERROR = re.compile(r"\bCUDA error: initialization error\b")


def _cuda_in_forked_worker(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    caught: int | None = None
    for idx in ctx.log.exceptions:
        if caught is None and _WORKER_CAUGHT.search(lines[idx].text):
            caught = idx
        elif caught is not None and _CUDA_INIT_ERROR.search(lines[idx].text):
            return [
                Signal(
                    "user_code_error",
                    "user",
                    0.86,
                    idx,
                    [lines[caught].raw.rstrip(), lines[idx].raw.rstrip()],
                    "A DataLoader worker, a forked copy of a process that had already started CUDA, used CUDA (the "
                    "dataset holds GPU tensors or moves samples to the GPU), which a forked process cannot do; the "
                    "GPU and its driver are not at fault.",
                    "fix_code",
                    "Keep the dataset's tensors on the CPU and move each batch to the GPU in the training loop (or set "
                    "num_workers=0, or the DataLoader's multiprocessing_context='spawn'), then resubmit.",
                )
            ]
    return []


# The program's own native code did not build: a compiler's diagnostic on one of its source files
# (formats/compilers.py) or GNU ld's "undefined reference to `symbol'" for its own objects, then "collect2: error: ld
# returned 1 exit status". Not when the file is a system or installed package's header (its version does not fit: a
# dependency) nor when the log builds a Python package (pip's wheel build failing is missing_dependency's)
_UNDEFINED_REFERENCE = re.compile(
    r"^(?P<obj>[^\s:()]+\.(?:c|cc|cpp|cxx|cu|o)):\(\.text[^)]*\): undefined reference to\b"
)
_SYSTEM_SOURCE = re.compile(
    r"^(?:/usr/|/opt/|/Library/)|[/\\](?:site|dist)-packages[/\\]|[/\\](?:include|cuda[^/\\]*|torch|third_party)[/\\]"
)
_PACKAGE_BUILD = re.compile(
    r"Building wheels? for |Running setup\.py |\bsetup\.py (?:install|develop|build)|subprocess-exited-with-error"
    r"|Failed to build |\bpip install\b|Building editable for |\bbdist_wheel\b",
    re.IGNORECASE,
)


def _own_build_failed(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    for ln in lines:
        compiled = ERROR_AT_SOURCE_RE.match(ln.text)
        source = compiled.group("file") if compiled and NATIVE_SOURCE.search(compiled.group("file")) else None
        linked = _UNDEFINED_REFERENCE.match(ln.text.strip()) if source is None else None
        source = source or (linked.group("obj") if linked else None)
        if source is None or _SYSTEM_SOURCE.search(source):
            continue
        if any(_PACKAGE_BUILD.search(other.text) for other in lines):
            return []
        what = "the compiler rejected" if linked is None else "the linker found no definition for a symbol used in"
        return [
            Signal(
                "user_code_error",
                "user",
                0.7,
                ln.index,
                [ln.raw.rstrip()],
                f"The program's own native code did not build: {what} its source '{source}'.",
                "fix_code",
                "Fix the code (or the build file's sources and link libraries) at the line the compiler or linker "
                "names, build it locally, and resubmit.",
            )
        ]
    return []


# A library's message that says what its release changed AND names the code that works with it ("`np.Inf` was removed
# in the NumPy 2.0 release. Use `np.inf` instead.", "In PyTorch 2.6, we changed the default value of the `weights_only`
# argument … Re-running `torch.load` with `weights_only` set to `False` will likely succeed", "Integer division with
# addcdiv is no longer supported … can be implemented as …"), raised on a call the person's own code made (a frame of
# theirs in the traceback): the maintainer applies the change the library names, in that code; pinning an old release
# is the other road, and missing_dependency's reading of the release statement alone (a name moved to another
# package, a removal with no replacement named) stays. Not when no frame of the person's is shown (the name may be
# used by an installed package: its release is then what to change). TRAIN (stop 35): zm-0029, zy-0012, zzr-0025
# (user_code_error, each read missing_dependency 0.8 from the release statement); p-0008 (missing_dependency) shows
# no traceback and is decided by NumPy's ABI line
_RELEASE_CHANGED = re.compile(
    r"\b(?:was|were|has been|have been) (?:removed|renamed)\b.{0,40}?\b(?:in|since|as of|from)\b"
    r"|\bis no longer (?:supported|available)\b|\bwe changed the default value\b"
)
_REPLACEMENT_NAMED = re.compile(
    r"\b[Uu]se `?[\w.()\[\]'\"= ]{1,60}?`? instead\b|\bcan be implemented (?:as|with)\b"
    r"|\bwith `?\w+`? set to `?\w+`? will likely succeed\b"
)
_MESSAGE_LINES = 3  # lines of a message that goes on below its exception line


def _replacement_named(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    for idx in ctx.log.exceptions[:6]:
        if exception_type(lines[idx].text) is None:
            continue
        said = lines[idx : idx + 1 + _MESSAGE_LINES]
        changed = next((ln for ln in said if _RELEASE_CHANGED.search(ln.text)), None)
        if changed is None or not any(_REPLACEMENT_NAMED.search(ln.text) for ln in said):
            continue
        frames = traceback_frames(lines, idx)
        if not frames or all(installed_or_stdlib(path) for path, _, _ in frames):
            continue
        return [
            Signal(
                "user_code_error",
                "user",
                0.84,
                changed.index,
                [changed.raw.rstrip()],
                "The code uses a library the way an earlier release worked, and the library's message names the "
                "change that works with the release installed: the fix is that change in the code.",
                "fix_code",
                "Make the change the library's message names at the line of your code the traceback points to "
                "(or pin the release the code was written for), then rerun.",
            )
        ]
    return []


def _root_exception(ctx: Context) -> list[Signal]:
    """The first exception that closes a traceback; later chained ones are consequences."""
    out: list[Signal] = []
    block = ctx.log
    root = block.root
    for _rank, idx in enumerate(block.exceptions[:6]):
        ln = block.lines[idx]
        et = exception_type(ln.text)
        if et is None:
            continue
        etype, msg = et
        short = etype.rsplit(".", 1)[-1]
        if short in {"ChildFailedError", "SystemExit", "KeyboardInterrupt", "CalledProcessError"}:
            continue
        if short == "FatalError" and msg.startswith("`Termination signal`"):
            continue  # Paddle's signal handler on a SIGTERM another process sent (its launcher, once a rank failed)
        if cause_below(block.lines, idx):
            continue  # a parent's report of a child's error printed after it (torch.multiprocessing.spawn)
        if msg.startswith("Traceback (most recent call last)"):
            # a worker's exception re-raised in the parent with the worker's traceback as its message (old
            # DataLoader workers, multiprocessing): the worker's own exception line below is the root
            if root == idx:
                root = next((i for i in block.exceptions if i > idx), root)
            continue
        is_root = idx == root
        strength = 0.66 if is_root else 0.58
        if short not in _KEPT and (
            _POINTS_ABOVE.search(msg) or _RAY_PROCESS_DIED.match(msg) or _speaks_of_another_family(ln.text)
        ):
            strength = YIELDED  # a carrier of another family's failure: the engine reads its words (rootline.py)
        if chained_after(block.lines, idx):
            strength -= 0.05
        explanation, fix = _root_reading(short, msg)
        out.append(Signal("user_code_error", "user", strength, idx, [ln.raw.rstrip()], explanation, "fix_code", fix))
    return out


# Julia's report of an error nothing caught, as the `julia` command prints it before exiting 1 ("ERROR: LoadError:
# UndefVarError: BSON not defined" for a script, then "Stacktrace:" and numbered frames, or "in expression starting
# at FILE:LINE"; https://docs.julialang.org/en/v1/manual/stacktraces/): Julia's counterpart of Python's last
# traceback line, read the same way (a code error unless its words are another family's)
_JULIA_ERROR = re.compile(r"^ERROR: (?:LoadError: )?(?P<msg>\S.*)$")
_JULIA_TRAILER = re.compile(r"^(?:Stacktrace:\s*$|in expression starting at \S)")


def _julia_uncaught(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    for ln in lines:
        m = _JULIA_ERROR.match(ln.text)
        if m is None or not any(_JULIA_TRAILER.match(x.text) for x in lines[ln.index + 1 : ln.index + 4]):
            continue
        msg = m.group("msg")
        strength = YIELDED if _speaks_of_another_family(msg) else 0.66
        return [
            Signal(
                "user_code_error",
                "user",
                strength,
                ln.index,
                [ln.raw.rstrip()],
                "The Julia program stopped with an error nothing caught (Julia printed it with its stack trace): "
                "a mistake in the program's own code.",
                "fix_code",
                'Fix the code at the line the stack trace points to (the first frame in your own files; "in '
                "expression starting at\" names the script's line), test it on a small input locally, and resubmit.",
            )
        ]
    return []


# A generic exception (ValueError, RuntimeError, OSError, AssertionError, a library's own class) only carries a
# message: when the message speaks another family's documented vocabulary (a path not found, a package not compiled
# with CUDA, a time limit, a rejected setting) and none of this family's, the exception is that failure raised through
# Python, not evidence of a bug in the program. Its signal then drops below the engine's floor (MIN_STRENGTH), and the
# engine's backoff reads the root line by the families' vocabularies (a weak verdict, < 0.8, that says it is one line's
# reading). Python's built-in exceptions about the program's own values keep it (TypeError "applied to an object of
# inappropriate type", IndexError, NameError, UnboundLocalError, ZeroDivisionError, RecursionError:
# https://docs.python.org/3/library/exceptions.html), whatever words their message holds; so do the exceptions whose
# type names a family (ImportError, FileNotFoundError, PermissionError, MemoryError): that family's own rules decide
# them (a circular import of the user's own modules is an ImportError that stays a code error).
YIELDED = 0.45
# Ray's exception for an actor whose process died ("The actor died unexpectedly before finishing this task."): no
# error in the program's code, the process was gone (Ray's details below it say what may have killed it)
_RAY_PROCESS_DIED = re.compile(r"The actor died unexpectedly before finishing this task")
# a wrapper that says its cause was printed before it ("EngineCore encountered an issue. See stack trace (above) for the
# root cause.", "See root cause above"): the exception is the report of another failure, not the failure
_POINTS_ABOVE = re.compile(
    r"\b(?:see|check)\b[^.]{0,60}\b(?:above|earlier|previous|preceding)\b|\broot cause (?:above|earlier)\b",
    re.IGNORECASE,
)
_KEPT = frozenset(
    {"TypeError", "IndexError", "NameError", "UnboundLocalError", "ZeroDivisionError", "RecursionError"}
    | {"ImportError", "ModuleNotFoundError", "FileNotFoundError", "PermissionError", "MemoryError", "OutOfMemoryError"}
)


def _speaks_of_another_family(text: str) -> bool:
    """The exception line reads as another family's vocabulary and not as this family's."""
    from runshepherd.diagnosis.rootline import read_text  # rootline reads the registry this package fills
    from runshepherd.diagnosis.rules.family import FAMILIES

    if read_text(text, {"user_code_error"}) is not None:
        return False
    # (not validation_error's words: "must be", "is required", "not supported" are as common in checks of the
    # program's own values; reading them here cost a right answer on the validation set)
    return read_text(text, set(FAMILIES) - {"user_code_error", "unknown", "validation_error"}) is not None


# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): the words of Python's built-in exceptions
# (TypeError "not subscriptable", "not callable", AttributeError "has no attribute", IndexError "out of range",
# NameError "is not defined") and of tensor libraries' shape and dtype checks ("size mismatch", "mat1 and mat2")
ROOT_WORDS = (
    words(
        r"\bshapes?\b(?:[^.]|\.\S){0,40}\b(?:mismatch|do(?:es)? not match|incompatible|invalid)\b|\bsize mismatch\b"
        r"|\bsizes? of tensors? must match\b|\bmust match the size\b|\bdimensions?\b(?:[^.]|\.\S){0,30}\b(?:mismatch|out of range"
        r"|do(?:es)? not match)\b|\bmat1 and mat2\b|\bdtype\b|\bscalar type\b|\bhas no attribute\b"
        r"|\bnot subscriptable\b|\bnot callable\b|\bnot iterable\b|\bunsupported operand\b|\bobject of type\b"
        r"|\bindex (?:\d+ )?(?:is )?out of (?:range|bounds)\b|\breferenced before assignment\b|\bis not defined\b"
        r"|\btakes \d+ positional\b|\bunexpected keyword argument\b|\bmissing \d+ required positional\b"
        r"|\bunhashable\b|\bcan(?:'|no)t (?:be )?convert(?:ed)?\b|\bnot JSON serializable\b|\bdivision by zero\b"
        r"|\bbroadcast together\b|\brecursion depth\b|\bnot supported between instances\b",
        0.6,
        "a mistake in the program's own code (a shape, a type, an attribute)",
    ),
    # two sizes or shapes of the program's own data that must agree (torch/nn/functional.py: "Target size ({}) must be
    # the same as input size ({})"; "The size of tensor a (3) must match the size of tensor b (4)")
    words(
        r"\b(?:shapes?|sizes?|dimensions?|dims?|lengths?|ranks?)\b(?:[^.]|\.\S){0,60}\bmust (?:be the same|match|agree"
        r"|have the same|be equal)\b",
        0.6,
        "a mistake in the program's own code (a shape, a type, an attribute)",
    ),
    # a check that two sizes of the program's own data agree ("Expected input batch_size (1216) to match target
    # batch_size (1280)")
    words(
        r"\bexpected\b(?:[^.]|\.\S){0,60}\bto match\b",
        0.6,
        "a mistake in the program's own code (a shape, a type, an attribute)",
    ),
)


FAMILY = family(
    "user_code_error",
    origin="user",
    fix_kind="fix_code",
    explanation="The program stopped with an error in its own code.",
    fix_description=_FIX,
    rules=(
        _SHAPES,
        _WEIGHTS_ONLY,
        _BREAKPOINT,
        _PROMPT_WITHOUT_TERMINAL,
        _UNBOUND,
        _SH_NOT_BASH,
        _SCRIPT_NOT_EXECUTABLE,
        _ASSIGNMENT_AS_COMMAND,
        _HOOK_REQUIRED,
        _OPTION_DEFINED_TWICE,
        FunctionRule("root_exception", _root_exception),
        FunctionRule("checkpoint_shapes", _checkpoint_shapes),
        FunctionRule("julia_uncaught", _julia_uncaught),
        FunctionRule("replacement_named", _replacement_named),
        FunctionRule("own_package_not_importable", _own_package_not_importable),
        FunctionRule("own_build_failed", _own_build_failed),
        FunctionRule("cuda_in_forked_worker", _cuda_in_forked_worker),
    ),
    root_words=ROOT_WORDS,
)
