"""A small, self-contained error-block finder (swappable for ``runshepherd.logs`` later).

It prepares log lines for the rules: strips the prefixes schedulers and launchers add (timestamps, ``[task]``,
``[rank0]:``, glog headers), marks benign warnings and traceback source lines (which quote code, not errors),
pulls exit codes out of the text, and locates the root error: the first exception of the first traceback, not
the later noise other ranks and launchers print.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from runshepherd.diagnosis import formats
from runshepherd.diagnosis.formats.compilers import ERROR_AT_SOURCE
from runshepherd.diagnosis.formats.jobstates import JobState, states_in
from runshepherd.diagnosis.formats.noise import BITSANDBYTES_FALLBACK
from runshepherd.diagnosis.lazyregex import LazyRegex
from runshepherd.diagnosis.paste import asides, superseded, unjson, unpaste, unpopup, unrecord
from runshepherd.diagnosis.prefilter import Alternatives, AnyGate, Gated, fold, prefilter_enabled
from runshepherd.diagnosis.severity import is_error_record, is_info_record
from runshepherd.logs.echo import echo_lines

# Prefixes, applied repeatedly: ISO/OSMO/bracketed timestamps, [task][osmo], [rank0]:, "0: ", glog "E0509 12:00:00.1 12 f.cc:3]".
# (a timestamp's column separator goes with it: loguru's "2025-12-28 13:06:19.123 | ERROR    | …" and a driver's
# "17:13:49 |   ValueError: …" relaying its child's traceback, whose own indentation stays)
_PREFIXES = [
    re.compile(r"^\s*\[?\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?\s*(?:\| )?"),
    re.compile(r"^\s*\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\s+(?:\| )?"),
    re.compile(r"^\s*\[[\w.\-]+(?: retry-\d+)?\](?:\[osmo\])?:?\s*"),
    re.compile(r"^\s*\[(?:rank|default)\d+\]:\s*"),
    # Open MPI's --tag-output (mpirun, horovodrun): ``[1,0]<stdout>:``; Ray's worker and actor output:
    # ``(pid=123)``, ``(RayTrainWorker pid=123, ip=10.0.0.2)``
    re.compile(r"^\s*\[\d+,\d+\]<(?:stdout|stderr)>:\s*"),
    # vLLM's process tags carry more fields before the pid: ``(EngineCore_DP0 pid=45)``, ``(VllmWorker rank=0 pid=7)``
    re.compile(r"^\s*\((?:[\w.\-]+ )?(?:\w+=\w+ )*pid=\d+(?:, ip=[\d.]+)?\)\s*"),
    re.compile(r"^\s*\d{1,4}:\s+(?=\S)"),
    re.compile(r"^\s*[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+\s+[\w./-]+:\d+\]\s*"),
    # a logger's record header of level word, date and time, then the emitting file and line (vLLM's ``ERROR 06-17
    # 05:17:35 [core.py:400] ``, older ``ERROR 06-17 05:17:35 engine.py:400] ``): the message after it may be a line of
    # a traceback (logger.exception logs one record per line), whose indentation it keeps (one space is the header's).
    # Not at INFO or DEBUG level: those records are the program's account of its work, read whole as before
    re.compile(
        r"^\s*(?:WARNING|WARN|ERROR|CRITICAL|FATAL)\s+(?:\d{4}-)?\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?"
        r"\s+\[?[\w./-]+:\d+\] ?"
    ),
    re.compile(r"^\s*(?:INFO|DEBUG)\s*[:|-]\s*"),
    # logs pasted into issues and chats: markdown quotes ("> "), list bullets ("* "), pytest's "E   " failure lines
    re.compile(r"^\s*(?:>(?!>)|\*)\s+(?=\S)|^E {3,}(?=\S)"),
    # docker build's plain progress output (BuildKit): "#9 147.6 " = step number and seconds since the build began
    re.compile(r"^\s*#\d+ \d+\.\d+ "),
]
# all prefixes are anchored at the start: one match of their union tells whether any pass could change the line
_ANY_PREFIX = re.compile("|".join(f"(?:{p.pattern})" for p in _PREFIXES))

# ``kubectl describe`` indents its Events table by two spaces
_EVENT_LINE = re.compile(
    r"^\s*(?:Normal|Warning)(?:\s{2,}\w+|\s+(?:[A-Z][a-z]+[A-Z]\w*|Failed|Evicted|Killing|Unhealthy|Preempted|BackOff)\s)"
)
_WARNING = re.compile(
    r"(?:\b\w*Warning\b(?!\s{2,}\w))"  # UserWarning, FutureWarning… but not a k8s "Warning  Reason" event
    r"|^\s*(?:WARNING|WARN|Warning)\b"
    r"|^\s*\[(?:W|WARNING|WARN)[\] ]"
    r"|^\s*W\d{4} "
    r"|\bNCCL WARN\b"
    r"|\blevel=warn"
    r"|\b(?:wandb|tensorflow|absl|accelerate|lightning|transformers|deepspeed|pytorch_lightning|torch|jax)\s*[:\]]\s*WARNING\b"
    r"|\bWARNING\s*[:\]]"
    r"|warnings\.warn\("
)
# Lines that look alarming but are routine in healthy runs; they never count as failure evidence.
_BENIGN = LazyRegex(
    r"Some weights of .* were not (?:initialized|used)"
    r"|You should probably TRAIN this model"
    r"|Gradient overflow\.?\s+Skipping step"
    r"|(?:Attempted loss scale|loss scale(?:r)?|Reducing loss scale|reducing loss scale)\b.*(?:to|->)\s*\d"
    r"|OVERFLOW! Rank \d+ Skipping step"
    r"|Could not load dynamic library"
    r"|\b(?:falling|falls|fell) back (?:to|on)\b|\bfallback to\b|No GPU/TPU found"  # it carries on another way
    r"|retrying in \d|Retrying \(Retry\("
    # a resumed run naming the preemption it recovered from, and a missing file the program chose to skip
    r"|\b(?:previous|last|earlier) (?:attempt|run|job) (?:was|got) preempted|resum\w* (?:after|from) (?:a )?preemption"
    r"|not found\b.{0,60}\bskipp(?:ed|ing)\b|\bskipp(?:ed|ing)\b.{0,40}\bnot found\b"
    # an optional feature the program does without, in its own sentence quoting the import error it caught
    # ("Skipping tfevents export: No module named 'tensorboard'", "[vis] plot skipped: No module named 'matplotlib'",
    # "No module named 'apex', disabling fused Adam"); the error raised ("ModuleNotFoundError: No module named …") is not
    r"|\b(?:skipp(?:ed|ing)|disabl(?:ed|ing)|not (?:be )?(?:used|enabled))\b[^.]{0,60}\bNo module named\b"
    r"|(?<!Error: )\bNo module named\b[^.]{0,60}\b(?:skipp(?:ed|ing)|disabl(?:ed|ing))\b"
    r"|This message is"
    r"|waitForInput: socket .* timed out after 0ms"
    # info-level C++ log lines (c10d, NCCL, glog-in-brackets): ``[I socket.cpp:480] ...``
    r"|^\[I(?:\d{4} [\d:.]+)?\s*(?:\d+\s+)?[\w./-]+\.(?:cpp|cc|cu|h|hpp):\d+\]"
    # the harmless lines the emitters document (TensorFlow/XLA start-up notices, NCCL INFO, slurmstepd's cgroup
    # housekeeping, conda's activate refusal, …: formats/noise.py)
    f"|{formats.pattern_of('benign')}",
    re.IGNORECASE,
)
# Lines that say, in the emitter's own words, that they report no failure: TensorFlow's allocator ("The caller
# indicates that this is not a failure", tsl bfc_allocator.cc) and executor ("this does not indicate an error and you
# can ignore this message"), notices that "can be safely ignored", the dynamic loader skipping an LD_PRELOAD
# object it cannot load (glibc's rtld: "ERROR: ld.so: object '…' from LD_PRELOAD cannot be preloaded (…): ignored.")
_HARMLESS = re.compile(
    r"this is not a failure|does not indicate an error|(?:(?:can|may) (?:be )?safely (?:be )?ignored"
    r"|you can (?:safely )?ignore this (?:message|warning))(?!,? (?:if|unless|when|only)\b)"  # unconditionally
    r"|from LD_PRELOAD cannot be preloaded(?: \(.*\))?: ignored\.",
    re.IGNORECASE,
)
_HARMLESS_G = Gated.of(_HARMLESS)
# glog/absl INFO severity (``I0501 10:00:00.000 1 file.py:9]``): informational by the program's own account
_INFO_SEVERITY = re.compile(r"^\s*(?:\[[^\]]*\]\s*)?I\d{4} \d{2}:\d{2}:\d{2}")
_FRAME = re.compile(r'^\s*File "[^"]+", line \d+')
# a native stack frame as glibc's backtrace_symbols() prints it ("./darknet(parse_yolo+0x148) [0x5c6c92bc4dc8]",
# "/lib/x86_64-linux-gnu/libc.so.6(+0x29d90) [0x797ef21d4d90]"), numbered by the program that dumps it ("3/10: ",
# "#3 ", MXNet/DGL's "[bt] (3) "): the stack of a crash or abort, never the run's output or a count of its work
_NATIVE_FRAME = re.compile(
    r"^\s*(?:\d+/\d+:\s*|#\d+\s+|\[bt\]\s*\(\d+\)\s*)?\S+\([\w.$@:<>~]*(?:\+0x[0-9a-fA-F]+)?\)\s*\[0x[0-9a-fA-F]+\]\s*$"
)
# IPython/Jupyter tracebacks: a frame header (``…/file_utils.py in get_from_cache(url, …)``, IPython 8's ``File
# …/x.py:594, in f(…)``, ``Cell In[3], line 1``) followed by numbered source lines (``    592 …``, ``--> 594 …``)
_IPY_FRAME = re.compile(
    r"^(?:\S+\.py(?::\d+)? in \S+\(|File \S+\.py:\d+, in \S+|Cell In\s*\[\d+\], line \d+|Input In \[\d+\], in "
    r"|<ipython-input-[\w-]+> in )"
)
_IPY_CODE = re.compile(r"^\s*(?:-*>\s*)?\d+\s")
# a severity tag among the stripped prefixes (``[2024-01-01 10:00:00] [WARNING] …``): the line is a warning
_HEAD_WARNING = re.compile(r"\[(?:W|WARN|WARNING)\]|\b(?:WARN|WARNING)\b")  # (the head holds prefixes only)
_TB_START = re.compile(r"Traceback \(most recent call last\)")
# A library's logged record of an error it caught and carried on past, printed with its traceback (``logger.error(…,
# exc_info=True)``): bitsandbytes failing to load its native library at import goes on with a stand-in that raises
# only when a native kernel is called (formats/noise.py), so the traceback under it was not raised either
_LOGGED_FALLBACK = re.compile(BITSANDBYTES_FALLBACK)
# glog/absl's warning header ("W0530 14:48:43.150000 2622492 convert_frame.py:1233] "): a traceback torch logs under it,
# one header per line, is an exception it caught and warned of (dynamo falling back to eager), not one that was raised
_GLOG_WARN_HEAD = re.compile(r"^W\d{4} \d{2}:\d{2}:\d{2}")
_EXC_LINE = re.compile(
    r"^(?P<type>(?:[A-Za-z_][\w]*\.)*_?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure|Fault)"
    # the built-in classes whose names do not end that way (https://docs.python.org/3/library/exceptions.html
    # #exception-hierarchy): a bare ``raise Exception("…")`` is the commonest of all
    r"|(?:builtins\.)?(?:Exception|StopIteration|StopAsyncIteration|(?:Base)?ExceptionGroup)"
    # a C extension's module-level exception class named in lower case (cv2.error, struct.error, zlib.error, re.error),
    # and a package's base class named plain Error (wandb.errors.errors.Error, raised as wandb.Error)
    r"|(?:[A-Za-z_]\w*\.)+(?:error|Error)(?=: )"
    # a class of a package's module of exceptions, whatever its name (gym.error.DeprecatedEnv, docker.errors.NotFound,
    # gymnasium.error.NameNotFound): defined there, it is an exception class
    r"|(?:[A-Za-z_]\w*\.)*(?:errors?|exceptions?)\.[A-Z]\w*(?=: ))(?::\s*(?P<msg>.*)|\s*$)"
)
_WARNING_G, _BENIGN_ALT = Gated.of(_WARNING), Alternatives.of(_BENIGN)


# An error-looking line: a severity field (ERROR/FATAL/CRITICAL, glog/absl ``E``/``F`` headers, Ray's
# ``[time E pid pid]``), a tool's ``error:``/``fatal:`` prefix, a panic, an abort, a kill, a failed step. No family
# needs to know the wording: the verdict uses it so that an unexplained error is "unknown", never "healthy".
_ERRORISH = re.compile(
    r"^\s*(?:\[|\()?(?:ERROR|FATAL|CRITICAL|SEVERE|Error|Fatal|error|fatal)\b\s*[:\]|)~-]"
    r"|^\s*[\w.\-/]+(?:\[\d+\])?:\s+(?:\w+:\s+)?(?:error|fatal|ERROR|FATAL)\b"
    r"|[\s|\]\-]\s*(?:ERROR|FATAL|CRITICAL)\s*[:\]|-]"
    r"|\blevel=(?:error|fatal)\b"
    r"|^\s*panic: |\bAborted\b|\bKilled\b|\bkilled by signal\b|\bcore dumped\b"
    r"|\bfailed with (?:error|exit) code [1-9]|\bterminated with (?:exit )?(?:code|signal)\b"
    r"|^\s*(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception)\b"
    r"|\bException\b.*\b(?:raised|occurred|thrown)\b|\bERROR\b|\bFAILED\b"
    # an error field inside a status/policy line (Ray Train's FailurePolicy: ``…, Error: Training failed due to
    # controller error:``): a capitalised message follows, unlike a metric (``Top-1 Error: 23.1``)
    r"|[\s,;|]Error: [A-Z][a-z]+ \w+|\b(?:failed|aborted|terminated) due to\b"
    # libstdc++'s std::terminate handler, which then aborts the process (vterminate.cc: "terminate called after
    # throwing an instance of '…'", "terminate called without an active exception", "terminate called recursively")
    r"|^\s*terminate called (?:after throwing|without an active exception|recursively)\b"
    # the standalone Lua interpreter's report of an error nothing caught (lua.c and LuaJIT's luajit.c l_message:
    # "<progname>: <message>", then "stack traceback:"), after which it exits 1; Torch7's th runs under it
    r"|^\s*\S*/(?:luajit|lua)(?:\d[\d.]*)?: \S"
    # a command-line tool's failure mark at the head of its message: wasabi's msg.fail (spaCy's CLI: "✘ No compatible
    # package found for 'en_core_news_sm'") and pip's error heading ("× python setup.py bdist_wheel did not run
    # successfully."); not the ❌ a run's own result summary prints ("❌ Not solved (Target: 475.0, Best: 27.00)")
    r"|^\s*[✘×]\s+\S"
    # a compiler's diagnostic at a source position (formats/compilers.py)
    r"|" + ERROR_AT_SOURCE
)
_ERRORISH_RAW = re.compile(
    # (glog's header also when a paste bullets it, "* E0530 23:11:46.299486 1 logging.cc:43]"; SkyPilot's own
    # "E 11-26 17:47:34 backend_utils.py:992]")
    r"^\s*(?:\(\w+\)\s*)?\[[\d\-/: ,.T]+ [EF] \d+ \d+\]|^\s*(?:[*>-]\s+)?[EF]\d{4} \d{2}:\d{2}:\d{2}"
    r"|^\s*(?:[*>-]\s+)?[EF] \d{2}-\d{2} \d{2}:\d{2}:\d{2} [\w./-]+:\d+\]"
    r"|^\s*\[?\d{4}-\d{2}-\d{2} [\d:.]+: [EF] [\w./\-]+\.\w+:\d+\]"  # TensorFlow's C++ log header
)
# lines that carry the word but report no error (counters, summaries, "no errors")
_NOT_ERROR = re.compile(
    r"\b(?:0|no|zero|without) (?:errors?|failures?|failed)\b|\berrors?[:=]\s*0\b|\bfailed[:=]\s*0\b"
    r"|\b(?:error|loss)_?(?:rate|bound|metric)\b|\b(?:mean|squared|absolute|relative) error\b|\bERROR_LOG\b"
    # a report's section title between rules over a list of the items that failed ("==== FAILED EPISODES ====")
    r"|^\s*[=#*~-]{3,}\s*(?:FAILED|ERROR) [A-Z]+S\s*[=#*~-]{3,}\s*$",
    re.IGNORECASE,
)
# The process (or the kernel running it) was ended, said by the runtime around it, at whatever level it logs it: a
# torchrun agent stopping the other workers after one failed (elastic/multiprocessing/api.py: "Sending process 1234
# closing signal SIGTERM", a WARNING), CPython's Py_FatalError ("Fatal Python error: …"), Jupyter's and VS Code's
# kernel-died notices, GNU make's report of a failed recipe ("make: *** [Makefile:3: train] Error 1")
_ENDED = re.compile(
    r"\bSending process \d+ closing signal SIG[A-Z]+|^Fatal Python error: "
    r"|\bkernel (?:for \S+ )?appears to have died\b|\bThe Kernel crashed while executing code\b"
    r"|^g?make(?:\[\d+\])?: \*\*\* .*\bError \d+"
    # an Optuna trial that raised (optuna/study/_optimize.py: v2's "Setting status of trial#0 as TrialState.FAIL
    # because of the following error: TypeError(...)", v3's "Trial 0 failed with parameters: {...} because of the
    # following error: ..."), logged as a warning while the study goes on: the trial, the job's work, failed
    r"|\bTrialState\.FAIL because of the following error\b|\bTrial \d+ failed\b.{0,2000}\bbecause of the following error\b"
)
# a scheduler's or launcher's documented record of a job that ended badly (formats: kind "failed")
_FAILED_RECORD_G = Gated.of(formats.compiled("failed"))
# (a yes/no test: each alternative behind its own gate, so a long line with one literal runs one branch, not all)
_ERRORISH_G = Alternatives.of(_ERRORISH)
_ERRORISH_RAW_G, _NOT_ERROR_G = Gated.of(_ERRORISH_RAW), Gated.of(_NOT_ERROR)

# a logger's INFO/DEBUG severity field at the head of a line, before any word of the message (``[2025-03-19
# 10:01:24,600] [INFO] [runner.py:607:main] …``, vLLM's ``INFO 09-03 16:28:08 [api_server.py:1882] …``, fairseq's
# ``2021-01-29 08:29:52 | INFO | fairseq.trainer | …``, logging's ``INFO:root:…``, the HF examples' and many scripts'
# ``%(asctime)s - %(levelname)s - %(name)s`` format ``01/01/2024 10:00:00 - INFO - __main__ - …``): the program's own
# notices. Every format is read alike: a log of such notices and no error is a weak "routine" healthy verdict.
# Rust's tracing (``2024-03-01T10:00:00.123Z  INFO text_generation_launcher: Starting …``), logfmt (``time=… level=INFO
# source=images.go:123 msg=…``)
_INFO_LEVEL = re.compile(
    r"^[^a-z]{0,40}?(?<![A-Za-z])(?:INFO|DEBUG)(?:\s*\]|\s*\||:|\s+\d|\s+\[|\s+[\w:.\-]+: |\s+-\s)"
    # Hydra's job logging puts the logger's name in brackets before the level ("[2024-01-01 10:00:00,000][__main__]
    # [INFO] - …"), where the field before INFO holds lower-case letters
    r"|^\s*(?:\[[^\]\n]{1,80}\]){1,3}\[(?:INFO|DEBUG)\]"
    # Python logging's "%(asctime)s - %(name)s - %(levelname)s - %(message)s" (the logging cookbook's format): the
    # logger's name, often lower-case, between the stamp and the level ("2021-11-09 18:03:30,159 - mmdet - INFO - …")
    r"|^[^a-z]{0,40}? - [\w.\-]+ - (?:INFO|DEBUG) - "
    r"|^(?:time=\S+\s+)?level=(?:info|debug|INFO|DEBUG)\b"
    r"|^\s*\[?\d{4}-\d{2}-\d{2} [\d:.]+: I [\w./\-]+\.\w+:\d+\]"  # TensorFlow's C++ log header at INFO severity
    # a bracketed one-letter severity after the emitter's tags (TensorRT-LLM's "[07/04/2024-13:50:35] [TRT-LLM] [I] …")
    r"|^\s*(?:\[[^\]\n]{1,40}\]\s*){1,3}\[[ID]\] "
    # llama.cpp's common log ("0.25.727.078 I slot update_slots: …": elapsed time, then the level letter)
    r"|^\s*\d+\.\d\d\.\d{3}\.\d{3} [ID] "
    r"|^\[GIN-debug\] (?!\[(?:ERROR|WARNING)\])"  # gin's debug print (route table, mode notice); never its [ERROR]
)


_FAILING = re.compile(
    r"\b(?:fail\w*|error\w*|exception|unable|cannot|can't|could not|not found|no such|crash\w*|abort\w*|kill\w*"
    r"|hang|hung|stuck|timed? ?out|denied|refused|invalid|corrupt\w*|missing)\b",
    re.IGNORECASE,
)
_FAILING_G, _ENDED_G = Gated.of(_FAILING), Gated.of(_ENDED)


def error_looking(lines: list[Line]) -> Iterator[Line]:
    """Non-warning lines that look like an error (by severity, tool prefix or exception form), in order."""
    for ln in lines:
        if not ln.code and (_ENDED_G.search(ln.text, ln.folded) or _FAILED_RECORD_G.search(ln.text, ln.folded)):
            yield ln  # the process was ended, or its scheduler recorded it failed, whatever level the line was logged at
            continue
        if not ln.usable:
            continue
        if (
            (_ERRORISH_G.found(ln.text, ln.folded) or _ERRORISH_RAW.search(ln.clean) or is_error_record(ln.clean))
            and not _NOT_ERROR_G.search(ln.text, ln.folded)
            and not ln.quiet  # asked last: reading a line's header (severity.py) costs more than the tests before it
        ):
            yield ln


# Python's two sentences between chained tracebacks (PEP 3134): chains.py reads which link it is
DURING_HANDLING = "During handling of the above exception"
DIRECT_CAUSE = "The above exception was the direct cause"
_CHAINED = re.compile(f"{DURING_HANDLING}|{DIRECT_CAUSE}")

_EXIT_PATTERNS = [
    re.compile(r"exit(?:ed with)? code[:=\s]+\(?(-?\d+)", re.IGNORECASE),  # Flyte: "exit code (137)"
    re.compile(r"exit status[:=\s]+(-?\d+)", re.IGNORECASE),
    re.compile(r"\bexitcode\s*:\s*(-?\d+)"),
    re.compile(r"\bexit_code\"?\s*[:=]\s*(-?\d+)"),
    re.compile(r"\bExitCode=(\d+):(\d+)"),
    re.compile(r"\|(?:FAILED|OUT_OF_MEMORY|TIMEOUT|CANCELLED[^|]*|NODE_FAIL|PREEMPTED)\|(\d+):(\d+)"),
    re.compile(r"returned non-zero exit status (-?\d+)"),
    re.compile(r"exited with (?:return )?code (-?\d+)", re.IGNORECASE),
    # a driver's report of the command it ran ("ERROR | Command failed with code 1", "process failed with return code 2")
    re.compile(r"\bfailed with (?:return |exit )?code:? (-?\d+)", re.IGNORECASE),
    re.compile(r"non-zero (?:exit )?status:? (\d+)", re.IGNORECASE),
    re.compile(r"\bExited \((\d+)\)"),  # docker ps / compose status column
    re.compile(r"\berror code:? (-\d+)\b"),  # a negative "error code" is a signal (HTTP codes are positive)
    re.compile(r"\bExit_status=(-?\d+)"),  # PBS qstat -f / tracejob
    re.compile(r"terminated with an error exit status \((\d+)\)"),  # Nextflow's process failure
    re.compile(r"\bexits with return code = (-?\d+)"),  # DeepSpeed's launcher (launch.py, sigkill_handler)
]
# A signal that ended a process, in the words launchers and runtimes use (torchrun's ``Signal 9 (SIGKILL)
# received by PID``, its ``SignalException: Process 7 got signal: 15``, subprocess' ``died with <Signals.SIGKILL:
# 9>``, ``killed by signal 9``): reported as the negative signal number, as Python reports a signalled child.
_SIGNAL_PATTERNS = [
    re.compile(r"\bSignal (\d+) \(SIG[A-Z]+\)"),
    re.compile(r"\bgot signal:? (\d+)\b"),
    re.compile(r"<Signals\.SIG[A-Z]+: (\d+)>"),
    re.compile(r"\b(?:killed|terminated|interrupted|stopped) by signal:? (\d+)\b", re.IGNORECASE),
    # Open MPI / PRRTE's launcher (help-prun.txt [proc-aborted-strsignal]: "mpirun noticed that process rank 0 with
    # PID 7 on node n1 exited on signal 9 (Killed).")
    re.compile(r"\bexited on signal (\d+)\b"),
]
_SIGNAL_NAMES = {"SIGKILL": 9, "SIGTERM": 15, "SIGSEGV": 11, "SIGABRT": 6, "SIGBUS": 7}
# a named signal the process received from outside (not one it sent: torchrun "Sending process 7 closing signal")
_SIGNAL_NAMED = re.compile(
    r"\b(?:received|got|caught|killed by|terminated by|died with) (?:the )?(?:signal:? )?(?:Signals\.)?"
    r"(SIGKILL|SIGTERM|SIGSEGV|SIGABRT|SIGBUS)\b",
    re.IGNORECASE,
)
_EXIT_PATTERNS += [*_SIGNAL_PATTERNS, _SIGNAL_NAMED]
_NEGATED = {id(p) for p in (*_SIGNAL_PATTERNS, _SIGNAL_NAMED)}
_EXIT_GATED = [(Gated.of(p), id(p) in _NEGATED) for p in _EXIT_PATTERNS]
_EXIT_ANY = AnyGate.of([g.gate for g, _ in _EXIT_GATED])


def strip_prefix(line: str) -> str:
    """The message part of a log line, without the timestamps and tags launchers put in front."""
    text = line.rstrip("\r\n")
    for _ in range(4):
        if not _ANY_PREFIX.match(text):  # most lines: nothing to strip (one match instead of seven)
            break
        before = text
        for pat in _PREFIXES:
            text = pat.sub("", text, count=1)
        if text == before:
            break
    return text


def is_event_line(text: str) -> bool:
    return bool(_EVENT_LINE.match(text))


def is_benign(text: str, folded: str | None = None) -> bool:
    """A line the benign list names: routine in healthy runs, never failure evidence at any level."""
    return _BENIGN_ALT.found(text, folded)


def is_warning(text: str, folded: str | None = None) -> bool:
    """A log-level warning or known benign notice (never failure evidence); Kubernetes event types excluded."""
    if is_event_line(text):
        return False
    return bool(_WARNING_G.search(text, folded)) or _BENIGN_ALT.found(text, folded)


# the JVM's report of an uncaught exception (``Exception in thread "main" java.io.FileNotFoundException: …``) and
# the cause a chained one names (``Caused by: java.net.ConnectException: …``): the same type-and-message shape
_JVM_EXC = re.compile(r'^(?:Exception in thread "[^"]*"|Caused by:)\s+(?=(?:[a-z_]\w*\.)+[A-Z])')


def exception_type(text: str) -> tuple[str, str] | None:
    """(type, message) when the line is an exception line: Python's ``ValueError: bad shape``, the JVM's
    ``Exception in thread "main" java.io.FileNotFoundException: x``."""
    m = _EXC_LINE.match(_JVM_EXC.sub("", text.strip(), count=1))
    if not m:
        return None
    return m.group("type"), (m.group("msg") or "").strip()


def exit_codes(texts: list[str]) -> list[int]:
    """Exit codes the text reports, in order (Slurm ``A:B`` pairs give the signal as 128+B when A is 0)."""
    found: list[int] = []
    for t in texts:
        found.extend(_codes_in(t, fold(t)))
    return found


def _codes_in(text: str, folded: str) -> list[int]:
    if prefilter_enabled() and _EXIT_ANY is not None and not _EXIT_ANY.admits(text, folded):
        return []
    found: list[int] = []
    for pat, signal in _EXIT_GATED:
        for m in pat.finditer(text, folded):
            if signal:
                sig = m.group(1)
                found.append(-(int(sig) if sig.isdigit() else _SIGNAL_NAMES[sig.upper()]))
            elif m.lastindex == 2:
                code, sig = int(m.group(1)), int(m.group(2))
                found.append(code if code else (128 + sig if sig else 0))
            else:
                found.append(int(m.group(1)))
    return found


@dataclass
class Line:
    index: int
    raw: str
    text: str
    warning: bool
    code: bool  # quoted source inside a traceback
    folded: str = field(default="", repr=False, compare=False)  # ``text`` as the literal prefilter sees it
    harmless: bool = False  # the line itself says it reports no failure: not even a warning-reading rule uses it
    unpasted: str | None = field(default=None, repr=False, compare=False)  # ``raw`` without a paste's layout
    aside: bool = False  # the person's, not the program's: a typed command, an elision, their own sentence (paste.py)
    # positive.is_progress's answer, kept once asked: the recovery checks scan the lines after each error again
    progress: bool | None = field(default=None, repr=False, compare=False)
    # one of a run of lines counting work towards its total ("(7/21)", positive.mark_counters): weaker than progress
    # for a clean log's verdict, but a sign the run went on past a line before it
    counted: bool = field(default=False, repr=False, compare=False)
    # positive.finished_after's answer for "this line or a later one says the run finished", filled for every line of
    # the log by one backward pass the first time it is asked (it was one regex pass over the tail per error line)
    finish_from: bool | None = field(default=None, repr=False, compare=False)
    # positive.finished_before's answer for "an earlier line said the run finished", filled by one forward pass
    finish_before: bool | None = field(default=None, repr=False, compare=False)
    # positive.says_finished's answer, kept once asked (the recovery checks walk back over the same lines per error)
    finished: bool | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.folded:
            self.folded = fold(self.text)

    @property
    def clean(self) -> str:
        """The raw line once a paste's layout is undone (colour codes, a compose/gutter/list column): for rules
        that read a line's shape (indentation, a leading severity); evidence still quotes ``raw``."""
        return self.raw if self.unpasted is None else self.unpasted

    @property
    def usable(self) -> bool:
        return not self.warning and not self.code and not self.aside and bool(self.text.strip())

    @cached_property
    def quiet(self) -> bool:
        """The record's own header states info or debug level (severity.py, read on the line as the program printed
        it): the program's account of work it went on with. The one severity rule both readers apply: such a line is
        never an error line by its form (:func:`error_looking`: an ``INFO … FAILED to reach the mirror`` notice), and
        a family that reads a failure in its words (NCCL's ``-> 5`` trace at INFO, a NaN loss logged at INFO, TensorFlow
        1's INFO libcuda probe) is weaker than a reading of another family on a line stating no level or a higher one
        (the engine's choice: it yields 0.1, never dropped, since those words name a real failure when nothing louder
        does)."""
        return is_info_record(self.clean)

    @cached_property
    def exit_codes(self) -> tuple[int, ...]:
        """The exit codes this line states (several rules ask; the patterns run once per line)."""
        return tuple(_codes_in(self.text, self.folded))


