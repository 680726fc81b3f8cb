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

from runshepherd.diagnosis.paste import unpaste
from runshepherd.diagnosis.prefilter import Alternatives, AnyGate, Gated, fold, prefilter_enabled

# Prefixes, applied repeatedly: ISO/OSMO/bracketed timestamps, [task][osmo], [rank0]:, "0: ", glog "E0509 12:00:00.1 12 f.cc:3]".
_PREFIXES = [
    re.compile(r"^\s*\[?\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?\s*"),
    re.compile(r"^\s*\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\s+"),
    re.compile(r"^\s*\[[\w.\-]+(?: retry-\d+)?\](?:\[osmo\])?:?\s*"),
    re.compile(r"^\s*\[(?:rank|default)\d+\]:\s*"),
    # Open MPI's --tag-output (mpirun, horovodrun): ``[1,0]<stdout>:``; Ray's worker and actor output:
    # ``(pid=123)``, ``(RayTrainWorker pid=123, ip=10.0.0.2)``
    re.compile(r"^\s*\[\d+,\d+\]<(?:stdout|stderr)>:\s*"),
    # vLLM's process tags carry more fields before the pid: ``(EngineCore_DP0 pid=45)``, ``(VllmWorker rank=0 pid=7)``
    re.compile(r"^\s*\((?:[\w.\-]+ )?(?:\w+=\w+ )*pid=\d+(?:, ip=[\d.]+)?\)\s*"),
    re.compile(r"^\s*\d{1,4}:\s+(?=\S)"),
    re.compile(r"^\s*[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+\s+[\w./-]+:\d+\]\s*"),
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
_BENIGN = re.compile(
    r"Some weights of .* were not (?:initialized|used)"
    r"|You should probably TRAIN this model"
    r"|Gradient overflow\.?\s+Skipping step"
    r"|(?:Attempted loss scale|loss scale(?:r)?|Reducing loss scale|reducing loss scale)\b.*(?:to|->)\s*\d"
    r"|OVERFLOW! Rank \d+ Skipping step"
    r"|Could not load dynamic library"
    r"|Unable to register cu(?:DNN|FFT|BLAS) factory"
    r"|TF-TRT Warning"
    r"|\b(?:falling|falls|fell) back (?:to|on)\b|\bfallback to\b|No GPU/TPU found"  # it carries on another way
    r"|oneDNN custom operations are on"
    r"|retrying in \d|Retrying \(Retry\("
    r"|NCCL INFO"
    # a resumed run naming the preemption it recovered from, and a missing file the program chose to skip
    r"|\b(?:previous|last|earlier) (?:attempt|run|job) (?:was|got) preempted|resum\w* (?:after|from) (?:a )?preemption"
    r"|not found\b.{0,60}\bskipp(?:ed|ing)\b|\bskipp(?:ed|ing)\b.{0,40}\bnot found\b"
    r"|tokenizers: The current process just got forked"
    r"|This (?:TensorFlow binary|message) is"
    r"|waitForInput: socket .* timed out after 0ms"
    # error-severity (absl ``E0000``) lines XLA, TensorFlow and gRPC print on healthy runs: the slow-operation
    # alarm during compilation (xla/service/slow_operation_alarm.cc: "Constant folding an instruction is taking
    # > 1s", "The operation took 2.1s"), the GPU timer's warm-up notice, gRPC's shutdown timeout at exit
    # (init.cc "grpc_wait_for_shutdown_with_timeout() timed out"), the duplicate registration notices of TF's
    # CUDA plugins and computation placer, grappler's layout optimiser giving up on one node
    r"|Constant folding an instruction is taking|^The operation took [\dhms.]+$"
    r"|Delay kernel timed out: measured time has sub-optimal accuracy"
    r"|grpc_wait_for_shutdown_with_timeout\(\) timed out|computation placer already registered"
    r"|meta_optimizer\.cc:\d+\] (?:layout|remapper|arithmetic_optimizer|constant_folding) failed"
    # wandb's system monitor when NVML cannot read a GPU counter: the run goes on
    r"|wandb: ERROR Failed to sample metric"
    # Ray's optional dashboard UI failing to start (ray/_private/services.py logs these at ERROR and goes on
    # without it: "Failed to start the dashboard", "Couldn't read dashboard.log file", "Failed to read dashboard.err")
    r"|services\.py:\d+ -- (?:Failed to start the dashboard|Error should be written to 'dashboard\.log'"
    r"|Couldn't read dashboard\.log file|Failed to read dashboard\.err file)"
    # xFormers at import on a machine without Triton (Windows): it names the missing module and carries on
    r"|A matching Triton is not available, some optimizations will not be enabled|Error caught was: No module named 'triton'"
    # slurmstepd's cgroup housekeeping as a step ends (moving the step's pids back to the root cgroup, unlocking or
    # removing the step's cgroup): the node's bookkeeping, after the job's own processes have exited
    r"|^slurmstepd(?:-\S+)?: error: (?:common_file_write_uint32s: write pid \d+ to \S*cgroup\S*"
    r"|Unable to move pid \d+ to init root cgroup|error unlocking cgroup|Unable to remove cgroup|_?rmdir\(\S*cgroup)"
    # conda's refusal of ``conda activate`` in a shell ``conda init`` never set up (a batch script): the script goes
    # on in the environment it already has; a run that then lacks a package fails with an error of its own
    r"|CommandNotFoundError: Your shell has not been properly configured to use 'conda activate'"
    # info-level C++ log lines (c10d, NCCL, glog-in-brackets): ``[I socket.cpp:480] ...``
    r"|^\[I(?:\d{4} [\d:.]+)?\s*(?:\d+\s+)?[\w./-]+\.(?:cpp|cc|cu|h|hpp):\d+\]",
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
# IPython/Jupyter tracebacks: a frame header (``…/file_utils.py in get_from_cache(url, …)``, IPython 8's ``File
# …/x.py:594, in f(…)``, ``Cell In[3], line 1``) followed by numbered source lines (``    592 …``, ``--> 594 …``)
_IPY_FRAME = re.compile(
    r"^(?:\S+\.py(?::\d+)? in \S+\(|File \S+\.py:\d+, in \S+|Cell In\s*\[\d+\], line \d+|Input In \[\d+\], in "
    r"|<ipython-input-[\w-]+> in )"
)
_IPY_CODE = re.compile(r"^\s*(?:-*>\s*)?\d+\s")
# a severity tag among the stripped prefixes (``[2024-01-01 10:00:00] [WARNING] …``): the line is a warning
_HEAD_WARNING = re.compile(r"\[(?:W|WARN|WARNING)\]")
_TB_START = re.compile(r"Traceback \(most recent call last\)")
_EXC_LINE = re.compile(
    r"^(?P<type>(?:[A-Za-z_][\w]*\.)*_?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure|Fault))(?::\s*(?P<msg>.*)|\s*$)"
)
# A failure that the program itself retried: a retry notice right after it, then proof that the retry worked
# (an explicit success line, or the run finishing normally with no repeat of the same failure).
_RETRY = re.compile(
    r"\bretry(?:ing)?\b|\[Retry \d+/\d+\]|entering retry loop|attempt \d+(?:/\d+)? failed|will retry|trying again"
    r"|\bPulling image\b"  # the kubelet announces each new pull attempt
    # a client that falls back after a failed request: huggingface_hub logs "'<error>' thrown while requesting
    # HEAD <url>" and retries or uses its cache; datasets' "Will try to load from local cache"
    r"|thrown while requesting (?:HEAD|GET)\b|\bwill try to load from (?:the )?(?:local )?cache\b",
    re.IGNORECASE,
)
_RECOVERED = re.compile(
    r"\b(?:attempt|retry|try) #?\d+(?:/\d+)?:? (?:succeeded|ok\b|successful|passed)|succeeded (?:on|after) (?:retry|attempt)"
    r"|\berror resolved|\bresolved after\b|resuming normal operation|Successfully (?:pulled|downloaded|connected|reconnected)"
    r"|\breconnected\b|connection (?:re-?)?established"
    # the retried download went through: pip installed it, the progress bar reached its end, the cache served it
    r"|Using the latest cached version\b|\bFound cached dataset\b"
    r"|^Successfully installed \S|\b100%\|[^|]*\|\s*[\d.]+[kMG]?i?B?/[\d.]+",
    re.IGNORECASE,
)
_FINISHED = re.compile(
    r"Training completed|training (?:complete|completed|finished|done)\b|finished successfully|exit(?:s|ed)? successfully"
    r"|\bexit(?:ed with)? (?:code|status)[:= ]+0\b|\bexitcode: 0\b|worker group successfully finished|\bJob succeeded"
    r"|\ball done\b|`Trainer\.fit` stopped: `max_(?:epochs|steps)"
    r"|\{'train_runtime': [\d.]+"  # the HF Trainer's summary, printed once train() has returned
    # the same metrics through Trainer.log_metrics ("***** train metrics *****", "  train_runtime  = 0:36:58.55") or
    # in wandb's run summary ("wandb:            train_runtime 473.0422")
    r"|^\*{5} train metrics \*{5}|^\s*(?:wandb:\s+)?train_runtime\s*=?\s*\d[\d:.]*\s*$"
    r"|^={3,} \d+ passed\b|\bbenchmark complete\b|^\S+\s+\d+/\d+\s+Completed\s+\d+\s"  # pytest, kubectl get pods
    # a job's final state in a status column (Kubeflow/Argo/Kubernetes ``Succeeded``), Ray Tune trials that ended
    # normally (``TERMINATED``, where a failed trial is ``ERROR``), a benchmark's result summary
    r"|^\s*\S+\s+Succeeded\b|\b(?:phase|status|state):\s*Succeeded\b|\bJob \S+ (?:has )?succeeded\b"
    r"|\(\d+ TERMINATED\)|\b\w+_[0-9a-f]{5}_\d{5}\s*[│|]?\s+TERMINATED\b"
    # older Ray Tune: the trial counts as a dict ("Number of trials: 1000 ({'TERMINATED': 252, 'RUNNING': 63})"),
    # trial ids of eight hex digits ("| PG_CartPole-v0_61e5eca8 | TERMINATED |")
    r"|\bNumber of trials: \d+ \(\{[^}]*'TERMINATED': [1-9]|\b\S+_[0-9a-f]{8}\s*[│|]\s*TERMINATED\s*[│|]"
    # HTCondor's job event log: event 005 "Job terminated." then "(1) Normal termination (return value 0)"
    r"|\(1\) Normal termination \(return value 0\)"
    r"|\bBenchmark Results?\b.*={3,}|^Successful requests:\s+[1-9]"
    # Slurm's COMPLETED state (every process exited 0): scontrol ``JobState=COMPLETED``, seff ``State: COMPLETED``,
    # an sacct row ``COMPLETED      0:0``
    r"|\bJobState=COMPLETED\b|^State: COMPLETED\b|\sCOMPLETED\s+0:0\b"
    # LSF's job report for a job that exited 0 (a failed one says "Exited with exit code N.")
    r"|^Successfully completed\.\s*$"
    # a job, run or workflow saying it ended well (submitit's "Job completed successfully")
    r"|\b(?:job|run|training|task|workflow|pipeline|experiment)s? (?:has |have )?(?:completed|finished|succeeded|ended) "
    r"successfully|\[after training is done\]"  # Megatron-LM's last line of pretrain()
    r"|\b(\d+) of \1 steps \(100%\) done",  # Snakemake, once every job of the workflow is done
    re.IGNORECASE,
)
# A run that got past its start-up: training announced, a server up, distributed workers joined, the
# communicators built, an experiment tracker syncing the run. Weaker than progress: it shows the run was alive,
# not that it advanced.
_STARTED = re.compile(
    r"\*{3,} Running training \*{3,}|\b(?:start(?:s|ed|ing)?|begin(?:s|ning)?) (?:\w+ ){0,2}training\b"
    r"|\btraining (?:has )?(?:started|begins)\b"
    r"|Started server process|Application startup complete|Uvicorn running on|Starting \S+ (?:API )?server on https?://"
    r"|\b(?:Serving|Listening) on https?://|Running on (?:local URL:\s*)?https?://"
    r"|initializing (?:ddp|distributed): GLOBAL_RANK|\binitialized host \S+ as rank \d+|distributed init \(rank \d+\)"
    r"|\bjoined (?:round \d+ of )?the \w+ rendezvous|Completed store-based barrier|All distributed processes registered"
    r"|starting workers for entrypoint|\bStarted container \S+"
    r"|Setting OMP_NUM_THREADS environment variable for each process"  # torchrun, as it starts the workers
    r"|^(?:wandb: )?(?:Run page|🚀 View run at|View run at):? https?://|Logging results to Weights & Biases"
    r"|NCCL INFO .*Init COMPLETE|NCCL INFO Connected all (?:rings|trees)|NCCL INFO (?:Ring|Channel) \d+(?:/\d+)? : .* via "
    r"|NCCL INFO (?:comm \S+ )?rank \d+ nranks \d+|^NCCL version \d"
    r"|^wandb: (?:Syncing run|Tracking run with wandb)"
    r"|\bJob '?\S+'? submitted successfully|Started a local Ray instance|Ray runtime started"
    # Lightning's Trainer before fit (the accelerator lines, the model summary), accelerate launch's notice of
    # defaults as it starts the processes, TensorFlow placing itself on a GPU
    r"|^GPU available: (?:True|False)\b|^\s*[\d.]+\s*[KMGT]?\s+Trainable params\b"
    r"|following values were not passed to `accelerate launch`|\bCreated device /job:\w+/replica:\d+/task:\d+/device:GPU"
    # Keras' model.summary() before fit; inference servers up (Triton's services, TorchServe, TensorBoard, servers
    # "listening at" an address)
    r"|\*{3,} Running (?:Evaluation|Prediction) \*{3,}|\bStarting worker group\b"
    r"|^Trainable params: [\d,]+|\bStarted (?:GRPCInferenceService|HTTPService|Metrics Service) at "
    r"|\bModel server started\b|^TensorBoard \S+ at https?://|\blistening (?:at|on):? https?://"
    # a job the scheduler shows running: squeue's ST column R, scontrol's JobState=RUNNING, kubectl's Running pod,
    # and nvidia-smi's process table with a process holding GPU memory
    r"|^\s*\d+(?:_\[?[\d\-,]+\]?)?\s+\S+\s+\S+\s+\S+\s+R\s+(?:\d+-)?(?:\d+:)?\d+:\d+\s+\d+\s"
    r"|\bJobState=RUNNING\b|^\S+\s+\d+/\d+\s+Running\s+\d+"
    # a job report (Princeton's jobstats, seff) of a job still running: "State: RUNNING", "Run Time: 00:16:10 (in
    # progress)"
    r"|^\s*State: RUNNING\s*$|^\s*Run Time: [\d:-]+ \(in progress\)"
    r"|^\|\s+\d+\s+(?:N/A\s+){0,2}\d+\s+[CG](?:\+G)?\s+\S+\s+\d+MiB\s+\|"
    # a step that went through before the run itself: pip/docker builds, a job accepted by Slurm or Kubernetes, a
    # model loaded by an inference UI (stable-diffusion-webui's "Model loaded in 4.2s", its "Startup time: 7.8s")
    r"|^Successfully (?:installed|built|tagged) \S|^Submitted batch job \d+|^\S+/\S+ created$"
    r"|\b(?:Model|Weights|Checkpoint|Pipeline) loaded in [\d.]+ ?s\b|^Startup time: [\d.]+ ?s\b"
    # Lightning's accelerator, as the Trainer sets up a fit/validate/test (accelerators/cuda.py: "LOCAL_RANK: 0 -
    # CUDA_VISIBLE_DEVICES: [0,1]")
    r"|^LOCAL_RANK: \d+ - CUDA_VISIBLE_DEVICES: \[",
    re.IGNORECASE,
)
_WARNING_G, _BENIGN_ALT = Gated.of(_WARNING), Alternatives.of(_BENIGN)
_RETRY_G, _RECOVERED_G, _FINISHED_G = Gated.of(_RETRY), Gated.of(_RECOVERED), Gated.of(_FINISHED)
RETRY_WINDOW = 6
RECOVERY_WINDOW = 25


def retried_at(lines: list[Line], idx: int) -> int | None:
    """Index of a retry notice on or shortly after line ``idx`` (any level: retry notices are often warnings)."""
    for ln in lines[idx : idx + RETRY_WINDOW + 1]:
        if _RETRY_G.search(ln.text, ln.folded):
            return ln.index
    return None


def recovered_after(lines: list[Line], idx: int) -> bool:
    """True when a line soon after a retry says the retry worked."""
    return any(_RECOVERED_G.search(ln.text, ln.folded) for ln in lines[idx : idx + RECOVERY_WINDOW + 1])


_RESOLVED = re.compile(r"\berror resolved|\bresolved after\b|resuming normal operation", re.IGNORECASE)
_RESOLVED_G = Gated.of(_RESOLVED)


def resolved_later(lines: list[Line], idx: int) -> bool:
    """True when a later line says, in so many words, that the retried problem went away (background clients such
    as wandb retry for minutes while training goes on, so this can come long after the retry notice)."""
    return any(_RESOLVED_G.search(ln.text, ln.folded) for ln in lines[idx + 1 :])


def progressed_after(lines: list[Line], idx: int, steps: int = 2, skip: frozenset[int] = frozenset()) -> bool:
    """True when, after ``idx``, the log shows progress on at least ``steps`` distinct lines (steps advancing, a
    progress bar moving, metrics logged) that are not themselves errors (nor listed in ``skip``): the program
    went on past whatever line ``idx`` reported. A tracker's teardown is not that: wandb prints its run history and
    summary (``wandb: train_loss 4.5044``) from an exit hook, after the traceback that ended the run."""
    seen: set[str] = set()
    for ln in lines[idx + 1 :]:
        if ln.text in seen or ln.index in skip or not _PROGRESS_G.search(ln.text, ln.folded):
            continue
        if ln.text.startswith("wandb:"):
            continue
        if ln.usable and _ERRORISH_G.search(ln.text, ln.folded):
            continue
        seen.add(ln.text)
        if len(seen) >= steps:
            return True
    return False


def finished_after(lines: list[Line], idx: int) -> bool:
    """True when the log, after ``idx``, says the run finished normally."""
    return any(_FINISHED_G.search(ln.text, ln.folded) for ln in lines[idx + 1 :])


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
    r"|\b(?:error|loss)_?(?:rate|bound|metric)\b|\b(?:mean|squared|absolute|relative) error\b|\bERROR_LOG\b",
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
)
_ERRORISH_G, _ERRORISH_RAW_G, _NOT_ERROR_G = Gated.of(_ERRORISH), Gated.of(_ERRORISH_RAW), Gated.of(_NOT_ERROR)

# Positive evidence that a run works: progress (steps, epochs, progress bars, loss values, throughput) or a
# completion marker. "healthy" needs one of these (or an exit code of 0).
_PROGRESS = re.compile(
    r"\b(?:epoch|step|iter(?:ation)?|global_step|batch)\b\s*[:=#]?\s*\[?\d+"
    r"|\d+/\d+ \[\d+:\d+|\d+%\|"
    r"|\b\d+(?:\.\d+)?\s*(?:it/s|s/it|samples/s(?:ec)?|tokens/s(?:ec)?|examples/s(?:ec)?|img/s|images/s(?:ec)?"
    r"|req(?:uest)?s/s(?:ec)?|toks?/s|frames/s(?:ec)?)\b"
    r"|\b(?:throughput|latency|MFU|TFLOPs?)\b[^\n\d]{0,24}[:=]\s*\d"  # a benchmark's or a trainer's speed report
    # throughput and timing the other way round (``examples/sec: 14.6``, ``Tokens/s/GPU: 8678``), step-time profiles
    r"|\b(?:tokens|samples|examples|images|img|sequences|seqs|it|iters?|global_step|steps?|TFLOP)/s(?:ec)?(?:/GPU)?\s*[:=]\s*\d"
    r"|\b(?:iter(?:ation)?|step|batch) time\s*[:=]\s*\d|\bover \d+ (?:steps|iterations|batches|epochs)\b"
    # evaluation metrics with a value (``val_top1: 0.346``, ``bleu = 27.1``)
    r"|(?:^|[\s_/-])(?:top-?\d+|f1|bleu|rouge-?\w*|auc|iou|wer|cer|mae|mse|rmse|map(?:@[\d.:]+)?)\s*[:=]\s*-?\d*\.\d+"
    # YOLO's validation row for all classes ("  all   128   929   0.684   0.587   0.651   0.436"); transformers'
    # save_pretrained ("Model weights saved in ./out/model.safetensors", "Configuration saved in ./out/config.json")
    r"|^\s*all\s+\d+\s+\d+(?:\s+\d?\.\d+){4,}\s*$|^(?:Model weights|Configuration) saved in \S"
    r"|\b(?:train_|val_|eval_|valid_|test_)?loss(?:es)?\b['\"]?\s*[:=]?\s*-?\d+\.\d+"
    r"|\b(?:accuracy|acc|perplexity|ppl|lr|learning_rate)\b['\"]?\s*[:=]\s*-?\d"
    r"|\bsav(?:ed|ing) (?:\w+ ){0,2}(?:checkpoint|model|weights)\b"
    # a program's own short notice that it wrote its results ("Medians saved.", "Predictions saved to out.csv")
    r"|^\s*[A-Z]\w*(?: \w+){0,3} (?:saved|written)(?: (?:to|in|into|at) \S+)?\s*[.!]?\s*$"
    # a warning raised inside the forward/backward pass or the optimiser step: a step ran
    r"|(?:torch/utils/checkpoint|torch/autograd/[\w/]+|torch/optim/lr_scheduler)\.py:\d+: \w*Warning"
    r"|\[W reducer\.cpp:\d+\]|\blr_scheduler\.py:\d+:"  # DDP's reducer warns in backward; the scheduler at step
    # a drawn progress bar (rich's ━━━, tqdm's █ blocks), boosting libraries' eval lines (xgboost
    # "[10]\tvalidation_0-rmse:0.31", LightGBM "[100]\tvalid_0's auc: 0.91"), Stable-Baselines3's logger table
    # ("|    total_timesteps | 2048 |"), an RL reward, Optuna's "Trial 3 finished with value: 0.91", wandb's run
    # history/summary printed as a run ends
    r"|[━█▉▊▋]{4,}|^\[\d+\]\s+\w+(?:-\w+|'s \w+):\s*-?\d+\.\d+"
    r"|^\|\s+(?:total_timesteps|ep_rew_mean|ep_len_mean|fps|time_elapsed|n_updates)\s+\|\s+-?[\d.e+\-]+\s+\|"
    r"|\b(?:episode_)?reward(?:_mean)?\b\s*[:=]\s*-?\d|\bTrial \d+ finished with values?: "
    r"|^wandb: (?:Run summary|Run history):"
    # an accuracy stated in percent ("Accuracy of the network on the 10000 test images: 54 %"), a program's own
    # last word ("Done!", the PyTorch tutorials' end of training)
    r"|\b(?:accuracy|acc)\b[^\n%]{0,60}?\d+(?:\.\d+)?\s*%|^\s*(?:All )?(?:Done|Finished|Completed?)\s*[.!]*\s*$"
    r"|\b(?:finished|completed|done) training\b"
    # a server answering requests (an access-log line with a 2xx status), a tuner's run summary
    r'|"(?:GET|POST|PUT) /\S* HTTP/\d(?:\.\d)?" 2\d\d\b|\bTotal run time: [\d.]+ s'
    # inference and evaluation reporting their work: llama.cpp's timings ("… ms per token, 102.88 tokens per second"),
    # ComfyUI's "Prompt executed in 3.45 seconds", ultralytics' "Speed: 1.2ms preprocess" and "Results saved to",
    # Whisper's transcript segments ("[00:00.000 --> 00:05.000]"), the HF Trainer's returned TrainOutput and its
    # notebook table header ("Epoch  Training Loss  Validation Loss"), unittest's summary
    # Flower's federated server after each round ("fit progress: (3, 3.1196, {'cen_accuracy': 0.09975}, 384.7)":
    # round, centralised loss, metrics, seconds; flwr/server/server.py)
    r"|\bfit progress: \(\d+, -?\d+(?:\.\d+)?, "
    r"|\btokens? per second\b|\bms per token\b|\bPrompt executed in [\d.]+ seconds\b|^Speed: [\d.]+ ?ms preprocess"
    r"|\bResults saved to\b|^\[\d{2}:\d{2}(?::\d{2})?\.\d{3} --> \d{2}:\d{2}(?::\d{2})?\.\d{3}\]"
    r"|\bTrainOutput\(global_step=\d+|^\s*(?:Step|Epoch)\s+Training Loss\b|^Ran \d+ tests? in [\d.]+s\s*$"
    # a row of a training table: epoch/epochs then four or more numeric columns (YOLO's "38/89  5.62G  0.02079 …")
    r"|^\s*\d+/\d+(?:\s+-?\d+(?:\.\d+)?(?:e[-+]?\d+)?[KMG]?){4,}\s*$"
    # evaluation results: lm-evaluation-harness's table (a value column then "±" and its stderr: "|acc |0.5734|±
    # |0.0049|"), scikit-learn's classification_report header ("precision    recall  f1-score   support")
    r"|\|\s*-?\d*\.\d+\s*\|\s*±\s*\|\s*-?\d*\.\d+\s*\||^\s+precision\s+recall\s+f1-score\s+support\s*$",
    re.IGNORECASE,
)
_PROGRESS_G, _STARTED_G = Gated.of(_PROGRESS), Gated.of(_STARTED)
_LOADING_BAR = re.compile(r"^\s*(?:Loading|Downloading|Fetching)\b[^|\n]{0,60}(?:\d+%|\d+/\d+)", re.IGNORECASE)
# a loss named with a prefix or suffix, as a key with a value ("'training_loss': 0.44", "loss_mask: 0.12", GANs'
# "D_loss: 0.31"): progress for a log with no error, too loose (a test net's outputs) to show a run went on past one;
# a value blown up to an exponent of 10 or more ("main/loss_ctc": -5.67e+35) is a diverging run, not progress
_LOSS_KEY = re.compile(r"\b(?:\w+_loss|loss_\w+)\b['\"]?\s*[:=]\s*-?\d+\.\d+(?!\d|e\+?\d\d)", re.IGNORECASE)
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
    r"|^(?:time=\S+\s+)?level=(?:info|debug|INFO|DEBUG)\b"
    r"|^\s*\[?\d{4}-\d{2}-\d{2} [\d:.]+: I [\w./\-]+\.\w+:\d+\]"  # TensorFlow's C++ log header at INFO severity
)


