"""The deterministic intent router: a sentence → one typed intent. No model, no I/O, pure and total.

Phrasings it understands (docs/architecture.md §1, §13): start a run from a sentence, status, why pending, logs of a task,
what a workflow does, why it failed, download the outputs, save as an app, cancel, list runs, the pools, and answers to
the question a run (or the chat) is waiting on.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel

from runshepherd.experts.scope import out_of_scope
from runshepherd.sweep.request import sweep_from_request

IntentKind = Literal[
    "start",
    "status",
    "why_pending",
    "logs",
    "explain_workflow",
    "explain_failure",
    "download",
    "save_app",
    "cancel",
    "answer",
    "list_runs",
    "sweep_status",
    "pools",
    "out_of_scope",
    "draft",
    "help",
    "quit",
]

YES = {
    "y",
    "yes",
    "yep",
    "yeah",
    "ok",
    "okay",
    "sure",
    "go",
    "go ahead",
    "do it",
    "please do",
    "confirm",
    "approve",
    "approved",
    "yes please",
    "sounds good",
    "lgtm",
}
NO = {"n", "no", "nope", "no thanks", "no thank you", "don't", "do not", "skip", "not now", "decline"}
CHOICES = {"retry", "stop", "resubmit", "wait", "keep waiting", "cancel it now"}


class Intent(BaseModel):
    kind: IntentKind
    text: str = ""
    request: str | None = None
    workflow: str | None = None
    task: str | None = None
    answer: str | None = None


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower()).strip(" .!?")


# Words after "workflow" that are English, not an id ("what does workflow do", "workflow logs for …").
_NOT_IDS = {"do", "does", "is", "it", "x", "logs", "log", "status", "yaml", "spec", "file", "id", "that", "this", "the"}
_NOT_IDS |= {"and", "for", "to", "of", "with", "was", "has", "had", "run", "runs", "output", "outputs"}


def _workflow(text: str, known: list[str]) -> str | None:
    for wid in sorted(known, key=len, reverse=True):
        if re.search(rf"(?<![\w-]){re.escape(wid.lower())}(?![\w-])", text):
            return wid
    for m in re.finditer(r"\bworkflow\s+([a-z0-9][\w.-]*)", text):  # "workflow logs for workflow t-1": t-1
        if m.group(1) not in _NOT_IDS:
            return m.group(1)
    # An id said outright ("why did train-classifier-7 fail") wins over "the last run", known here or not.
    ids = re.findall(r"(?<![\w/.-])([a-z][a-z0-9]*(?:-[a-z0-9]+)*-\d+)(?![\w/-])", text)
    return ids[0] if ids else None


# What "status of X" may say that names no run: the current one ("of it", "of my training run", "for the job").
_CURRENT_WORDS = {"it", "this", "that", "these", "those", "them", "the", "my", "our", "a", "last", "latest", "current"}
_CURRENT_WORDS |= {"run", "runs", "job", "jobs", "training", "train", "experiment", "workflow", "workflows", "session"}
_CURRENT_WORDS |= {"everything", "all", "things", "now", "today", "model", "one", "work", "please", "so", "far"}


def _named(text: str) -> str | None:
    """The run or session a sentence names after "of"/"for" ("status of ../../etc", "status of session ab12"),
    when it is not a way of saying the current run; None when it names none."""
    m = re.search(r"\b(?:of|for)\s+(\S.*)$", text)
    if m is None:
        return None
    words = [w for w in m.group(1).split() if w not in _CURRENT_WORDS]
    return words[0] if len(words) == 1 else None  # "for lr 0.1" describes a run; it names none


_STATES = r"(?:running|done|finished|complete|completed|over|started|starting|alive)(?: yet| now)?"

_START = re.compile(
    r"^(?:please\s+|can you\s+|could you\s+|i want to\s+|let's\s+|lets\s+)?"
    r"(train|fine-?tune|finetune|run|launch|start|evaluate|eval|generate|submit|pretrain|benchmark)\b"
)


def route(text: str, *, waiting: str | None = None, known: list[str] | None = None) -> Intent:
    """``waiting``: the kind of question pending (a run's or the chat's), which turns "download it" or
    "yes" into an answer; ``known``: workflow ids of this conversation's runs."""
    t = _norm(text)
    known = known or []
    wid = _workflow(t, known)
    if t in {"quit", "exit", "bye", "q", ":q"}:
        return Intent(kind="quit", text=text)
    if t in YES or t.startswith(("yes,", "yes ", "ok,", "sure,")):
        return Intent(kind="answer", text=text, answer="yes")
    if t in NO or t.startswith(("no,", "no ")):
        return Intent(kind="answer", text=text, answer="no")
    if t in CHOICES:
        return Intent(kind="answer", text=text, answer=t.split()[0])
    if out_of_scope(text) is not None:
        return Intent(kind="out_of_scope", text=text)
    if re.match(r"(?:please |can you |could you )?(?:draft|write me|write)\b", t) and re.search(
        r"\b(?:spec|yaml|workflow|draft)\b", t
    ):
        return Intent(kind="draft", text=text, request=text.strip())
    if re.search(r"\b(cancel|abort|kill|terminate)\b", t) or re.match(
        r"stop (it|the run|the job|workflow|the sweep|all|everything)", t
    ):
        return Intent(kind="cancel", text=text, workflow=wid)
    if re.search(r"\bdownload\b|\b(fetch|get|grab|copy) (the |my )?(outputs?|results?|model|artifacts?)\b", t):
        return Intent(kind="download", text=text, workflow=wid)
    if re.search(r"\bsave\b.*\bapp\b|\bas an? app\b|\bmake (it )?an? app\b", t):
        return Intent(kind="save_app", text=text, workflow=wid)
    if re.search(r"\b(pending|queued|waiting|stuck|not (yet )?(running|started|starting))\b", t) and re.search(
        r"\b(why|what|is)\b", t
    ):
        return Intent(kind="why_pending", text=text, workflow=wid)
    if re.search(r"\b(why|how come)\b.*\b(fail|failed|crash|crashed|die|died|error|break|broke)\b", t) or re.search(
        r"\bwhat went wrong\b|\bexplain (the |this )?(failure|error)\b|\bdiagnos", t
    ):
        return Intent(kind="explain_failure", text=text, workflow=wid)
    if m := re.search(r"\blogs?\b(?:\s+(?:of|for|from)\s+(?:task\s+)?([\w.-]+))?", t):
        task = m.group(1) if m.group(1) and m.group(1) not in {"it", "the", "this", "that", "them"} else None
        if task and task in {w.lower() for w in known}:
            task = None
        named = _named(t)
        if wid is None and named is not None and not re.fullmatch(r"[\w.-]+", named):  # "../../etc": not a task
            return Intent(kind="logs", text=text, workflow=named)
        return Intent(kind="logs", text=text, workflow=wid, task=task)
    if m := re.search(r"\bwhat (?:does|is) (?:workflow )?([\w.-]+) (?:do|doing|for)\b", t) or re.search(
        r"\b(?:explain|describe) (?:workflow |the workflow )?([\w.-]+)", t
    ):
        target = m.group(1)
        return Intent(
            kind="explain_workflow",
            text=text,
            workflow=wid or (None if target in {"it", "this", "that", "the"} else target),
        )
    if sweep_from_request(text) is not None:  # "sweep lr over 1e-3, 3e-4 with FILE", "run this with 3 seeds"
        return Intent(kind="start", text=text, request=text.strip())
    # "sweep" as a word, never inside a name ("status of sweep-lr-1" asks about that workflow, not the sweep)
    if re.search(r"(?<![\w.-])(sweep|points?)(?![\w-])", t) and re.search(
        r"\b(how|status|doing|going|progress|compare|comparison|best|which)\b", t
    ):
        return Intent(kind="sweep_status", text=text)
    # "is train-7 running", "is mnist done yet" (was: help): that run's status; "is it running" the current one's
    if m := re.fullmatch(r"is (?:the |my |our )?([\w.-]+)(?: run| job| workflow)? (?:still )?" + _STATES, t):
        if m.group(1) not in {"anything", "something", "everything", "nothing", "there"}:
            return Intent(
                kind="status", text=text, workflow=wid or (None if m.group(1) in _CURRENT_WORDS else m.group(1))
            )
    # "list pools", "which pools have free gpus" (was: help); "train it on the free gpus" is a run to start
    if not _START.match(t) and re.search(
        r"\b(?:list|show)(?: me)?(?: the| my| all)?(?: gpu)? pools\b|^(?:gpu )?pools$|\b(?:what|which)(?: gpu)? pools\b"
        r"|\bwhere can i run\b|\bfree gpus\b|\bgpus? (?:are )?free\b",
        t,
    ):
        return Intent(kind="pools", text=text)
    # "how is sweep-lr-1 doing", "how's my training going" (was: help)
    doing = r"how(?:'s| is) (?:the |my )?[\w.-]+ (?:doing|going|coming along)"
    if re.search(rf"\b(status|progress|{doing}|how far|is it (done|finished|running)|eta)\b", t):
        # a run named but not found ("status of ../../etc") is said to be unknown, never answered with the current
        return Intent(kind="status", text=text, workflow=wid or _named(t))
    if re.search(
        r"\b(list|show)( my| the)? (runs|sessions|workflows)\b|^(my )?(runs|sessions|workflows)$"
        r"|\b(what|which) (runs|sessions|workflows) (do|have|are)\b"
        r"|\bwhat(?:'s| is| are)? (?:still )?running\b|\b(?:is )?(?:anything|something) (?:still )?running\b",
        t,
    ):
        return Intent(kind="list_runs", text=text)
    if t in {"help", "?", "what can you do", "commands"}:
        return Intent(kind="help", text=text)
    if _START.match(t):
        return Intent(kind="start", text=text, request=text.strip())
    if waiting and t:
        return Intent(kind="answer", text=text, answer=t)  # a free answer: the gate normalises or re-asks
    return Intent(kind="help", text=text)