@dataclass
class ErrorBlock:
    """Prepared lines plus where the root error is (index into ``lines``) and the traceback ranges."""

    lines: list[Line]
    root: int | None = None
    exceptions: list[int] = field(default_factory=list)

    def root_line(self) -> Line | None:
        return self.lines[self.root] if self.root is not None else None

    @cached_property
    def errors(self) -> list[Line]:
        """The error-looking lines (:func:`error_looking`), found once: the verdict asks for them more than once."""
        return list(error_looking(self.lines))

    @cached_property
    def stop_signal(self) -> int | None:
        """Where a server that was answering requests says it received a stop signal
        (:func:`runshepherd.diagnosis.positive.stopped_serving`), found once: the verdict asks more than once."""
        from runshepherd.diagnosis.positive import stopped_serving

        return stopped_serving(self.lines, self.errors)

    @cached_property
    def last_frame(self) -> int | None:
        """The index of the last traceback frame line (``File "…", line N``), found once: every family's traceback
        rule asks when a traceback was cut off before its exception line."""
        return next((ln.index for ln in reversed(self.lines) if _FRAME.match(ln.text)), None)

    @cached_property
    def job_states(self) -> list[tuple[int, JobState]]:
        """Slurm's job states these lines print (:func:`~.formats.jobstates.states_in`), read once: several families
        ask."""
        return states_in([ln.text for ln in self.lines], [ln.folded for ln in self.lines])

    def window(self, before: int = 20, after: int = 10) -> list[Line]:
        if self.root is None:
            return self.lines[-(before + after) :]
        return self.lines[max(0, self.root - before) : self.root + after + 1]