# A row of a directory listing naming a non-empty weights or results file: coreutils ``ls -l`` ("-rw-r--r-- 1 root root
# 104868128 Jan  9 18:16 adapter_model.safetensors", sizes also as -h's "4.6G") and cmd.exe's ``dir`` ("01/09/2024
# 06:16 PM       104,868,128 adapter_model.safetensors")
_OUTPUT_FILE = re.compile(
    r"^\s*(?:-[rwxsStT-]{9}[.+@]?\s+\d+\s+\S+\s+\S+\s+[1-9][\d.,]*[KMGT]?\s+\S+\s+\S+\s+\S+"
    r"|\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}\s+\d{1,2}:\d{2}(?:\s*[AP]M)?\s+[1-9][\d,.]*)\s+"
    r"\S*(?:\.(?:safetensors|bin|pt|pth|ckpt|h5|keras|onnx|gguf|tflite|pb|msgpack|pdparams)|_?results?\.json)\s*$",
    re.IGNORECASE,
)

# A library's advice printed bare (transformers' loggers print the message alone: "Setting `pad_token_id` to
# `eos_token_id`:50256 for open-end generation.", "… you may observe unexpected behavior. Please pass your input's
# `attention_mask` …", "We strongly recommend passing in an `attention_mask` …", "`use_cache=True` is incompatible with
# gradient checkpointing. Setting `use_cache=False`.", "max_steps is given, it will override any value given in
# num_train_epochs", "… Default to no truncation.", "Device set to use cuda:0"; torch.distributed.elastic's "NOTE:
# Redirects are currently not supported in Windows or MacOs."): routine talk when nothing in it says something failed
_ADVISORY = re.compile(
    r"\b(?:is|are) deprecated\b|\bdeprecated!|\bwill be removed in\b|\bstrongly recommend|\bit is recommended to\b"
    r"|\bplease (?:note|pass|set|consider|use)\b|\byou should (?:set|consider)\b|\bmake sure the\b"
    r"|\byou may (?:observe|see|want|experience)\b|^Deprecated\b|\b(?:disable|avoid|silence) this warning\b"
    r"|^`?Setting `[^`]+` to `?\w|\bwill override any value\b|\bDefault to no\b|\bwill not have any effect\b"
    r"|^Device set to use \w|\bcurrently not supported (?:in|on) Windows\b",
    re.IGNORECASE,
)
_FAILING = re.compile(
    r"\b(?:fail\w*|error\w*|exception|unable|cannot|can't|could not|not found|no such|crash\w*|abort\w*|kill\w*"
    r"|hang|hung|stuck|timed? ?out|denied|refused|invalid|corrupt\w*|missing)\b",
    re.IGNORECASE,
)


