"""Positive evidence that a run works, for the verdict's ``healthy``: a completion marker, progress, a run seen past
its start-up, a listing of the files it wrote, a log of routine notices only; and the helpers that tell whether a
run went on past a line (it retried and recovered, kept making progress, or finished afterwards).

The error side (which lines look like an error, the line preparation) lives in :mod:`errorblock`; this module only
reads prepared lines.
"""

from __future__ import annotations

import re

from runshepherd.diagnosis import formats
from runshepherd.diagnosis.errorblock import (
    _ERRORISH_G,
    _EXC_LINE,
    _FAILING,
    _FAILING_G,
    _FRAME,
    _INFO_LEVEL,
    _NOT_ERROR_G,
    _TB_START,
    Line,
    error_looking,
    exception_type,
    is_benign,
    traceback_end,
)
from runshepherd.diagnosis.formats import serving
from runshepherd.diagnosis.lazyregex import LazyRegex
from runshepherd.diagnosis.prefilter import Alternatives, Gated
from runshepherd.diagnosis.severity import error_channel, severity

# A failure that the program itself retried: a retry notice right after it, then proof that the retry worked
# (an explicit success line, or the run finishing normally with no repeat of the same failure).
_RETRY = re.compile(
    r"\bretry(?:ing)?\b|\[Retry \d+/\d+\]|entering retry loop|attempt \d+(?:/\d+)? failed|will retry|trying again"
    r"|\bPulling image\b"  # the kubelet announces each new pull attempt
    # a client that falls back after a failed request: huggingface_hub logs "'<error>' thrown while requesting
    # HEAD <url>" and retries or uses its cache; datasets' "Will try to load from local cache"
    r"|thrown while requesting (?:HEAD|GET)\b|\bwill try to load from (?:the )?(?:local )?cache\b"
    # a readiness poll that counts its attempts ("Waiting for server readiness on port=8113 attempt=6/180 http=503")
    r"|\bwaiting for\b.{0,60}\battempt\s*[=:#]?\s*\d+\s*/\s*\d+",
    re.IGNORECASE,
)
_RECOVERED = re.compile(
    r"\b(?:attempt|retry|try) #?\d+(?:/\d+)?:? (?:succeeded|ok\b|successful|passed)|succeeded (?:on|after) (?:retry|attempt)"
    r"|\berror resolved|\bresolved after\b|resuming normal operation|Successfully (?:pulled|downloaded|connected|reconnected)"
    r"|\breconnected\b|connection (?:re-?)?established"
    # what a readiness poll waited for came up ("Server ready on port=8113", "the endpoint is ready")
    r"|\b(?:server|service|endpoint|engine|api)\s+(?:is\s+|became\s+|now\s+)?ready\b(?!\s+(?:in|after)\s+\d)"
    # the retried download went through: pip installed it, the progress bar reached its end, the cache served it
    r"|Using the latest cached version\b|\bFound cached dataset\b"
    r"|^Successfully installed \S|\b100%\|[^|]*\|\s*[\d.]+[kMG]?i?B?/[\d.]+",
    re.IGNORECASE,
)
# The documented formats of schedulers, frameworks and servers are in :mod:`formats` (one table per emitter kind);
# these are the wordings no single emitter owns.
_FINISHED = LazyRegex(
    # training said done, also in the words for training a pretrained model further ("Finetuning done!",
    # "Fine-tuning completed"): the same statement ("pretraining" holds "training")
    r"Training completed|(?:training|fine-?tuning|finetuning) (?:complete|completed|finished|done)\b"
    r"|finished successfully|exit(?:s|ed)? successfully"
    r"|\bexit(?:ed with)? (?:code|status)[:= ]+0\b|\bexitcode: 0\b|\bJob succeeded"
    # a wrapper's record of the command's exit status as a field ("watchdog finished cmd_status=0", "rc=0")
    r"|\b(?:cmd|command)_?status\s*[=:]\s*0\b|\b(?:rc|returncode|return_code)\s*[=:]\s*0\b(?![.,]\d)"
    r"|\ball done\b"
    r"|^={3,} \d+ passed\b|\bbenchmark complete\b"  # pytest
    # pytest -q's bare summary when nothing failed ("5 passed, 7 deselected in 23.60s")
    r"|^\d+ passed(?:, \d+ (?:skipped|deselected|xfailed|xpassed|warnings?))* in \d+(?:\.\d+)?s\b"
    r"|\bBenchmark Results?\b.*={3,}|^Successful requests:\s+[1-9]"  # a benchmark's result summary
    # a job, run or workflow saying it ended well (submitit's "Job completed successfully")
    r"|\b(?:job|run|training|task|workflow|pipeline|experiment)s? (?:has |have )?(?:completed|finished|succeeded|ended) "
    r"successfully"
    r"|\b(?P<smk>\d+) of (?P=smk) steps \(100%\) done"  # Snakemake, once every job of the workflow is done
    # a run, job or experiment said complete, with nothing after it ("Run complete!", "Experiment complete.")
    r"|^\W*(?:\w+\W+){0,2}(?:run|job|experiment|pipeline|workflow)s? (?:is |has )?complete(?:d)?\s*[!.]*\s*$"
    f"|{formats.pattern_of('finished')}",
    re.IGNORECASE,
)
# A run that got past its start-up: training announced, a server up, distributed workers joined, the
# communicators built, an experiment tracker syncing the run. Weaker than progress: it shows the run was alive,
# not that it advanced.
_STARTED = LazyRegex(
    r"\b(?:start(?:s|ed|ing)?|begin(?:s|ning)?) (?:\w+ ){0,2}training\b"
    # LightGBM's early-stopping callback as boosting begins (callback.py: "Training until validation scores don't
    # improve for 50 rounds")
    r"|\bTraining until validation scores don't improve for \d+ rounds\b"
    r"|\btraining (?:has )?(?:started|begins)\b"
    r"|Starting \S+ (?:API )?server on https?://"
    r"|\b(?:Serving|Listening) on https?://|Running on (?:local URL:\s*)?https?://"
    r"|\binitialized host \S+ as rank \d+|distributed init \(rank \d+\)"
    r"|\bjoined (?:round \d+ of )?the \w+ rendezvous|Completed store-based barrier|All distributed processes registered"
    r"|\bStarted container \S+"
    r"|\*{3,} Running (?:Evaluation|Prediction) \*{3,}"
    r"|\bModel server started\b|\blistening (?:at|on):? https?://"
    # a step that went through before the run itself: pip/docker builds, an object Kubernetes accepted, a
    # model loaded by an inference UI (stable-diffusion-webui's "Model loaded in 4.2s", its "Startup time: 7.8s")
    r"|^Successfully (?:installed|built|tagged) \S|^\S+/\S+ created$"
    r"|\b(?:Model|Weights|Checkpoint|Pipeline) loaded in [\d.]+ ?s\b|^Startup time: [\d.]+ ?s\b"
    # the emitters' own start-up lines (uvicorn, Lightning, accelerate, TensorFlow, Keras, wandb, NCCL, TensorBoard,
    # nvidia-smi, schedulers, inference servers) are in formats/
    f"|{formats.pattern_of('started')}",
    re.IGNORECASE,
)
# The same said in other languages, of the training, the task(s), the job or all of the work (not of a set-up step:
# "配置完成，开始训练" is the configuration done, training starting; not of one epoch: "第1轮训练完成"): Chinese 完成,
# Japanese 完了, Korean 완료, Russian завершено. Read only on lines that are not plain ASCII (no literal gate holds).
# "All of" a set-up step (所有数据加载完成, 모든 다운로드가 완료되었습니다: all data loaded, all downloads done) and a
# preprocessing (前処理, 전처리) are the start-up, not the run: the "all of" never reaches across a set-up word (_SET_UP_ZH, _SET_UP_KO).
_SET_UP_ZH = r"加载|下载|读取|准备|初始化|预处理|配置|导入|安装"
_SET_UP_KO = r"다운로드|로드|로딩|준비|초기화|전처리|설치"
_FINISHED_ABROAD = re.compile(
    r"(?<![轮次批步\d])(?:训练|任务|全部|所有(?:(?!"
    + _SET_UP_ZH
    + r")[^\s，。,.]){0,6}|程序运行|推理|评估)(?:都|均|全部)?"
    r"(?:已经|已)?(?:全部)?"
    r"(?:成功|顺利)?完成(?![度率了一]|情况)"
    r"|(?:学習|訓練|トレーニング|(?<!前)処理|タスク|ジョブ|推論|評価|すべて|全て)(?:が|は)?(?:すべて|全て)?(?:正常に|無事に)?完了"
    r"(?:しました|した|です)"
    r"|(?:학습|훈련|(?<!전처리\s)작업|(?<!전)처리|모든\s*(?:(?!"
    + _SET_UP_KO
    + r")\S){1,8}?)(?:이|가|은|는|을|를)?\s*(?:모두\s*)?(?:성공적으로\s*|정상적으로\s*)?완료"
    r"(?:되었|됐|했|하였)"
    r"|\b(?:обучение|тренировка|задач[аи]|работа|выполнение|все задачи)\s+(?:было\s+)?(?:успешно\s+)?"
    r"заверш(?:ено|ена|ены|илось|илась|ились)\b",
    re.IGNORECASE,
)
_RETRY_G, _RECOVERED_G = Gated.of(_RETRY), Gated.of(_RECOVERED)
# yes/no tests on every line: each of their dozens of alternatives behind its own literal gate (Alternatives), so a line
# holding one literal runs one alternative, not the whole alternation (170 us a line on average for _FINISHED)
_FINISHED_ALT = Alternatives.of(_FINISHED)
# What runs a job taken off its machine: evicted or preempted said of the job, pod, task, node, cluster ("this job is
# preempted", "the actor's node was preempted", "worker pod evicted", "evicting pod trainer-0"), or as a state or reason
# field (Kubernetes' "Reason: Evicted", a kubectl column "0/1   Evicted   0   18h", an event's "Warning   Evicted
# pod/x", Kueue's "Preempted to accommodate a workload", Slurm's PREEMPTED); not what a cache or a server drops of its
# own ("evicted 3 entries", "Evicted 12 blocks from the KV cache", "evicted_count=1000"). One definition, read by this
# module's notices and by the preempted family's eviction rule.
_RUNNER = (
    r"(?:job|pod|task|node|cluster|instance|vm|worker|actor|trial|container|allocation|machine|host|replica"
    r"|workload|run|step)s?"
)