# A line is read up to this many characters (its layout undone); evidence still quotes it whole. Lines longer than this
# are payloads, not messages (a request object with its token ids, a tensor or a JSON document printed on one line),
# and every regex pass over a line is linear in its length at best: a log with four 230,000-character request dumps
# took 2.5 s, while the error sentences the rules read are at most a few hundred characters.
MAX_LINE = 10_000


def prepare(raw_lines: list[str]) -> ErrorBlock:
    """Strip, mark, and find the root error of a list of raw log lines."""
    lines: list[Line] = []
    prev_frame = False
    in_tb = False
    ipy = False  # inside an IPython frame: its numbered source lines are code
    ignored = False  # inside a traceback Python printed after "Exception ignored in …" (it was not raised)
    raw_lines, decoded = unjson(raw_lines)  # a log pasted as one JSON string: its own lines
    raw_lines, cleaned = unpopup(raw_lines, unpaste(decoded))  # a debugger's popup in Python's traceback order
    raw_lines, cleaned = unrecord(raw_lines, cleaned)  # PowerShell's error record around a program's stderr
    cleaned = [c if len(c) <= MAX_LINE else c[:MAX_LINE] for c in cleaned]  # (after unpaste: it reads line lengths)
    aside = asides(cleaned)  # the person's lines in a paste: a typed command, an elision, their own sentence
    past = superseded(cleaned, aside)  # a first attempt the person ran again: not the log they ask about
    if past:
        raw_lines = raw_lines[: past.start] + raw_lines[past.stop :]
        cleaned = cleaned[: past.start] + cleaned[past.stop :]
        aside = aside[: past.start] + aside[past.stop :]
    echo = echo_lines(cleaned)  # the task's command as the scheduler echoed it: source, never the job's output
    for i, (raw, clean) in enumerate(zip(raw_lines, cleaned, strict=True)):
        text = _normalised(strip_prefix(clean), cleaned, i)
        folded = fold(text)
        if aside[i]:  # the person's line: the program's record around it goes on (a traceback, a frame's source)
            lines.append(Line(i, raw, text, warning=False, code=False, folded=folded, unpasted=clean, aside=True))
            continue
        frame = bool(_FRAME.match(text))
        exc = exception_type(text)
        code = prev_frame and not frame and _indented(clean, text) and exc is None
        if _IPY_FRAME.match(text):
            ipy = code = True
        elif frame:
            ipy = True  # IPython's numbered source lines may follow (its frames are given Python's form by unpaste)
        elif ipy and text.strip():
            ipy = bool(_IPY_CODE.match(text))
            code = code or ipy
        head = clean[: len(clean) - len(text)]
        if _TB_START.search(text):
            in_tb = True
        # a traceback's header, frame, source or exception under a glog warning header (an excerpt may start inside it)
        warned = bool(_GLOG_WARN_HEAD.match(head)) and (in_tb or frame or code or exc is not None)
        if (
            text.startswith("Exception ignored in")
            or (text.startswith("Exception in thread") and _tracker_thread(cleaned, i))
            or (_LOGGED_FALLBACK.search(text) and i + 1 < len(cleaned) and _TB_START.search(cleaned[i + 1]))
        ):
            ignored = True
        harmless = bool(_HARMLESS_G.search(text, folded))
        lines.append(
            Line(
                i,
                raw,
                text,
                warning=ignored
                or warned
                or harmless
                or is_warning(text, folded)
                or bool(_INFO_SEVERITY.match(clean))
                or bool(head and _HEAD_WARNING.search(head)),
                code=code or (in_tb and text.strip().startswith("^")) or echo[i] or bool(_NATIVE_FRAME.match(text)),
                folded=folded,
                harmless=harmless,
                unpasted=None if clean == raw else clean,
            )
        )
        if ignored and exc is not None:
            ignored = False
        prev_frame = frame
    block = ErrorBlock(lines)
    for ln in lines:
        if ln.usable and exception_type(ln.text) is not None:
            block.exceptions.append(ln.index)
    block.root = _root_exception(lines, block.exceptions)
    return block