def _advisory(ln: Line) -> bool:
    return ln.usable and bool(_ADVISORY.search(ln.text)) and not _FAILING.search(ln.text)


def error_looking(lines: list[Line]) -> Iterator[Line]:
    """Non-warning lines that look like an error (by severity, tool prefix or exception form), in order."""
    for ln in lines:
        if not ln.code and _ENDED.search(ln.text):
            yield ln  # the process was ended, whatever level the line was logged at
            continue
        if not ln.usable:
            continue
        if (_ERRORISH_G.search(ln.text, ln.folded) or _ERRORISH_RAW.search(ln.clean)) and not _NOT_ERROR_G.search(
            ln.text, ln.folded
        ):
            yield ln


# A bare row of numbers a training script prints each step or epoch (``7, 0.044, 17.460, 2.587``, ``76970 2.6265``),
# optionally after a timestamp tag closed by ``]`` or as a markdown table row (``| 1 | 0.52 | 0.61 |``): the first
# column is a counter, the others are measured values
_COUNTER_ROW = re.compile(
    r"^\s*(?:\S{0,40}\]\s*|\|\s*)?(?P<n>\d{1,9})(?P<rest>(?:(?:\s*[,|;]\s*|\s+)-?\d*\.?\d+(?:e[-+]?\d+)?%?){1,12})\s*[,|;]?\s*$",
    re.IGNORECASE,
)
COUNTER_ROWS = 3