def taken_off(*words: str) -> str:
    """The pattern (compile it with re.IGNORECASE) of a job taken off its machine in ``words`` (``"evicted"``,
    ``"preempted"``), said of what runs it or as its state. Every alternative holds one of the words, so the literal
    prefilter gates it on them."""
    said = "|".join(words)
    doing = "|".join(w[:-2] + "ing" for w in words)
    return (
        rf"\b{_RUNNER}\b(?:\s+[\w'’.\-]+){{0,3}}?\s+(?:(?:was|were|is|are|has been|have been|got|being|been)\s+)?"
        rf"(?:{said})\b"
        rf"|\b(?:{said}|{doing})\s+(?:the\s+|a\s+)?{_RUNNER}\b"
        rf"|(?:status|state|phase|reason|type)\W{{0,3}}(?:{said})\b"
        # a column of a listing or an event's reason, set off by two spaces or a tab (a kubectl row, sacct's State)
        rf"|(?:\S(?:\s{{2,}}|\t)|^\s*|['\"])(?:{said})(?=\s{{2,}}|\t|\s*$|\s+(?:pod|job|node)/|\s+to accommodate\b)"
    )


TAKEN_OFF = taken_off("evicted", "preempted")

# A notice that the job is not running: still queued, not placeable, or taken off its machine ("Job 3 is PENDING",
# "status: Pending (Unschedulable)", "waiting for resources"). Said at INFO it is still no sign of health: a log of
# such notices is a job that has not started. A server's "Pending: 0 reqs" counter is not a job state.
_NOT_RUNNING = re.compile(
    r"\bPENDING\b(?!\s*[:=]\s*\d)"
    r"|(?i:\b(?:status|state|phase)\W{0,3}pending\b(?!\s*[:=]?\s*\d)|\bunschedulable\b"
    r"|\bwaiting for (?:resources|capacity|an? (?:node|gpu|slot)|(?:free )?(?:nodes|gpus|slots))\b"
    f"|{TAKEN_OFF})"
)

# every alternative of _NOT_RUNNING holds one of these (folded); the regex has no literal gate (its inline flags defeat
# the prefilter) and costs about 60 us a line, so lines holding none are not searched
_NOT_RUNNING_CUES = ("pending", "unschedulable", "waiting for", "evict", "preempt")


def _not_running(ln: Line) -> bool:
    return any(cue in ln.folded for cue in _NOT_RUNNING_CUES) and _NOT_RUNNING.search(ln.text) is not None


def says_finished(ln: Line) -> bool:
    """The line says the run finished normally: a completion marker (:data:`_FINISHED`, the documented formats'
    ``finished`` rows) or its wording in another language (:data:`_FINISHED_ABROAD`)."""
    if ln.finished is None:  # kept once asked: the recovery checks walk back over the same lines for each error
        ln.finished = _FINISHED_ALT.found(ln.text, ln.folded) or (
            not ln.text.isascii() and bool(_FINISHED_ABROAD.search(ln.text))
        )
    return ln.finished


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


# A program's statement that it carries on another way: it falls back to something, or uses something instead
# ("Odd tokenizer detected, falling back on legacy tokenization", "Falling back to 'gpt2' tokenizer as approximation",
# "… cannot be used with preferred buffer type CUDA_Host, using CPU instead"). Only code that caught a failure and
# goes on prints it; an uncaught error ends its program with a traceback, never with a fallback.
_FELL_BACK = re.compile(
    r"\b(?:falling|falls|fell) back (?:to|on)\b|\bfallback to\b"
    r"|\busing [\w.'\"/-]++(?: [\w.'\"/-]++){0,2}? instead\b",
    re.IGNORECASE,
)
_FELL_BACK_G = Gated.of(_FELL_BACK)
# how far after an error line its fallback may come: the error's own message lines (a hub error's hints), then it
FALLBACK_WINDOW = 8


def fell_back_at(lines: list[Line], idx: int) -> int | None:
    """The index of the program's fallback statement (:data:`_FELL_BACK`) on line ``idx`` or within
    ``FALLBACK_WINDOW`` lines after it, with no traceback begun in between (a fallback after a traceback answers
    another handler); None when there is none, or when ``idx`` is inside a traceback (an uncaught exception)."""
    if not 0 <= idx < len(lines) or _TB_START.search(lines[idx].text) or _FRAME.match(lines[idx].text):
        return None
    if lines[idx].code:
        return None
    for ln in lines[idx : idx + FALLBACK_WINDOW + 1]:
        if ln.index > idx and _TB_START.search(ln.text):
            return None
        m = _FELL_BACK_G.search(ln.text, ln.folded)
        if m is not None and not (ln.index > idx and _OWN_CAUSE.search(ln.text, 0, m.start())):
            return ln.index
    return None


# A later line that states a problem of its own before falling back answers that problem, not the error above it
# (JAX's start-up notice "… but a CUDA-enabled jaxlib is not installed. Falling back to cpu." after a failure)
_OWN_CAUSE = re.compile(
    r"\b(?:not|no|cannot|can't|unable|failed|fails|error|missing|unavailable|unsupported)\b", re.IGNORECASE
)


def progressed_after(lines: list[Line], idx: int, steps: int = 2, skip: frozenset[int] = frozenset()) -> bool:
    """True when, after ``idx``, the log shows progress on at least ``steps`` distinct lines (steps advancing, a
    progress bar moving, metrics logged) that are not themselves errors (nor listed in ``skip``): the program
    went on past whatever line ``idx`` reported. A tracker's teardown is not that: wandb prints its run history and
    summary (``wandb: train_loss 4.5044``) from an exit hook, after the traceback that ended the run."""
    seen: set[str] = set()
    for ln in lines[idx + 1 :]:
        if ln.text in seen or ln.index in skip or not (ln.counted or is_progress(ln)):
            continue
        if ln.text.startswith("wandb:"):
            continue
        if ln.usable and _ERRORISH_G.found(ln.text, ln.folded):
            continue
        seen.add(ln.text)
        if len(seen) >= steps:
            return True
    return False


def finished_after(lines: list[Line], idx: int) -> bool:
    """True when the log, after ``idx``, says the run finished normally.

    Asked once per error line, so the answer for every position is filled by one backward pass over the log the
    first time (``Line.finish_from``): 2,000 interleaved error lines took 2.5 minutes as one tail scan each."""
    start = max(idx + 1, 0)
    if start >= len(lines):
        return False
    if lines[start].finish_from is None:
        later = False
        for ln in reversed(lines):
            later = later or says_finished(ln)
            ln.finish_from = later
    return bool(lines[start].finish_from)


def finished_before(lines: list[Line], idx: int) -> bool:
    """True when the log, before ``idx``, already said the run finished normally (one forward pass fills
    ``Line.finish_before`` for every position, as :func:`finished_after` does backwards)."""
    end = min(idx, len(lines))
    if end <= 0:
        return False
    if lines[end - 1].finish_before is None:
        earlier = False
        for ln in lines:
            earlier = earlier or says_finished(ln)
            ln.finish_before = earlier
    return bool(lines[end - 1].finish_before)


# a clock time in a record's header (``2019-10-31 17:02:15,476``, ``I0203 20:56:03.518998``, ``[07/04/2024-13:50:35]``)
_CLOCK = re.compile(r"(?<![\d:])([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?![\d:])")
TALKED_RECORDS = 5
TALKED_SECONDS = 60


def talked_on_past(lines: list[Line], idx: int, errors: list[Line]) -> bool:
    """Line ``idx`` states no level of its own (a stray line of another program amid a levelled log: a batch
    system's wrapper, a shell) and the program went on writing its own records below error level after it, at least
    ``TALKED_RECORDS`` of them over ``TALKED_SECONDS`` or more of their clock, with no error-looking line (``errors``)
    after it: the run worked on for minutes past that line, so it is not what stopped the run. An error that stops a
    run is followed within seconds by its end (a traceback, a shutdown), or by a later error."""
    if not 0 <= idx < len(lines) or any(e.index > idx for e in errors) or severity(lines[idx].clean) is not None:
        return False
    records, first, last = 0, None, None
    for ln in lines[idx + 1 :]:
        if severity(ln.clean) not in ("debug", "info", "warning"):
            continue
        records += 1
        if m := _CLOCK.search(ln.clean, 0, 80):
            t = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3))
            first = t if first is None else min(first, t)
            last = t if last is None else max(last, t)
        if records >= TALKED_RECORDS and first is not None and last is not None and last - first >= TALKED_SECONDS:
            return True
    return False


def started_past(lines: list[Line], idx: int, errors: list[Line]) -> bool:
    """Line ``idx`` is a record its emitter logs at debug level (its account of a path it took: an optional handler it
    looked for and did without) and the program then got through its start-up (a server up, training begun), with no
    error-looking line (``errors``) after it: that record did not stop the run. Info and warning records are not
    read so (a start-up line can follow the warning that names what later kills the run)."""
    if not 0 <= idx < len(lines) or any(e.index > idx for e in errors) or severity(lines[idx].clean) != "debug":
        return False
    return any(_STARTED_ALT.found(ln.text, ln.folded) for ln in lines[idx + 1 :])