# Pastes in issues and chats: a line wrapped in markdown bold ("**TypeError: can't convert cuda:0 …**"); an
# exception whose message is on the next line, as VS Code's debugger shows it ("Exception has occurred: RuntimeError"
# then the message) or as a bare "AssertionError:" prints when its message starts with a newline
_BOLD = re.compile(r"^(\s*)\*\*(?=\S)(.+?)(?<=\S)\*\*\s*$")
_DEBUGGER_EXC = re.compile(r"^Exception has occurred: ((?:[A-Za-z_][\w.]*\.)?[A-Z]\w*)\s*$")
_EMPTY_EXC = re.compile(r"^((?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception)):\s*$")


def _normalised(text: str, raw_lines: list[str], i: int) -> str:
    """The line as the rules should read it once a paste's layout is undone (the raw line stays the evidence)."""
    if "**" in text:
        m = _BOLD.match(text)
        if m is not None:
            text = m.group(1) + m.group(2)
    m = _DEBUGGER_EXC.match(text) or (_EMPTY_EXC.match(text) if text.endswith(":") or text.endswith(": ") else None)
    if m is None or i + 1 >= len(raw_lines):
        return text
    nxt = strip_prefix(raw_lines[i + 1])
    # a message (a sentence, "[Errno 2] …", "'key'", "(403)"), not an indented frame, a rule line of punctuation,
    # another exception or a warning that happens to follow
    if (
        not nxt[:1].strip()
        or not any(c.isalnum() for c in nxt)
        or _FRAME.match(nxt)
        or _TB_START.search(nxt)
        or exception_type(nxt)
        or is_warning(nxt)
    ):
        return text if _DEBUGGER_EXC.match(text) is None else f"{m.group(1)}:"
    return f"{m.group(1)}: {nxt.strip()}"