def _counter_rows(lines: list[Line]) -> Line | None:
    """The first of ``COUNTER_ROWS`` numeric rows whose counter column keeps growing and whose other columns hold
    measured (decimal) values: a training loop's own progress table, whatever it names its columns."""
    run: list[Line] = []
    last = -1
    for ln in lines:
        if not ln.text.strip():
            continue
        m = _COUNTER_ROW.match(ln.text) if ln.usable and "." in ln.text else None
        if m is None:
            run, last = [], -1
            continue
        n = int(m.group("n"))
        if n <= last:
            run = []
        run.append(ln)
        last = n
        if len(run) >= COUNTER_ROWS:
            return run[0]
    return None


# a table's header that names a loss among its columns ("Learning Rate\tTrain Loss\tTheta Loss"), and a row of it:
# decimals only, one per column
_LOSS_HEADER = re.compile(r"^\s*[A-Za-z][\w ./()-]*(?:\t|\s{2,}|\s*\|\s*)[^\d]*$")
_DECIMAL_ROW = re.compile(r"^\s*-?\d*\.\d+(?:e[-+]?\d+)?(?:(?:\s+|\s*\|\s*)-?\d*\.\d+(?:e[-+]?\d+)?)+\s*$", re.I)


def _loss_table(lines: list[Line]) -> Line | None:
    """The first row of a table whose header names a loss and whose next ``COUNTER_ROWS`` rows hold one decimal
    value per column: a training loop's table with no counter column (its first column a constant learning rate)."""
    for i, ln in enumerate(lines):
        if "loss" not in ln.folded or not _LOSS_HEADER.match(ln.text):
            continue
        width = len(re.split(r"\t|\s{2,}|\s*\|\s*", ln.text.strip()))
        rows = lines[i + 1 : i + 1 + COUNTER_ROWS]
        if (
            width >= 2
            and len(rows) == COUNTER_ROWS
            and all(
                _DECIMAL_ROW.match(r.text) and len(re.split(r"\s*\|\s*|\s+", r.text.strip())) == width for r in rows
            )
        ):
            return rows[0]
    return _repeated_loss_rows(lines)