# A server runs until it is told to stop: a stop signal from outside (SIGTERM from `docker stop`, `kubectl delete`,
# systemd or a person's `kill`; SIGINT from Ctrl-C) is how an inference server's run ends, not a failure of it. The
# servers log the signal they received and then shut down (SGLang's signal handler: "SIGTERM received. signum=None
# frame=None. Draining requests and shutting down...", python/sglang/srt/entrypoints/engine.py; vLLM V1's engine core:
# "[shutdown] EngineCore: trigger received signal=SIGTERM", vllm/v1/engine/core.py). Said by a program, not sent by
# one ("sending SIGTERM" to a child is a parent shutting down, maybe after a crash).
_STOP_SIGNAL = re.compile(
    r"\b(?:received|caught|got) (?:signal[= ]?)?SIG(?:TERM|INT)\b|\bSIG(?:TERM|INT) received\b", re.IGNORECASE
)
_STOP_SIGNAL_G = Gated.of(_STOP_SIGNAL)
# the servers' own records that they are up or answering requests (formats/serving.py's started and progress rows)
_SERVING = Alternatives.of(
    LazyRegex("|".join(f"(?:{m.pattern})" for m in serving.MARKERS if m.kind in ("started", "progress")), re.I)
)
SERVED_RECORDS = 2


def stopped_serving(lines: list[Line], errors: list[Line]) -> int | None:
    """The index of the line where a server that was answering requests says it received a stop signal; None when
    the log has no such line. What the server prints from that line on is its shutdown (children ended by the same
    signal, a teardown traceback), not what stopped it. Needs ``SERVED_RECORDS`` or more distinct records of the
    server up or serving before the line, and no error-looking line (``errors``) between the last of them and it: a
    server that failed and then was stopped (or stopped its own children) failed."""
    stop = next((ln.index for ln in lines if _STOP_SIGNAL_G.search(ln.text, ln.folded)), None)
    if stop is None:
        return None
    served = [ln for ln in lines[:stop] if _SERVING.found(ln.text, ln.folded)]
    if len({ln.text for ln in served}) < SERVED_RECORDS:
        return None
    if any(served[-1].index < e.index < stop for e in errors):
        return None
    return stop


# Triton lists a model it could not load in its model table with the reason ("| m | 1 | UNAVAILABLE: Internal: …
# |"): a server that came up without its model is not serving what the run was for
_MODEL_UNAVAILABLE = re.compile(r"^\|[^|]+\|[^|]+\|\s*UNAVAILABLE\b")


def served_past(lines: list[Line], idx: int, errors: list[Line]) -> bool:
    """Line ``idx`` comes before an inference server came up: after it, and after the last error-looking line
    (``errors``) at or below it, the server logged ``SERVED_RECORDS`` or more distinct records of being up or answering
    requests (formats/serving.py), and its model table lists no model as unavailable. A server that listens is past
    whatever it logged while starting (a GPU metrics library it could not load, a pinned-memory pool it did without);
    an error that kills it comes after, and moves the bar."""
    if not 0 <= idx < len(lines):
        return False
    last = max((e.index for e in errors if e.index >= idx), default=idx)
    served = {ln.text for ln in lines[last + 1 :] if _SERVING.found(ln.text, ln.folded)}
    if len(served) < SERVED_RECORDS:
        return False
    return not any(_MODEL_UNAVAILABLE.match(ln.text) for ln in lines)


SURVIVED_STEPS = 3


def survived_channel(lines: list[Line], idx: int) -> bool:
    """Line ``idx`` is an error record of an emitter (``wandb: ERROR``) that the run already went on past: an earlier
    error record of the same emitter at the same level was followed by ``SURVIVED_STEPS`` lines of progress and then
    by the run saying it finished, all before this one. That emitter is a side channel (an experiment tracker, a
    telemetry or log upload) whose errors do not stop the run; a later error of another emitter still counts."""
    if not 0 <= idx < len(lines):
        return False
    key = error_channel(lines[idx].text)
    if key is None:
        return False
    steps: set[str] = set()
    finished = False
    for ln in reversed(lines[:idx]):
        if len(steps) >= SURVIVED_STEPS and finished and error_channel(ln.text) == key:
            return True
        if not finished and says_finished(ln):
            finished = True
        elif (
            len(steps) < SURVIVED_STEPS
            and is_progress(ln)
            and not (ln.usable and _ERRORISH_G.found(ln.text, ln.folded))
        ):
            steps.add(ln.text)
    return False


# Positive evidence that a run works: progress (steps, epochs, progress bars, loss values, throughput) or a
# completion marker. "healthy" needs one of these (or an exit code of 0).
_PROGRESS = LazyRegex(
    r"\b(?:epoch|step|iter(?:ation)?|global_step|batch)\b\s*[:=#]?\s*\[?\d+"
    # a CMake-generated build's own progress ("[ 95%] Linking CXX executable …", "[100%] Built target x"), also
    # under BuildKit's step prefix ("#20 504.8 ")
    r"|^\s*(?:#\d+ [\d.]+ )?\[\s*\d{1,3}%\] (?:Building \w+ object|Linking \w+ |Built target )"
    # an item of work the program reports done with its duration ("[timing] sample processed in 283.23s")
    r"|\b(?:processed|generated|evaluated|transcribed|translated|encoded) in \d+(?:\.\d+)? ?"
    r"(?:s|secs?|seconds|ms|min|minutes)\b"
    # Julia's @time report of a timed call that returned ("15108.471510 seconds (295.12 M allocations: 36.261 GiB,
    # 0.04% gc time)"): a unit of the run's work done
    r"|\b\d+(?:\.\d+)? seconds \(\d+(?:\.\d+)?(?: [kMG])? allocations?: "
    # the same counter in a printed tuple (Python 2's print of several values: "('Epoch ', 4983, ' Training Loss: ', …")
    r"|\b(?:epoch|step|iter(?:ation)?|global_step|batch)\s*:?\s*['\"], \d+"
    r"|\d+/\d+ \[\d+:\d+|\d+%\|"
    # the PyTorch tutorials' timeSince progress, "%s (%d %d%%) %.4f": time spent, time left, iteration, percent done,
    # loss ("48m 20s (- 8m 28s) (85600 85%) 0.1271")
    r"|^\s*\d+m \d+s \(- ?\d+m \d+s\) \(\d+ \d+%\)"
    r"|\b\d+(?:\.\d+)?\s*(?:it/s|s/it|samples/s(?:ec)?|tokens/s(?:ec)?|examples/s(?:ec)?|img/s|images/s(?:ec)?"
    r"|req(?:uest)?s/s(?:ec)?|toks?/s|frames/s(?:ec)?)\b"
    # any countable unit of the program's work per second ("0.20 prompts/s", "0.09 batches/sec", "12.54 steps/s",
    # "31199166.25 records/s"): a measured throughput, whatever the items are called; not bytes or bits, which is a
    # transfer's speed ("243.8 MBs/sec")
    r"|\b\d+(?:\.\d+)?\s*(?![kmgtp]?i?b(?:yte|it)?s/)[a-z]{2,}s/s(?:ec)?\b"
    r"|\b(?:throughput|latency|MFU|TFLOPs?)\b[^\n\d]{0,24}[:=]\s*\d"  # a benchmark's or a trainer's speed report
    # throughput and timing the other way round (``examples/sec: 14.6``, ``Tokens/s/GPU: 8678``), step-time profiles
    r"|\b(?:tokens|samples|examples|images|img|sequences|seqs|it|iters?|global_step|steps?|TFLOP)/s(?:ec)?(?:/GPU)?\s*[:=]\s*\d"
    r"|\b(?:iter(?:ation)?|step|batch|epoch) time(?:\s*\((?:s|sec|ms)\))?\s*[:=]\s*\d|\bover \d+ (?:steps|iterations|batches|epochs)\b"
    # evaluation metrics with a value (``val_top1: 0.346``, ``bleu = 27.1``)
    r"|(?:^|[\s_/-])(?:top-?\d+|f1|bleu|rouge-?\w*|auc|iou|wer|cer|mae|mse|rmse|map(?:@[\d.:]+)?)\s*[:=]\s*-?\d*\.\d+"
    r"|\b(?:train_|val_|eval_|valid_|test_)?loss(?:es)?\b['\"]?\s*[:=]?\s*-?\d+\.\d+"
    r"|\b(?:accuracy|acc|perplexity|ppl|lr|learning_rate)\b['\"]?\s*[:=]\s*-?\d"
    # a metric reported as the list of its values, one per epoch or fold ("Test Accuracy: [0.99075, 0.9925, …]")
    r"|\b(?:accuracy|acc|loss|f1|auc)\b['\"]?\s*[:=]\s*\[\s*-?\d*\.\d+,\s*-?\d*\.\d+"
    r"|\bsav(?:ed|ing) (?:\w+ ){0,2}(?:checkpoint|model|weights)\b"
    # a program's own short notice that it wrote its results ("Medians saved.", "Predictions saved to out.csv")
    r"|^\s*[A-Z]\w*(?: \w+){0,3} (?:saved|written)(?: (?:to|in|into|at) \S+)?\s*[.!]?\s*$"
    # a warning raised inside the forward/backward pass or the optimiser step: a step ran
    r"|(?:torch/utils/checkpoint|torch/autograd/[\w/]+|torch/optim/lr_scheduler)\.py:\d+: \w*Warning"
    r"|\[W reducer\.cpp:\d+\]|\blr_scheduler\.py:\d+:"  # DDP's reducer warns in backward; the scheduler at step
    # a drawn progress bar (rich's ━━━, tqdm's █ blocks) beside its count or share, an RL reward; block characters
    # with no number near them are a banner's ASCII art (nanochat's logo), not work done (the number is looked for
    # within 40 characters, possessively, from the bar's first block only: linear on a line of blocks or digits)
    r"|(?<![━█▉▊▋])[━█▉▊▋]{4,}+[^\d\n]{0,40}+\d|\d[^\d\n━█▉▊▋]{0,40}+[━█▉▊▋]{4}"
    r"|\b(?:episode_)?reward(?:_mean)?\b\s*[:=]\s*-?\d"
    # an accuracy stated in percent ("Accuracy of the network on the 10000 test images: 54 %"), a program's own
    # last word ("Done!", the PyTorch tutorials' end of training; "✅ Done!" behind a mark that is not a cross)
    r"|\b(?:accuracy|acc)\b[^\n%]{0,60}?\d+(?:\.\d+)?\s*%"
    r"|^(?![^\w\n]*[✗✘❌×])[^\w\n]*+(?:All )?(?:Done|Finished|Completed?)[^\w\n]*+$"
    r"|\b(?:finished|completed|done) training\b"
    # a server answering requests (an access-log line with a 2xx status), a tuner's run summary
    r'|"(?:GET|POST|PUT) /\S* HTTP/\d(?:\.\d)?" 2\d\d\b|\bTotal run time: [\d.]+ s'
    # a row of a training table: epoch/epochs then four or more numeric columns (YOLO's "38/89  5.62G  0.02079 …")
    # (the emitters' own progress and result lines are in formats/: stable-baselines3, Optuna, wandb, Flower,
    # llama.cpp, ComfyUI, ultralytics, Whisper, the HF Trainer, unittest, lm-evaluation-harness, scikit-learn, …)
    r"|^\s*\d+/\d+(?:\s+-?\d+(?:\.\d+)?(?:e[-+]?\d+)?[KMG]?){4,}\s*$",
    re.IGNORECASE,
)
# (one alternative of _PROGRESS has no literal, so the whole regex has no gate: each alternative is gated alone)
_PROGRESS_ALT, _STARTED_ALT = Alternatives.of(_PROGRESS), Alternatives.of(_STARTED)
# the documented progress lines, each alternative behind its own literal gate (_PROGRESS runs ungated on every line)
_DOC_PROGRESS = Alternatives.of(formats.lazy("progress"))