# An experiment tracker's client uploads from background threads (wandb's file_stream, mlflow's async logging): when
# one dies, threading's excepthook prints "Exception in thread NAME:" and its traceback, and the training in the
# main thread goes on (the tracker's page may show the run as crashed)
_TRACKER_FRAME = re.compile(r'^\s*File "[^"]*[/\\](?:wandb|mlflow|comet_ml|neptune|clearml|aim)[/\\]')


def _tracker_thread(raw_lines: list[str], i: int) -> bool:
    """The traceback that "Exception in thread" opens at line ``i`` runs in a tracker client's own thread."""
    return any(_TRACKER_FRAME.match(r) for r in raw_lines[i + 1 : i + 12])


def _indented(raw: str, text: str) -> bool:
    """Whether the message was indented (quoted source), even when a stripped prefix swallowed the indentation."""
    if text.startswith((" ", "\t")):
        return True
    head = raw.rstrip("\r\n")[: len(raw.rstrip("\r\n")) - len(text)]
    return head.endswith(("   ", "\t"))


def traceback_end(lines: list[Line], idx: int) -> int:
    """For a line inside a traceback (header, frame, quoted code), the index of the exception line closing it."""
    if idx >= len(lines) or not (_TB_START.search(lines[idx].text) or _FRAME.match(lines[idx].text) or lines[idx].code):
        return idx
    for ln in lines[idx + 1 : idx + 80]:
        if ln.usable and exception_type(ln.text) is not None:
            return ln.index
    return idx