_RULE = re.compile(r"^\s*(?:[-=+|:]{3,}\s*)+")
_DECIMAL_FIRST = re.compile(r"^\s*-?\d*\.\d+(?:e[-+]?\d+)?\s", re.I)
_LOSS_FIRST = re.compile(
    r"^\s*(?:\w+_)?loss(?:\s*\|\s*|\s{2,})[A-Za-z_]\w*(?:(?:\s*\|\s*|\s{2,})[A-Za-z_]\w*)*\s*$", re.I
)


def _repeated_loss_rows(lines: list[Line]) -> Line | None:
    """The first of ``COUNTER_ROWS`` one-row tables whose header opens on a loss column and whose row opens on a
    decimal value (a tuner printing each trial's result as its own small table: "   loss  n_batch  opt" over a
    rule over "32.6939  512  adam")."""
    found: list[Line] = []
    for i, ln in enumerate(lines):
        if not _LOSS_FIRST.match(ln.text):
            continue
        for row in lines[i + 1 : i + 3]:
            body = _RULE.sub("", row.text)  # the rule under the header (a paste may join the row onto it)
            if _DECIMAL_FIRST.match(body):
                found.append(row)
                break
            if body.strip():
                break
        if len(found) >= COUNTER_ROWS:
            return found[0]
    return None