def is_progress(ln: Line) -> bool:
    """The line reports the run's work going on (steps, losses, a moving bar, a documented progress line). Source a
    traceback quotes under a frame (``Line.code``: ``load_dataset(split, epoch=0)``) is the program's text, never a step
    it took.

    Kept on the line once asked: the checks that a run went on past an error scan the lines after each candidate
    again, which made a long log's tail cost one full regex pass per candidate."""
    if ln.progress is None:
        ln.progress = (
            not ln.code
            and (_PROGRESS_ALT.found(ln.text, ln.folded) or _DOC_PROGRESS.found(ln.text, ln.folded))
            and not _speaks_of_failure(ln)
            and not _nothing_done(ln.text)
        )
    return ln.progress


# a tqdm bar drawn before its first item is done ("Processed prompts:   0%|          | 0/16 [00:00<?, ?it/s"): the
# work began, none of it went through (a hang shows only this)
_ZERO_BAR = re.compile(r"(?<![\d.])0%\|[^|\n]*\|\s*0/\d+\b")
_ANY_DONE = re.compile(r"(?<![\d.])(?:[1-9]\d*|\d+\.\d*[1-9]\d*)%\||\|\s*[1-9]\d*/\d+")


def _nothing_done(text: str) -> bool:
    """Every bar on the line stands at zero: 0% and 0 of N (a carriage return may glue a later state after it)."""
    return "0%|" in text and _ZERO_BAR.search(text) is not None and _ANY_DONE.search(text) is None


# A program's own counter line, whatever it names its fields ("tick 12  kimg 1408.0  time 3h 16m  sec/tick 885.4",
# "it 300 | lr 2e-4 | 0.53", a step line in another language): its template is the line with its dates, clock times
# and numbers masked. A number glued to a word ("A100", a hex id) is part of the template, not a value.
_STAMP = re.compile(
    r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}(?:[T ]?\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?Z?)?|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}"
    r"|\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?"
)
_VALUE = re.compile(r"(?<![A-Za-z0-9_.-])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?", re.IGNORECASE)
# the counter leads the line, named by the word before it and followed by a field of its own ("tick #  kimg #",
# "it # | lr #", "Epoch #, Time #s"), not by more bare values (a table's row, a process listing's pid and usage)
_KEYED_COUNTER = re.compile(r"^[^\w#]*(?:\[[^\]]*\]\s*)?[^\W\d_]{2,}[\s:=]*?(?<=[\s:=])#(?!\s*[-\d#])")
COUNTER_LINES = 3
# a counter line is one record; a line longer than this is many frames a carriage return glued together (a progress
# bar's), which _PROGRESS reads already: masking its thousands of numbers cost ~2 ms a line
COUNTER_MAX_CHARS = 2_000


class _CounterRun:
    """The lines of one template read so far whose first value kept growing, kept as what decides whether they are
    progress: which other values changed, and which differ from the counter (a rank listing's ``rank: 1
    (local_rank: 1)`` repeats it). Constant work per line: a long log of step lines once cost a pass over its run
    per line (5,000 lines of ``tick N kimg K loss L``: 30 s)."""

    def __init__(self, ln: Line, values: list[str]) -> None:
        self.first = values
        self.last = float(values[0])
        self.size = 0
        self.fields = len(values)  # the fewest values a line of the run had
        self.varied = [False] * len(values)  # a line's i-th value differs from the first line's
        self.off_step = [False] * len(values)  # a line's i-th value differs from its own counter
        self.unmarked: list[Line] = []
        self.add(ln, values)

    def add(self, ln: Line, values: list[str]) -> None:
        self.size += 1
        self.last = float(values[0])
        self.fields = min(self.fields, len(values))
        for i in range(1, self.fields):
            self.varied[i] = self.varied[i] or values[i] != self.first[i]
            self.off_step[i] = self.off_step[i] or values[i] != values[0]
        self.unmarked.append(ln)

    def measured(self) -> bool:
        """Another value of the run's lines changes, and not in step with the counter."""
        return any(self.varied[i] and self.off_step[i] for i in range(1, self.fields))


def mark_counters(lines: list[Line]) -> list[Line]:
    """Mark as progress (``Line.progress``) the lines of every run of ``COUNTER_LINES`` or more lines sharing one
    template (:data:`_STAMP` and :data:`_VALUE` masked, words kept) whose first value keeps growing while another of
    their values changes: the run counting its own work. A repeated notice whose only rising number is its clock
    ("Waiting for the head node… 10:00:01"), a list of ranks or processes (one value each), a retry or a failure
    counted ("Attempt 2 failed") are not that. Returns ``lines``."""
    runs: dict[str, _CounterRun] = {}
    for ln in lines:
        if len(ln.text) > COUNTER_MAX_CHARS:
            continue
        if not ln.usable or _FAILING_G.search(ln.text, ln.folded) or _COUNTING_TRIES_G.search(ln.text, ln.folded):
            continue
        if _LOADING_BAR_G.search(ln.text, ln.folded) or _ERRORISH_G.found(ln.text, ln.folded):
            continue
        body = _STAMP.sub(" ", ln.text)
        values = _VALUE.findall(body)
        if len(values) < 2:
            continue
        template = " ".join(_VALUE.sub("#", body).split())
        if not _KEYED_COUNTER.match(template):
            continue
        run = runs.get(template)
        if run is None or float(values[0]) <= run.last:
            run = runs[template] = _CounterRun(ln, values)
        else:
            run.add(ln, values)
        if run.size >= COUNTER_LINES and run.measured():
            for counted in run.unmarked:
                counted.progress = True
            run.unmarked.clear()
    # a record printed one field per line (a pandas Series, a YAML-ish result dump: "timesteps   2.467430e+07" then
    # the other fields): its counter field, growing record after record while the record's other lines change
    _mark_vertical_counters(lines)
    # a count of work towards its total, growing line after line: the run went on past what came before it
    # (``Line.counted``, read by progressed_after), a weaker sign than progress for a clean log's verdict
    for counted_run in _fraction_runs(lines):
        for counted in counted_run:
            counted.counted = True
    return lines


_VERTICAL_COUNTER = re.compile(
    r"^\s*(?P<key>(?:total_)?(?:timesteps|time_?steps|global_step|step|epoch|iterations?|iter|num_updates|updates"
    r"|frames|env_steps)(?:_total|_this_iter)?)\s*[:=]?\s+(?P<value>\d+(?:\.\d+)?(?:e[-+]?\d+)?)\s*$",
    re.IGNORECASE,
)


def _mark_vertical_counters(lines: list[Line]) -> None:
    """Mark as progress the counter lines of records printed one field per line (:data:`_VERTICAL_COUNTER`) when the
    same counter grows over ``COUNTER_LINES`` or more records and the lines between two of them change too (a
    repeated banner holding a step number is not the run counting its work)."""
    seen: dict[str, list[tuple[float, int]]] = {}
    for pos, ln in enumerate(lines):
        if not ln.usable or "\n" in ln.text or len(ln.text) > 120:
            continue
        m = _VERTICAL_COUNTER.match(ln.text)
        if m is None:
            continue
        key, value = m.group("key").lower(), float(m.group("value"))
        run = seen.setdefault(key, [])
        if run and value <= run[-1][0]:
            run.clear()
        run.append((value, pos))
        if len(run) >= COUNTER_LINES and _records_differ(lines, run[-2][1], run[-1][1]):
            for _, i in run:
                lines[i].progress = True


def _records_differ(lines: list[Line], a: int, b: int) -> bool:
    """The lines after two counter lines (up to the next) are not the same text: the records carry values."""
    n = b - a
    if n < 2 or b + n > len(lines):
        return n >= 2 and b + 1 < len(lines) and lines[a + 1].text != lines[b + 1].text
    return any(lines[a + k].text != lines[b + k].text for k in range(1, n))


# a summary of the work done that the emitter prints as the loop ends, also when it ends by an exception (detectron2's
# after_train runs in a ``finally``): progress in a log with no error, never a sign the run went on past one
_SUMMARY_G = Gated.of(formats.compiled("summary"))
_LOADING_BAR = re.compile(r"^\s*(?:Loading|Downloading|Fetching)\b[^|\n]{0,60}(?:\d+%|\d+/\d+)", re.IGNORECASE)
_LOADING_BAR_G = Gated.of(_LOADING_BAR)
# a loss named with a prefix or suffix, as a key with a value ("'training_loss': 0.44", "loss_mask: 0.12", GANs'
# "D_loss: 0.31"): progress for a log with no error, too loose (a test net's outputs) to show a run went on past one;
# a value blown up to an exponent of 10 or more ("main/loss_ctc": -5.67e+35) is a diverging run, not progress
_LOSS_KEY = re.compile(r"\b(?:\w+_loss|loss_\w+)\b['\"]?\s*[:=]\s*-?\d+\.\d+(?!\d|e\+?\d\d)", re.IGNORECASE)
_LOSS_KEY_G = Gated.of(_LOSS_KEY)
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
_ADVISORY = LazyRegex(
    r"\b(?:is|are) deprecated\b|\bdeprecated!|\bwill be removed in\b|\bstrongly recommend|\bit is recommended to\b"
    r"|\bplease (?:note|pass|set|consider|use)\b|\byou should (?:set|consider)\b|\bmake sure the\b"
    r"|\byou may (?:observe|see|want|experience)\b|^Deprecated\b|\b(?:disable|avoid|silence) this warning\b"
    r"|^`?Setting `[^`]+` to `?\w|\bwill override any value\b|\bDefault to no\b|\bwill not have any effect\b"
    r"|^Device set to use \w|\bcurrently not supported (?:in|on) Windows\b",
    re.IGNORECASE,
)