# A parent process' exception that carries its child's traceback after it: torch.multiprocessing.spawn raises
# ProcessRaisedException with the message "\n\n-- Process %d terminated with the following error:\n" followed by the
# worker's own traceback (torch/multiprocessing/spawn.py, ProcessContext.join), so the wrapper prints first and the
# cause second, the reverse of Python's chained tracebacks
_CAUSE_BELOW = re.compile(r"^\s*-- Process \d+ terminated with the following error:")


def cause_below(lines: list[Line], idx: int) -> bool:
    """The exception at ``idx`` is a parent's report of a child's error printed after it (``_CAUSE_BELOW``)."""
    return any(_CAUSE_BELOW.match(ln.text) for ln in lines[idx + 1 : idx + 4])


def _root_exception(lines: list[Line], exceptions: list[int]) -> int | None:
    """The first exception that ends a traceback (chained tracebacks: the first one is the cause)."""
    for idx in exceptions:
        if cause_below(lines, idx):
            continue  # a parent's report whose cause is printed after it: the child's traceback below is the root
        # an exception line that closes a traceback: some frame line appears shortly above it
        window = lines[max(0, idx - 40) : idx]
        if any(_FRAME.match(w.text) for w in window) or any(_TB_START.search(w.text) for w in window):
            return idx
    return exceptions[0] if exceptions else None


def chained_after(lines: list[Line], idx: int) -> bool:
    """True when a chained-exception marker precedes ``idx`` (so it is a consequence, not the cause)."""
    return any(_CHAINED.search(ln.text) for ln in lines[max(0, idx - 60) : idx])