# A count of work done out of a fixed total ("Processed 1000/5000 images", "[200/1000] elapsed …"), not a date
# (``2024/01/01``, ``01/02/2024``) and not a retry or a failure being counted ("Attempt 2/5 failed")
_FRACTION = re.compile(r"(?<![\d/.])(?P<n>\d{1,9})\s?/\s?(?P<of>\d{1,9})(?![\d/.])")
_COUNTING_TRIES = re.compile(r"\b(?:retr\w*|attempt\w*|tr(?:y|ies|ying)|restart\w*)\b", re.IGNORECASE)


def _counter_fractions(lines: list[Line]) -> Line | None:
    """The first of ``COUNTER_ROWS`` lines whose N/M count of the same total M keeps growing, on lines that name
    no failure and no retry: work advancing, whatever the program calls it."""
    first: dict[int, Line] = {}
    last: dict[int, int] = {}
    seen: dict[int, int] = {}
    for ln in lines:
        if not ln.usable or "/" not in ln.text or _FAILING.search(ln.text) or _COUNTING_TRIES.search(ln.text):
            continue
        if _LOADING_BAR.search(ln.text):
            continue
        m = _FRACTION.search(ln.text)
        if m is None:
            continue
        n, of = int(m.group("n")), int(m.group("of"))
        if not 0 <= n <= of or of < 2:
            continue
        if of not in last or n <= last[of]:
            first[of], seen[of] = ln, 0
        last[of] = n
        seen[of] += 1
        if seen[of] >= COUNTER_ROWS:
            return first[of]
    return None