_ADVISORY_ALT = Alternatives.of(_ADVISORY)


def _advisory(ln: Line) -> bool:
    return ln.usable and _ADVISORY_ALT.found(ln.text, ln.folded) and not _FAILING_G.search(ln.text, ln.folded)


# A bare row of numbers a training script prints each step or epoch (``7, 0.044, 17.460, 2.587``, ``76970 2.6265``),
# optionally after a timestamp tag closed by ``]`` or as a markdown table row (``| 1 | 0.52 | 0.61 |``): the first
# column is a counter, the others are measured values. The counter may count fractions (an epoch's progress as a
# decimal, ``99.7802\t0.8266``, the way trainers that log several times per epoch number their rows): it still grows.
_COUNTER_ROW = re.compile(
    r"^\s*(?:\S{0,40}\]\s*|\|\s*)?(?P<n>\d{1,9}(?:\.\d+)?)(?P<rest>(?:(?:\s*[,|;]\s*|\s+)-?\d*\.?\d+(?:e[-+]?\d+)?%?){1,12})\s*[,|;]?\s*$",
    re.IGNORECASE,
)
COUNTER_ROWS = 3


def _counter_rows(lines: list[Line]) -> Line | None:
    """The first of ``COUNTER_ROWS`` numeric rows whose counter column keeps growing and whose other columns hold
    measured (decimal) values: a training loop's own progress table, whatever it names its columns."""
    run: list[Line] = []
    last = -1.0
    for ln in lines:
        if not ln.text.strip():
            continue
        m = _COUNTER_ROW.match(ln.text) if ln.usable and "." in ln.text else None
        if m is None:
            run, last = [], -1
            continue
        n = float(m.group("n"))
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
_COUNTING_TRIES_G = Gated.of(_COUNTING_TRIES)


# what may stand between a count and the word after it that says what it counts ("2/5 attempts", "(1/3) retrying")
_AFTER_COUNT = re.compile(r"[\s)\]:,.]{0,3}")


def _counts_tries(ln: Line, m: re.Match[str]) -> bool:
    """The N/M count ``m`` counts tries: a retry/attempt/restart word before it on the line ("Attempt 2/5", "Retrying
    (1/3)") or right after it ("2/5 attempts"). Such a word in a later field of its own ("Steps: 12/250 | HTTP
    retries: 2", a progress display's separate retry counter) says nothing of what the count counts."""
    if not _COUNTING_TRIES_G.search(ln.text, ln.folded):
        return False
    if _COUNTING_TRIES.search(ln.text, 0, m.start()):
        return True
    after = _AFTER_COUNT.match(ln.text, m.end())
    return _COUNTING_TRIES.match(ln.text, after.end() if after else m.end()) is not None


def _fraction_runs(lines: list[Line]) -> list[list[Line]]:
    """The runs of ``COUNTER_ROWS`` or more lines whose N/M count of the same total M keeps growing, on lines that name
    no failure and no retry, in the order each reached ``COUNTER_ROWS`` lines: work advancing, whatever the program
    calls it ("Generating image for seed 497 (7/21) ...")."""
    current: dict[int, list[Line]] = {}
    last: dict[int, int] = {}
    runs: list[list[Line]] = []
    for ln in lines:
        if not ln.usable or "/" not in ln.text or _FAILING_G.search(ln.text, ln.folded):
            continue
        if _LOADING_BAR_G.search(ln.text, ln.folded):
            continue
        m = _FRACTION.search(ln.text)
        if m is None or _counts_tries(ln, m):
            continue
        n, of = int(m.group("n")), int(m.group("of"))
        if not 0 <= n <= of or of < 2:
            continue
        if of not in last or n <= last[of]:
            current[of] = []
        last[of] = n
        current[of].append(ln)
        if len(current[of]) == COUNTER_ROWS:
            runs.append(current[of])  # the same list: later lines of the run still join it
    return runs


def _counter_fractions(lines: list[Line]) -> Line | None:
    """The first line of the first run of a growing N/M count (:func:`_fraction_runs`)."""
    runs = _fraction_runs(lines)
    return runs[0][0] if runs else None


# A row of results the run printed, by its shape, whatever it names: three or more fields, at least two thirds of them
# numbers and one a decimal (a measured value): a confusion matrix's row (``[[852.  15.  26.]``), a CSV line of timings
# (``direct,gpu,1.577,1.591,1.565``), a metrics table's row. A listing of processes, jobs or ranks has names, states
# and clock times among its numbers (fewer than two thirds) and no decimal in most of its rows.
_FIELD_SPLIT = re.compile(r"[\s,;|\[\]()]+")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?%?", re.IGNORECASE)
_MEASURED = re.compile(r"\d\.\d|\d\.$|^\.\d")
RESULT_ROWS = 3


def _result_width(ln: Line) -> int | None:
    """The number of fields of a row of results (:data:`_NUMBER` fields), None when the line is not one."""
    if not ln.usable:
        return None
    fields = [f for f in _FIELD_SPLIT.split(ln.text.strip()) if f]
    numbers = [f for f in fields if _NUMBER.fullmatch(f)]
    if len(numbers) < 3 or 3 * len(numbers) < 2 * len(fields) or not any(_MEASURED.search(n) for n in numbers):
        return None
    return len(fields)


def _results(lines: list[Line]) -> Line | None:
    """The first row of a table of results that dominates the log: ``RESULT_ROWS`` or more distinct rows of one width
    in a row (blank lines between them do not part them), and such rows at least a third of the log's non-blank lines.
    A run whose log is mostly the numbers it computed produced its results; a debug print amid a longer log is not
    that, nor is one row printed over and over (values that never change were not measured)."""
    found: Line | None = None
    run: list[Line] = []
    width: int | None = None
    rows = filled = 0
    for ln in lines:
        if not ln.raw.strip():
            continue
        filled += 1
        w = _result_width(ln)
        rows += w is not None
        if w is None or w != width:
            run = []
        width = w
        if w is not None:
            run.append(ln)
        if found is None and len({r.text.strip() for r in run}) >= RESULT_ROWS:
            found = run[0]
    return found if found is not None and 3 * rows >= filled else None