# What `orchestrate "<sentence>"` should have been when the sentence asks about a workflow instead of naming a job.
_CLI_FOR = {
    "status": "status",
    "sweep_status": "status",
    "logs": "logs",
    "cancel": "cancel",
    "explain_failure": "diagnose",
    "why_pending": "diagnose",
    "explain_workflow": "explain",
    "download": "status",
    "list_runs": "list",
    "pools": "pools",
}
_ASKING = re.compile(r"(?:what|why|how|show|list|cancel|stop|kill|abort|download|is|where|which|when)\b")


def cli_command_for(text: str) -> str | None:
    """The command for a sentence that asks about a workflow ("what is the status of tiny-1", "cancel tiny-1"),
    so `orchestrate "<sentence>"` does not plan it as a training job; None for anything that may be a job."""
    t = _norm(text)
    if _START.match(t):
        return None
    intent = route(text)
    verb = _CLI_FOR.get(intent.kind)
    if verb is None or (intent.workflow is None and not _ASKING.match(t)):
        return None
    if verb == "list":
        return "orchestrate list (workflows) or orchestrate sessions (sessions)"
    if verb == "pools":
        return "orchestrate pools"
    target = intent.workflow or "WORKFLOW"
    if intent.kind == "download":
        return f"orchestrate status {target} (its output URLs), then orchestrate download URL DIR"
    return f"orchestrate {verb} {target}"