def positive_evidence(lines: list[Line]) -> tuple[str, Line] | None:
    """Why a log may be called healthy: ("finished", line) for a completion marker or exit 0, ("progress", line),
    ("rows", line) for a table of numeric rows with a growing counter (progress in no named format),
    ("started", line) for a run seen getting past its start-up, ("outputs", line) for a listing of the weights or
    results it wrote, ("routine", line) for a log made of the libraries'
    routine warnings and notices; None when the log shows none of them."""
    for ln in lines:
        if _FINISHED_G.search(ln.text, ln.folded):
            return "finished", ln
    # a bar loading the model's weights or fetching files is the run's start-up, not its work going on
    progress = next(
        (ln for ln in lines if _PROGRESS_G.search(ln.text, ln.folded) and not _LOADING_BAR.search(ln.text)), None
    )
    progress = progress or next((ln for ln in lines if ln.usable and _LOSS_KEY.search(ln.text)), None)
    if progress is not None:
        return "progress", progress
    rows = _counter_rows(lines) or _counter_fractions(lines) or _loss_table(lines)
    if rows is not None:
        return "rows", rows
    started = next((ln for ln in lines if _STARTED_G.search(ln.text, ln.folded)), None)
    if started is not None:
        return "started", started
    # a directory listing of the weights or results the run wrote (the user showing what it left behind)
    outputs = next((ln for ln in lines if _OUTPUT_FILE.match(ln.clean)), None)
    if outputs is not None:
        return "outputs", outputs
    # the weakest: the log is the libraries' routine talk (warnings, deprecation and info notices) with at most a
    # few plain lines between them, the noise a working run prints while it sets up; a log of plain lines that
    # name no error (a memory report, a scheduler's job record) is not this
    routine: list[Line] = []
    plain = 0
    # inside a notice: the lines a warning wraps onto, up to the next blank line; a paste that opens on indented
    # lines opens inside one (the cut-off tail of a notice: a warning's quoted source line)
    notice = bool(lines) and lines[0].clean[:1] in (" ", "\t")
    advice = False  # after a bare advisory line: only its indented lines belong to it
    for ln in lines:
        if not ln.text.strip():
            notice = advice = False
        elif advice and ln.clean[:1] in (" ", "\t"):
            continue
        elif (ln.warning and not ln.code) or _INFO_LEVEL.match(ln.clean) or _INFO_LEVEL.match(ln.text):
            if _RETRY_G.search(ln.text, ln.folded) and not recovered_after(lines, ln.index):
                return None  # a failure being retried, with no sign it got through, is not routine noise
            routine.append(ln)
            notice = True
        elif ln.usable and _advisory(ln) and not (notice and routine):
            routine.append(ln)  # a notice of its own, printed without a level (or the first sign of a cut one)
            advice = True
        elif ln.usable and not notice:
            plain += 1
            advice = False
    if routine and 2 * plain <= len(routine):
        return "routine", routine[0]
    return None