# A run that ran to a result says so at its end: its last lines report what it measured, or say that its work was done.
# A log cut before its failure ends mid-stream instead (a traceback's frames, start-up chatter, a resource dump, a count
# not yet at its total). Read on the log's last REPORT_LINES lines that carry words, after its last line that speaks
# of a failure at any level (a warning "Cannot run postprocessing ... missing" after "inference done." ends that run).
REPORT_LINES = 6
# a named measured value: a name (a word, in any script), then ``:``, ``=``, ``is`` or a quoted key's ``': '``, then a
# decimal or a percentage that ends there (not a version's ``2.1.0``, an address's ``172.20.0.1``, a clock's
# ``14:29``), read as a measurement when printed to a measured precision (two decimals or more, or a percentage: not a
# version's ``11.0``). A value that is not a number (``nan``) is
# also read, to refuse the report: a run whose result is NaN did not produce one.
_NAMED_VALUE = re.compile(
    r"(?P<name>[^\W\d_][^\s:=]{0,40}?)['\"]?\s*(?:[:=：]|\bis\b)\s*"
    r"(?P<value>[-+]?(?:\d*\.\d+(?:e[-+]?\d+)?%?|\d+%)(?![\w.:/%-])|['\"]?[-+]?(?:nan|inf)\b)",
    re.IGNORECASE,
)
# a unit of size or time after a value, or a name that is a machine's resource: a resource reading ("Used: 24939.55
# MB", "transform time: 5.66 s", "{'CPU': 2.0, 'GPU': 1.0}"), what the run used or asked for, not what it computed
_UNIT_AFTER = re.compile(
    r"\s*(?:[kmgtp]?i?b|bytes?|ms|s|secs?|seconds?|mins?|minutes?|h|hours?|[a-z]+/s(?:ec)?)\b", re.IGNORECASE
)
_PRECISE = re.compile(r"\.\d{2,}|%$")
# a value blown up to an exponent of 10 or more (a diverging run's "loss_ctc": -5.67e+35, as _LOSS_KEY reads it)
_BLOWN_UP = re.compile(r"e\+?\d\d", re.IGNORECASE)
_RESOURCE = re.compile(r"^(?:cpus?|gpus?|mem(?:ory)?|ram|vram|swap|disk|storage|cores?)$", re.IGNORECASE)
# what a version or an identifier is called: a number, not a measurement
_NOT_MEASURED = re.compile(r"(?:version|ver|v|id|port|seed|rank|pid|ip)$", re.IGNORECASE)
# the run's own statement that its work was done: a status field saying success ("HowEnded=Success", "(status:
# SUCCEEDED)"), "successfully finished" (the other order is _FINISHED's), done/finished/completed followed by the work
# ("Done generating graph data", "Finished writing 12 shards"), a step's DONE status (BuildKit's "#26 DONE 2.3s"), a
# result saved or written to a place ("Saved preliminary data to x.pkl", "汇总结果已保存到: x.json"). Not a set-up step
# (loading, downloading, pulling, installing: the run's start-up). Also the work named, then said ended, closing its
# line anywhere on it ("sequence 00: inference done", "Evaluation finished in 2.7 hours"), or ended said first, of the
# work, with nothing but its duration after it (R targets' "▶ ended pipeline [2.749 hours]"); not a start-up step (a
# server's "Application startup complete.", NCCL's "Init COMPLETE", a warm-up: a run then cut off prints those too),
# not a shutdown, a teardown or a clean-up (a crashed server's "Application shutdown complete."), not "a complete
# stack trace", not what "might not have completed".
_SET_UP = r"(?:load|download|fetch|pull|install|extract|unpack|read|prepar|initiali[sz]|import|set(?:ting)? ?up)"
_DURATION = r"(?:\d+(?:\.\d+)?\s*(?:ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|days?)\b|\d+:\d{2}(?::\d{2})?)"
_NOT_WORK = (
    rf"(?:{_SET_UP}\w*|start\w*|init\w*|warm\w*|boot\w*|compil\w*|shut\w*|tear\w*|clean\w*|exit\w*|watchdog|job|an?"
    r"|the|not|never|have|has|had|be|been|might|may|will|would|could|should|to)\b"
)
# possessive runs: a line that goes on after its spaces and marks must not be retried at every split of them (three
# greedy runs of spaces in a row made "inference done" + 300 spaces + "x" cost 9 s)
_ENDS_LINE = (
    rf"[\s.!]*+(?:(?:[\[(]\s*+(?:in\s+|after\s+|took\s+)?{_DURATION}\s*+[\])]|(?:in|after)\s++{_DURATION})[\s.!]*+)?$"
)
_WORK_DONE = re.compile(
    r"\b(?:status|state|result|outcome|how ?ended)\s*[:=]\s*['\"]?(?:success|succeeded|successful|completed|done)\b"
    r"|\bsuccessfully (?:finished|completed|done|ended)\b"
    # the work named, then said done successfully at the line's end ("Chat request completed successfully")
    rf"|\b(?!{_NOT_WORK})[^\W\d_]{{3,}}\s+(?:completed|finished|done|succeeded)\s+successfully{_ENDS_LINE}"
    rf"|^\W*(?:done|finished|completed?)\b[^\w\n]*(?!{_SET_UP})\w+ing\b"
    rf"|\b(?!{_NOT_WORK})[^\W\d_]{{3,}}\s+(?:is\s+|was\s+|has\s+(?:been\s+)?)?(?:done|finished|complete|completed|ended)"
    rf"{_ENDS_LINE}"
    rf"|^\W*(?:ended|finished|completed)\s+(?:the\s+)?(?!{_NOT_WORK})[^\W\d_]{{3,}}{_ENDS_LINE}"
    r"|^#\d+ DONE\b"
    rf"|^\W*(?:saved|wrote|written|exported)\b(?!.*\b{_SET_UP}).*\b(?:to|in|into|at)\s+\S"
    r"|(?:保存|写入|导出)(?:到|至|在)"
    # a count of finished work, said in the past tense with nothing after it but a few words ("Updated 26182 rows.",
    # "Processed 5,000 images", "Wrote 12 shards to disk"): not a count of work still to do ("of 100"), not a set-up step
    r"|^\W*(?:updated|processed|inserted|wrote|generated|evaluated|predicted|scored|exported|converted|indexed"
    r"|uploaded|annotated|labell?ed|transcribed|embedded|encoded|tokeni[sz]ed|rendered|synthesi[sz]ed|computed"
    r"|classified|segmented)\s+(?:all\s+|a total of\s+)?\d[\d,]*\s+[^\W\d_]+(?!.*\bof\s+\d)(?:\s+\S+){0,4}?[\s.!]*$",
    re.IGNORECASE,
)
# the job script's own last word, the moment it ended ("End: Sun Jan 11 11:43:49 AM CST 2026", "ENDING TIMING RUN AT
# 2020-06-25 11:14:05 AM", "Job finished at 2024-03-02 10:11"), or a piece of work said finished with how long it took
# ("Finish train X in 11176.58 seconds"): a script that got to its end. Read only at the log's end,
# after its last line that speaks of a failure (:func:`_report_tail`), so a crash before the script's echo is read first.
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DATE = rf"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+)?(?:{_MONTH}\s+\d{{1,2}}\b|\d{{1,2}}\s+{_MONTH}|\d{{4}}-\d{{2}}-\d{{2}}\b)"
_ENDED_BADLY = r"error|fail|abort|kill|cancel|crash|exception|timeout|time limit"
_ENDED_AT = re.compile(
    rf"^\W*(?:job\s+|run\s+|script\s+)?(?:end(?:ed|ing)?|finish(?:ed)?)\b(?:(?!{_ENDED_BADLY})[^\n]){{0,40}}?(?:\bat|\bon|\btime|:)\s*[:=]?\s*{_DATE}"
    # the statement opening the line or the record's message, the work named right after it (not a start-up step)
    rf"|(?:^|[;|\]]\s*)\W*(?:finish(?:ed)?|done|completed?)\s+(?!{_NOT_WORK})[^\W\d_]{{3,}}(?:\s+[^\s:]+){{0,2}}"
    rf"\s+in\s+{_DURATION}[\s.!]*$",
    re.IGNORECASE,
)
# a count of work not yet at its total ("[45/100]"): the run stopped mid-way, whatever it printed before
_SHORT_COUNT = re.compile(r"(?<![\d/.])(\d{1,9})\s?/\s?(\d{1,9})(?![\d/.])")


# the shell's trace of the job script's commands (``set -x``: "+ echo 'RESULT,bert,286'", "++ date +%s"): what the
# script ran, not what the run printed, so the report is read past it
_XTRACE = re.compile(r"^\s*\++ \S")


def _report_tail(lines: list[Line]) -> list[Line]:
    """The log's last ``REPORT_LINES`` lines that carry a word or a number (rules, borders and blank lines skipped),
    after its last line that speaks of a failure, names a stopped or queued job, retries with no sign it got through,
    or belongs to a traceback; none when the log ends on such a line."""
    tail: list[Line] = []
    for ln in reversed(lines):
        if not any(ch.isalnum() for ch in ln.text) or _XTRACE.match(ln.text):
            continue
        if ln.code or _FRAME.match(ln.text) or _TB_START.search(ln.text) or _EXC_LINE.match(ln.text):
            break
        if any(ln.exit_codes) or (not ln.quiet and _ERRORISH_G.found(ln.text, ln.folded)):
            break
        if (_FAILING_G.search(ln.text, ln.folded) and not is_benign(ln.text, ln.folded) and _speaks_of_failure(ln)) or (
            _not_running(ln)
        ):
            break
        if _RETRY_G.search(ln.text, ln.folded) and not recovered_after(lines, ln.index):
            break
        tail.append(ln)
        if len(tail) >= REPORT_LINES:
            break
    return tail[::-1]


def named_pairs(ln: Line) -> list[tuple[str, str]]:
    """The line's named values (:data:`_NAMED_VALUE`) as (name, value as printed: ``0.5388``, ``67.86%``, ``nan``)."""
    if ":" not in ln.text and "=" not in ln.text and " is " not in ln.text and "：" not in ln.text:
        return []
    return [(m.group("name").strip("'\""), m.group("value")) for m in _NAMED_VALUE.finditer(ln.text)]


def named_values(ln: Line) -> list[str]:
    """The values of the line's named values (:func:`named_pairs`), as printed."""
    return [v for _, v in named_pairs(ln)]


# a benchmark's statistic of a time it measured ("Average time: 0.018s", "p95 latency = 41.2 ms", "mean step time:
# 0.31 s"): the result the run computed, although it carries a unit of time; a duration reported with no statistic
# ("transform time: 5.66 s", "took 30.61 s") is what a step cost, not a result
_TIMING_STAT = re.compile(
    r"\b(?:avg|average|mean|median|min|max|minimum|maximum|p\d{2,3}|std)\b[\w ]{0,24}?\b(?:time|latency|duration)s?"
    r"\s*[:=]\s*[-+]?\d*\.?\d+\s*(?:ms|s|us|µs|secs?|seconds?)?(?![\w.])",
    re.IGNORECASE,
)


# a well-known evaluation metric's name, then its value after a space only ("gmm accuracy 0.7521", "svc MCC 0.4728",
# "BLEU 27.41"): a named measured value printed without ``:`` or ``=``. Only the metrics' own names: a bare word before
# a number is as often a row label or a setting ("LSTM 0.7323", "lr 0.001").
_METRIC_WORD = (
    r"acc(?:uracy)?|mcc|f1(?:[-_ ]?score)?|(?:roc[-_ ]?)?auc|precision|recall|r2|rmse|mse|mae|mape|bleu|rouge-?\w{0,3}"
    r"|meteor|cider|m?ap(?:@?\d{2})?|m?iou|psnr|ssim|perplexity|ppl|wer|cer|top-?[15](?:[-_ ]?acc(?:uracy)?)?"
)
_METRIC_NAME = re.compile(_METRIC_WORD, re.IGNORECASE)
_SPACED_METRIC = re.compile(
    rf"(?<![\w.-])(?:{_METRIC_WORD})\s+[-+]?(?:\d*\.\d{{2,}}(?:e-\d+)?%?|\d+(?:\.\d+)?%)(?![\w.:/%-])", re.IGNORECASE
)


def _measured_values(ln: Line) -> tuple[int, int, bool]:
    """The named values on the line: (unit-free ones, resource readings, whether one of them is not a number or is
    blown up). A benchmark's timing statistic (:data:`_TIMING_STAT`) and a metric named before its value with only a
    space between (:data:`_SPACED_METRIC`) count as unit-free: they are what the run measured."""
    stats = [m.span() for m in _TIMING_STAT.finditer(ln.text)] if ":" in ln.text or "=" in ln.text else []
    stats += [m.span() for m in _SPACED_METRIC.finditer(ln.text)]
    free, used = len(stats), 0
    for m in _NAMED_VALUE.finditer(ln.text):
        if any(a <= m.start() < b for a, b in stats):
            continue
        name, value = m.group("name").strip("'\""), m.group("value")
        if value.lower().strip("'\"+-") in ("nan", "inf") or _BLOWN_UP.search(value):
            return free, used, True
        if _RESOURCE.match(name) or _UNIT_AFTER.match(ln.text, m.end()):
            used += 1
        elif _PRECISE.search(value) and not _NOT_MEASURED.search(name):
            free += 1
    return free, used, False