_CHAINED = re.compile(r"During handling of the above exception|The above exception was the direct cause")

_EXIT_PATTERNS = [
    re.compile(r"exit(?:ed with)? code[:=\s]+\(?(-?\d+)", re.IGNORECASE),  # Flyte: "exit code (137)"
    re.compile(r"exit status[:=\s]+(-?\d+)", re.IGNORECASE),
    re.compile(r"\bexitcode\s*:\s*(-?\d+)"),
    re.compile(r"\bexit_code\"?\s*[:=]\s*(-?\d+)"),
    re.compile(r"\bExitCode=(\d+):(\d+)"),
    re.compile(r"\|(?:FAILED|OUT_OF_MEMORY|TIMEOUT|CANCELLED[^|]*|NODE_FAIL|PREEMPTED)\|(\d+):(\d+)"),
    re.compile(r"returned non-zero exit status (-?\d+)"),
    re.compile(r"exited with (?:return )?code (-?\d+)", re.IGNORECASE),
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
        return not self.warning and not self.code and bool(self.text.strip())

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

    def window(self, before: int = 20, after: int = 10) -> list[Line]:
        if self.root is None:
            return self.lines[-(before + after) :]
        return self.lines[max(0, self.root - before) : self.root + after + 1]


def prepare(raw_lines: list[str]) -> ErrorBlock:
    """Strip, mark, and find the root error of a list of raw log lines."""
    lines: list[Line] = []
    prev_frame = False
    in_tb = False
    ipy = False  # inside an IPython frame: its numbered source lines are code
    ignored = False  # inside a traceback Python printed after "Exception ignored in …" (it was not raised)
    cleaned = unpaste(raw_lines)
    for i, (raw, clean) in enumerate(zip(raw_lines, cleaned, strict=True)):
        text = _normalised(strip_prefix(clean), cleaned, i)
        folded = fold(text)
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
        if text.startswith("Exception ignored in") or (
            text.startswith("Exception in thread") and _tracker_thread(cleaned, i)
        ):
            ignored = True
        harmless = bool(_HARMLESS_G.search(text, folded))
        lines.append(
            Line(
                i,
                raw,
                text,
                warning=ignored
                or harmless
                or is_warning(text, folded)
                or bool(_INFO_SEVERITY.match(clean))
                or bool(head and _HEAD_WARNING.search(head)),
                code=code or (in_tb and text.strip().startswith("^")),
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


def _root_exception(lines: list[Line], exceptions: list[int]) -> int | None:
    """The first exception that ends a traceback (chained tracebacks: the first one is the cause)."""
    for idx in exceptions:
        # an exception line that closes a traceback: some frame line appears shortly above it
        window = lines[max(0, idx - 40) : idx]
        if any(_FRAME.match(w.text) for w in window) or any(_TB_START.search(w.text) for w in window):
            return idx
    return exceptions[0] if exceptions else None


def chained_after(lines: list[Line], idx: int) -> bool:
    """True when a chained-exception marker precedes ``idx`` (so it is a consequence, not the cause)."""
    return any(_CHAINED.search(ln.text) for ln in lines[max(0, idx - 60) : idx])