def _reported(lines: list[Line]) -> Line | None:
    """The line of the log's end (:func:`_report_tail`) that shows the run ran to a result: named measured values
    (more unit-free ones than resource readings over the tail, none of them NaN), two rows of a table of measured values of one width,
    or the run's statement that its work was done (:data:`_WORK_DONE`). None when the tail holds a count not yet at
    its total (the run stopped mid-way) or none of these."""
    tail = _report_tail(lines)
    for ln in tail:
        for m in _SHORT_COUNT.finditer(ln.text):
            if int(m.group(1)) < int(m.group(2)):
                return None
    free = used = 0
    last: Line | None = None
    for ln in tail:
        f, u, not_a_number = _measured_values(ln)
        if not_a_number:
            return None
        free, used = free + f, used + u
        last = ln if f else last
    done = next((ln for ln in reversed(tail) if _WORK_DONE.search(ln.text)), None)
    if done is not None:
        return done
    if last is not None and free > used:
        return last
    # rows of one width that differ (one row printed over and over was not measured, as in _results)
    widths = [(ln, _result_width(ln)) for ln in tail]
    for i, (ln, w) in enumerate(widths):
        if w is not None and any(w2 == w and r.text.strip() != ln.text.strip() for r, w2 in widths[i + 1 :]):
            return ln
    # the weakest: no result, but the script's own word that it got to its end
    return _named_columns(tail) or next((ln for ln in reversed(tail) if _ENDED_AT.search(ln.text)), None)


# the fields of a table's header or row: set off by spaces or a column bar
_COLUMNS = re.compile(r"\s*\|\s*|\s+")


def _named_columns(tail: list[Line]) -> Line | None:
    """The last row of the report tail that sits under a header naming its columns, one name a value, every field a
    number and one printed to a measured precision (an evaluation's per-subset table: "bleu ⬆  meteor ⬆" over
    "0.917  0.895"), or every field but a leading row label (a data frame printed without its index: "Model  R2" over
    "GRU 0.4777"; the rows between them of that shape too): named measured values laid out in columns. Not under a
    header that holds a number (a row of a listing) or names a machine's resource; a sign after a name ("⬆") is not a
    column."""
    for i in range(len(tail) - 1, 0, -1):
        fields = [f for f in _COLUMNS.split(tail[i].text.strip()) if f]
        if len(fields) < 2 or not all(_NUMBER.fullmatch(f) for f in fields[1:]):
            continue
        if not any(_PRECISE.search(f) for f in fields) or any(_BLOWN_UP.search(f) for f in fields):
            continue
        j = i - 1
        if not _NUMBER.fullmatch(fields[0]):  # a labelled row: the header is above the run of rows shaped like it
            while j > 0 and _labelled_row(tail[j].text, len(fields)):
                j -= 1
        header = tail[j].text
        heads = [f for f in _COLUMNS.split(header.strip()) if f]
        names = [f for f in heads if f[:1].isalpha()]
        # a number in the header is a listing's (gpu0 gpu1), unless it is part of a metric's name (R2, F1, top5)
        numbered = any(any(ch.isdigit() for ch in f) and not _METRIC_NAME.fullmatch(f) for f in heads)
        if numbered or len(names) != len(fields):
            continue
        if not any(_RESOURCE.match(n) for n in names):
            return tail[i]
    return None


def _labelled_row(text: str, width: int) -> bool:
    """The line is a row of ``width`` fields: a label, then numbers only, one of them printed to a measured precision."""
    fields = [f for f in _COLUMNS.split(text.strip()) if f]
    return (
        len(fields) == width
        and not _NUMBER.fullmatch(fields[0])
        and all(_NUMBER.fullmatch(f) for f in fields[1:])
        and any(_PRECISE.search(f) for f in fields[1:])
    )


# A run's closing summary of its own wall time ("Total time: 12.2 minutes", "Training time 0:41:07", "Total time
# 15.09s for 9 iterations"): it says the run reached its end, not that the end was good (a pipeline prints it under a
# failed step too), so it is positive evidence for a log with no open error, never a recovery from one
# (:func:`finished_after` does not read it)
_WALL_TIME_SUMMARY = re.compile(r"^\W*(?:Total (?:training |train |run )?time|Training time)\b\s*[:=]?\s*\d", re.I)


def positive_evidence(lines: list[Line]) -> tuple[str, Line] | None:
    """Why a log may be called healthy: ("finished", line) for a completion marker or exit 0, ("progress", line),
    ("rows", line) for a table of numeric rows with a growing counter (progress in no named format), ("results",
    line) for a log made mostly of a table of numeric results (:func:`_results`),
    ("started", line) for a run seen getting past its start-up, ("outputs", line) for a listing of the weights or
    results it wrote, ("routine", line) for a log made of the libraries' routine warnings and notices, or of records
    whose headers state a level below error (:func:`_records`), ("reported", line) for a log whose end reports what
    the run produced (:func:`_reported`); None when the log shows none of them. The person's
    lines in a paste (a typed command, an elision mark, their own sentence) are not the log's and are not read."""
    lines = [ln for ln in lines if not ln.aside]
    for ln in lines:
        if says_finished(ln):
            return "finished", ln
    for ln in lines:
        if "time" in ln.folded and _WALL_TIME_SUMMARY.search(ln.text):
            return "finished", ln
    # a bar loading the model's weights or fetching files is the run's start-up, not its work going on
    progress = next((ln for ln in lines if is_progress(ln) and not _LOADING_BAR_G.search(ln.text, ln.folded)), None)
    progress = progress or next(
        (
            ln
            for ln in lines
            if (ln.usable and _LOSS_KEY_G.search(ln.text, ln.folded)) or _SUMMARY_G.search(ln.text, ln.folded)
        ),
        None,
    )
    if progress is not None:
        return "progress", progress
    rows = _counter_rows(lines) or _counter_fractions(lines) or _loss_table(lines)
    if rows is not None:
        return "rows", rows
    results = _results(lines)
    if results is not None:
        return "results", results
    started = next((ln for ln in lines if _STARTED_ALT.found(ln.text, ln.folded)), None)
    if started is not None:
        return "started", started
    # a directory listing of the weights or results the run wrote (the user showing what it left behind)
    outputs = next((ln for ln in lines if _OUTPUT_FILE.match(ln.clean)), None)
    if outputs is not None:
        return "outputs", outputs
    routine = _routine(lines)
    if routine is not None:
        return routine
    # the log ends in a report of what the run produced: measured values, or its statement that the work was done
    reported = _reported(lines)
    return ("reported", reported) if reported is not None else None


# a warning that reports a failed system call with its errno ("The server socket has failed to bind to [::]:38429
# (errno: 98 - Address already in use)"): what it could not do may be what stops the run; not a library's routine talk
_SYSCALL_FAILED = re.compile(r"\bfailed to \w+\b.*\berrno:? ?\d+|\berrno:? ?\d+.*\bfailed\b", re.IGNORECASE)


# a measured result printed as NaN ("mAP:  nan", "mean dice:nan(nan)", "AUC=nan"): the evaluation produced no
# number, which a log of routine notices cannot pass off as a healthy run
_METRIC_NAN = re.compile(
    r"\b(?:mAP|dice|acc(?:uracy)?|auc|f1|m?iou|precision|recall|score|psnr|ssim|bleu|wer|loss)\b.{0,12}?[:=]\s*nan\b",
    re.IGNORECASE,
)


def nan_result(lines: list[Line]) -> Line | None:
    """The first line that reports a measured result as NaN (:data:`_METRIC_NAN`), or None."""
    return next((ln for ln in lines if _is_nan_result(ln)), None)


def _is_nan_result(ln: Line) -> bool:
    return "nan" in ln.folded and ln.usable and not ln.warning and _METRIC_NAN.search(ln.text) is not None


def _undecodable(ln: Line) -> bool:
    """A line mostly made of U+FFFD, the replacement character a decoder writes for bytes it could not read (a Windows
    console's GBK or cp1252 message decoded as UTF-8): whatever it said is lost."""
    lost = ln.text.count("\ufffd")
    return lost >= 4 and 3 * lost >= len(ln.text.strip())


def _routine(lines: list[Line]) -> tuple[str, Line] | None:
    """("routine", line) for a log made of the libraries' routine warnings and notices, or of records whose headers
    state a level below error (:func:`_records`); None otherwise."""
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
        if _is_nan_result(ln):
            return None  # an evaluation that printed NaN for its result is no routine noise
        if _undecodable(ln):
            return None  # text the log's encoding lost (a console's GBK as UTF-8) may be the error: unread, not routine
        if not ln.text.strip():
            notice = advice = False
        elif advice and ln.clean[:1] in (" ", "\t"):
            continue
        elif (ln.warning and not ln.code) or _INFO_LEVEL.match(ln.clean) or _INFO_LEVEL.match(ln.text):
            if _RETRY_G.search(ln.text, ln.folded) and not recovered_after(lines, ln.index):
                return None  # a failure being retried, with no sign it got through, is not routine noise
            if _not_running(ln):
                return None  # a job still queued or taken off its machine has shown no health yet
            if ln.warning and _SYSCALL_FAILED.search(ln.text):
                return None  # a warning that a system call failed (c10d's store "failed to bind … errno: 98")
            if not ln.warning and _failure_notice(ln):
                return None  # an INFO notice that something failed may be why the run stops (as in _records)
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
    return _records(lines)


# lines a program printed after a line that show it went on past it (engine._ran_on, ran_on_to_the_end)
RAN_ON_LINES = 3


# the column a launcher puts before each line a worker process printed (Ray's "(TaskRunner pid=525716) ", vLLM's
# "(EngineCore_DP0 pid=45) "): which process printed the line, read on the raw line without its colour codes
_PROCESS_TAG = re.compile(r"^\s*\((?:[\w.\-]+ )?(?:\w+=\w+,? )*pid=\d+(?:, ip=[\d.]+)?\)")
_COLOUR = re.compile(r"\x1b\[[0-9;?]*+[ -/]*+[@-~]")
# what a process printing its own work shows: steps advancing, rows of a counter, measured results, a finish
WENT_ON_KINDS = frozenset({"finished", "progress", "rows", "results"})


def process_tag(ln: Line) -> str | None:
    """The worker process's tag before the line (:data:`_PROCESS_TAG`), or None."""
    if "pid=" not in ln.raw:
        return None
    m = _PROCESS_TAG.match(_COLOUR.sub("", ln.raw))
    return m.group(0).strip() if m else None


def process_went_on(lines: list[Line], idx: int) -> bool:
    """The exception closing the traceback at ``idx`` was printed by a tagged worker process (:func:`process_tag`)
    that then went on printing its own work under the same tag: ``RAN_ON_LINES`` or more distinct lines after the
    traceback, among them positive evidence of steps, results or a finish (``WENT_ON_KINDS``), and no traceback or
    exception line of its own after it. An uncaught exception ends its process, so a process that reports its
    steps and metrics after one caught it (a signal handler's error at teardown, a logged exception); another
    process' lines, or a start-up, prove nothing."""
    if not 0 <= idx < len(lines):
        return False
    end = traceback_end(lines, idx)
    tag = process_tag(lines[end])
    if tag is None or _EXC_LINE.match(lines[end].text) is None:
        return False
    own: list[Line] = []
    for ln in lines[end + 1 :]:
        if process_tag(ln) != tag:
            continue
        if _TB_START.search(ln.text) or _EXC_LINE.match(ln.text):
            return False  # it raised again (or printed another exception): this one may be what ended it
        own.append(ln)
    if len({ln.text.strip() for ln in own if ln.usable}) < RAN_ON_LINES:
        return False
    found = positive_evidence(own)
    return found is not None and found[0] in WENT_ON_KINDS


# an import failure the program caught and logged inside its own sentence as the exception object's repr ("Failed to
# import amdsmi with ModuleNotFoundError(\"No module named 'amdsmi'\")"): the optional-dependency idiom (try: import x
# / except ImportError as e: log it); an uncaught import error prints a traceback's "ModuleNotFoundError: …" instead
_CAUGHT_IMPORT = re.compile(r"\b(?:ModuleNotFoundError|ImportError)\((?:['\"]|\\['\"])")


def caught_import_went_on(lines: list[Line], idx: int) -> bool:
    """Line ``idx`` is a caught import error the program logged (:data:`_CAUGHT_IMPORT`), and the program then printed
    ``RAN_ON_LINES`` or more distinct lines of its own, none of them error-looking nor a traceback: it did without the
    optional module and went on, so that module's absence is not what stopped the run."""
    if not 0 <= idx < len(lines) or _CAUGHT_IMPORT.search(lines[idx].text) is None:
        return False
    after = [ln for ln in lines[idx + 1 :] if ln.usable and _CAUGHT_IMPORT.search(ln.text) is None]
    if any(_TB_START.search(ln.text) for ln in after) or next(error_looking(after), None) is not None:
        return False
    return len({ln.text.strip() for ln in after}) >= RAN_ON_LINES


LOGGED_MESSAGE = 12  # the shortest exception message whose echo above a traceback shows the traceback was logged


def logged_exception_went_on(lines: list[Line], idx: int) -> bool:
    """The exception at ``idx`` closes a traceback that the program logged itself: the line right above the
    traceback's header quotes the exception's message (Python's logging with ``exc_info``: "Could not load
    bitsandbytes native library: 'NoneType' object has no attribute 'split'" then the traceback), so it caught the
    exception; and the program then printed ``RAN_ON_LINES`` or more distinct lines with no traceback or exception
    line of its own after it: that exception did not end it. Not when the same exception was logged before (a
    failure repeated item after item is the run failing, not a hiccup it got past)."""
    if not 0 <= idx < len(lines):
        return False
    exc = exception_type(lines[idx].text)
    if exc is None:  # the logger's own message line above the traceback: read from the traceback it introduces
        head = next((ln for ln in lines[idx + 1 : idx + 4] if ln.text.strip()), None)
        if head is None or not _TB_START.search(head.text) or lines[idx].code:
            return False
        end = traceback_end(lines, head.index)
        return end != head.index and logged_exception_went_on(lines, end)
    if len(exc[1]) < LOGGED_MESSAGE:
        return False
    start = next((k for k in range(idx - 1, max(-1, idx - 80), -1) if _TB_START.search(lines[k].text)), None)
    if start is None:
        return False
    above = next((ln for ln in reversed(lines[max(0, start - 3) : start]) if ln.text.strip()), None)
    if above is None or not above.text.rstrip().endswith(exc[1].rstrip()) or above.text.strip() == exc[1].strip():
        return False
    after = [ln for ln in lines[idx + 1 :] if ln.usable]
    if any(_TB_START.search(ln.text) or _EXC_LINE.match(ln.text) for ln in after):
        return False
    if any(ln.text.strip() == lines[idx].text.strip() for ln in lines[:start]):
        return False  # the same exception logged for item after item: the run fails at each, it did not get past it
    return len({ln.text.strip() for ln in after}) >= RAN_ON_LINES


def ran_on_to_the_end(lines: list[Line], idx: int, kinds: frozenset[str]) -> bool:
    """After line ``idx`` the log shows, to its end, a run that went on: ``RAN_ON_LINES`` or more distinct non-blank
    lines, among them positive evidence of one of ``kinds`` (:func:`positive_evidence` read on those lines alone), and
    none that states a non-zero exit code or speaks of a failure other than as a warning ("1 failed", an access
    record's "Internal Server Error" at INFO level). An experiment tracker's teardown (wandb's run history and
    summary, printed from an exit hook) is not read: it follows a crash as well. The caller makes sure no
    error-looking line lies after ``idx``."""
    tail = [ln for ln in lines[idx + 1 :] if not ln.text.startswith("wandb:")]
    said = [ln for ln in tail if ln.text.strip() and not ln.code and not ln.aside]
    if len({ln.text.strip() for ln in said}) < RAN_ON_LINES:
        return False
    if any(any(ln.exit_codes) or (_failure_notice(ln) and severity(ln.clean) != "warning") for ln in said):
        return False
    found = positive_evidence(tail)
    return found is not None and found[0] in kinds


# a line inside a record's body: indented, a row or rule of a table the record printed, or a line of a unified diff
# it printed (git diff's "diff --git a/x b/x", "index 1a2b3c4..5d6e7f8", "--- a/x", "+++ b/x", "@@ -1,7 +1,7 @@"
# hunk headers and their "-"/"+" lines)
_BODY = re.compile(
    r"^(?:\s|[|+][-=+|]|\||diff --git |index [0-9a-f]{7,}\.\.[0-9a-f]{7,}|--- a/|\+\+\+ b/"
    r"|@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@|[-+](?![-+]))"
)
# a record that speaks of something going wrong, unless it says it did not ("(no failures)", "will not be killed")
_NEGATED = re.compile(r"\b(?:no|not|never|without|0)\s+(?:be\s+|been\s+)?\w*\s*$", re.IGNORECASE)
RECORDS = 3


def _records(lines: list[Line]) -> tuple[str, Line] | None:
    """A log made of the program's own records below error level (severity.py reads each line's header, whatever
    the emitter's layout): at least ``RECORDS`` of them, at most half as many plain lines (a record's indented body
    and a table it prints are its own), and none at error level or speaking of a failure at info/debug level (a
    library that "could not open" something and says so at INFO may be why the run then stops: such a log stays
    "unknown"). This is the weakest sign of health: the run is alive and talking, nothing more."""
    records: list[Line] = []
    plain = 0
    for ln in lines:
        if not ln.raw.strip():
            continue
        level = severity(ln.clean)
        if level == "error" and not ln.harmless and not is_benign(ln.text, ln.folded):
            return None
        if level is None:
            plain += 0 if _BODY.match(ln.clean) else 1
            continue
        if level in ("debug", "info") and _not_running(ln):
            return None
        if level in ("debug", "info") and _failure_notice(ln):
            return None
        records.append(ln)
    if len(records) >= RECORDS and 2 * plain <= len(records):
        return "routine", records[0]
    return None


def _failure_notice(ln: Line) -> bool:
    """A notice below warning level that speaks of a failure, and is not one its emitter calls harmless."""
    return not ln.harmless and not is_benign(ln.text, ln.folded) and _speaks_of_failure(ln)


# a failure word that names a measured quantity, its value after it ("timeout rate: 0.00", "Timeout cases: 49 299",
# "num_errors=0", "failed (total): 3", "Full Dataset error is 0.2741"): a metric or a counter the program reports, not a statement that something failed
_METRIC_NAMED = re.compile(
    r"[\w-]*(?:[ _](?:rate|ratio|count|cases|case|percentage|fraction|frequency|number|total|pct))?"
    r"(?:\s*\([^()]{0,40}\))?(?:\s*[:=]\s*[-+]?(?:\d|(?:nan|inf)\b)|\s+is\s+[-+]?\d*\.\d)",
    re.IGNORECASE,
)


# a failure word that is a quoted key of a printed mapping whose value is empty, false or a nested structure
# ("{'failure': [], 'FAIL_TO_PASS': {'success': [...]}}", '"errors": 0'): a field's name, its value read on its own
_KEY_OPEN = re.compile(r"['\"]\w*$")
_FIELD_NAMED = re.compile(r"""\w*['"]\s*:\s*(?:False\b|false\b|None\b|null\b|0+(?:\.0+)?\b|[\[{]|''|"")""")


def _speaks_of_failure(ln: Line) -> bool:
    """The line names a failure it does not negate ("Unable to load cuDNN DSO", not "task will not be killed") and
    does not use only as a measured quantity's name ("timeout rate: 0.00") or a mapping's key (:data:`_FIELD_NAMED`)."""
    failing = any(
        not _NEGATED.search(ln.text[: m.start()])
        and not _METRIC_NAMED.match(ln.text, m.end())
        and not (_KEY_OPEN.search(ln.text[: m.start()]) and _FIELD_NAMED.match(ln.text, m.end()))
        for m in _FAILING.finditer(ln.text)
    )
    return failing and not _NOT_ERROR_G.search(ln.text, ln.folded)
