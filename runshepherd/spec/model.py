"""OSMO's workflow YAML as pydantic models (docs/architecture.md §7).

The model is strict (extra fields are errors) because a silently ignored typo in a spec costs a user a queue
wait. Messages are written for a person: the loader adds file, line and field in front of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.functional_validators import BeforeValidator

ENV_NAME_RE = re.compile(r"^[A-Za-z_.-][A-Za-z0-9_.-]*$")  # Kubernetes' rule for env names; POSIX's is narrower
NAME_RE = re.compile(r"^[a-zA-Z]([a-zA-Z0-9_-]*[a-zA-Z0-9])?$")  # every such name is also a valid id (names.py)
NAME_MAX = 100  # leaves room for the "-<N>" a workflow id adds, within names.ID_MAX
SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(Ki|Mi|Gi|Ti)\s*$")
DURATION_RE = re.compile(r"^\s*(\d+)\s*([smhd])\s*$")
_UNIT = {"Ki": 1024, "Mi": 1024**2, "Gi": 1024**3, "Ti": 1024**4}
_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


# ------------------------------------------------------------------------------------------- scalar parsing
def parse_size(value: str) -> int:
    """'10Gi' → bytes. Only binary units, as OSMO (and Kubernetes quantities users copy from) expect."""
    m = SIZE_RE.match(str(value))
    if not m:
        raise ValueError(f'"{value}" is not a size — use Gi or Mi (e.g. 8Gi, 512Mi)')
    return int(float(m.group(1)) * _UNIT[m.group(2)])


def format_size(n_bytes: int) -> str:
    """bytes → the largest binary unit that keeps an integer (8589934592 → '8Gi')."""
    for unit in ("Ti", "Gi", "Mi", "Ki"):
        if n_bytes % _UNIT[unit] == 0:
            return f"{n_bytes // _UNIT[unit]}{unit}"
    return f"{max(1, round(n_bytes / _UNIT['Mi']))}Mi"


def parse_duration(value: str | int) -> int:
    """'30m' → 1800 seconds. OSMO accepts one unit only (no '10h5m')."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    m = DURATION_RE.match(str(value))
    if not m:
        raise ValueError(f'"{value}" is not a duration — use a whole number with one unit: 30s, 10m, 2h, 1d')
    return int(m.group(1)) * _SECONDS[m.group(2)]


def format_duration(seconds: int) -> str:
    for unit in ("d", "h", "m"):
        if seconds % _SECONDS[unit] == 0:
            return f"{seconds // _SECONDS[unit]}{unit}"
    return f"{seconds}s"


def _stringify(v: Any) -> Any:
    """YAML turns `3` and `true` into numbers and bools; commands and env vars are strings."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    return v


def _str_list(v: Any) -> Any:
    if isinstance(v, str):
        raise ValueError(f"must be a list, e.g. [{v.split()[0] if v.split() else 'python'!r}, ...], not a string")
    if isinstance(v, list):
        return [_stringify(x) for x in v]
    return v


def _str_map(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _stringify(x) for k, x in v.items()}
    return v


StrList = Annotated[list[str], BeforeValidator(_str_list)]
StrMap = Annotated[dict[str, str], BeforeValidator(_str_map)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


# ------------------------------------------------------------------------------------------- resources
class TopologyRequirement(_Strict):
    key: str
    group: str = "default"
    requirementType: Literal["required", "preferred"] = "required"


@dataclass(frozen=True)
class TaskRequest:
    """One task's request in numbers (0 where the spec asks for none)."""

    cpu: float = 0.0
    gpu: int = 0
    memory_bytes: int = 0
    storage_bytes: int = 0

    @property
    def memory_gi(self) -> float:
        return self.memory_bytes / 1024**3

    @property
    def storage_gi(self) -> float:
        return self.storage_bytes / 1024**3


class ResourceSpec(_Strict):
    cpu: float | None = Field(None, gt=0, allow_inf_nan=False)
    gpu: int | None = Field(None, ge=0)
    memory: str | None = None
    storage: str | None = None
    platform: str | None = None
    nodesExcluded: list[str] = Field(default_factory=list)
    topology: list[TopologyRequirement] = Field(default_factory=list)

    @field_validator("cpu", mode="before")
    @classmethod
    def _cpu(cls, v: Any) -> Any:
        if isinstance(v, str):
            try:
                return float(v)
            except ValueError:
                raise ValueError(f"{v!r} is not a CPU count — use a number such as 4") from None
        return v

    @field_validator("gpu", mode="before")
    @classmethod
    def _gpu(cls, v: Any) -> Any:
        if isinstance(v, str):
            if not v.strip().isdigit():
                raise ValueError(f"{v!r} is not a GPU count — use a whole number such as 1")
            return int(v)
        return v

    @field_validator("memory", "storage", mode="before")
    @classmethod
    def _size(cls, v: Any) -> Any:
        if v is None:
            return v
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            raise ValueError(f"{v!r} has no unit — use Gi or Mi (e.g. {v}Gi)")
        parse_size(str(v))
        return str(v).strip()

    @property
    def memory_bytes(self) -> int | None:
        return parse_size(self.memory) if self.memory else None

    @property
    def storage_bytes(self) -> int | None:
        return parse_size(self.storage) if self.storage else None

    def merged(self, override: ResourceSpec | None) -> ResourceSpec:
        if override is None:
            return self
        data = self.model_dump(exclude_unset=True)
        data.update(override.model_dump(exclude_unset=True))
        return ResourceSpec.model_validate(data)


class Timeout(_Strict):
    exec_timeout: str | int | None = None
    queue_timeout: str | int | None = None

    @field_validator("exec_timeout", "queue_timeout")
    @classmethod
    def _dur(cls, v: Any) -> Any:
        if v is not None:
            parse_duration(v)
        return v

    @property
    def exec_seconds(self) -> int | None:
        return parse_duration(self.exec_timeout) if self.exec_timeout is not None else None

    @property
    def queue_seconds(self) -> int | None:
        return parse_duration(self.queue_timeout) if self.queue_timeout is not None else None


# ------------------------------------------------------------------------------------------- task parts
class File(_Strict):
    path: str
    contents: str | None = None
    base64: bool = False
    localpath: str | None = None

    @model_validator(mode="after")
    def _one_source(self) -> File:
        if (self.contents is None) == (self.localpath is None):
            raise ValueError("a file needs exactly one of `contents` or `localpath`")
        if self.path.rstrip("/") == "/osmo" or self.path.startswith("/osmo/"):
            raise ValueError(f"file path {self.path!r} is under /osmo, which is reserved — choose another path")
        return self


class DatasetRef(_Strict):
    name: str
    path: str | None = None
    metadata: list[str] | None = None
    labels: list[str] | None = None
    regex: str | None = None
    localpath: str | None = None


class Input(_Strict):
    task: str | None = None
    url: str | None = None
    dataset: DatasetRef | None = None
    regex: str | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Input:
        kinds = [k for k in ("task", "url", "dataset") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError("an input needs exactly one of `task:`, `url:` (or, on OSMO 6.x, `dataset:`)")
        return self


class Output(_Strict):
    url: str | None = None
    dataset: DatasetRef | None = None
    update_dataset: dict[str, Any] | None = None
    regex: str | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Output:
        kinds = [k for k in ("url", "dataset", "update_dataset") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError("an output needs exactly one of `url:` (or, on OSMO 6.x, `dataset:`)")
        return self


class Checkpoint(_Strict):
    path: str
    url: str
    frequency: str | int | None = None
    regex: str | None = None


EXIT_ACTIONS = ("COMPLETE", "FAIL", "RESCHEDULE")
_EXIT_RANGE_RE = re.compile(r"^\s*\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*\s*$")


class Task(_Strict):
    name: str
    image: str
    command: StrList
    args: StrList = Field(default_factory=list)
    lead: bool = False
    environment: StrMap = Field(default_factory=dict)
    files: list[File] = Field(default_factory=list)
    inputs: list[Input] = Field(default_factory=list)
    outputs: list[Output] = Field(default_factory=list)
    credentials: dict[str, dict[str, str] | str] = Field(default_factory=dict)
    resource: str = "default"
    resources: ResourceSpec | None = None
    exitActions: dict[str, str] = Field(default_factory=dict)
    checkpoint: list[Checkpoint] = Field(default_factory=list)
    privileged: bool = False
    hostNetwork: bool = False
    volumeMounts: list[str] = Field(default_factory=list)
    downloadType: str | None = None
    cacheSize: str | None = None
    kpis: list[dict[str, Any]] = Field(default_factory=list)
    backend: str | None = None

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if len(v) > NAME_MAX:  # names become folder names and ids: a 5,000-character one cannot be stored
            raise ValueError(f"a name of {len(v):,} characters is too long — at most {NAME_MAX}")
        if not NAME_RE.match(v):
            raise ValueError(f"{v!r} is not a valid name — letters, digits, '-' and '_', starting with a letter")
        return v

    @field_validator("command")
    @classmethod
    def _command(cls, v: list[str]) -> list[str]:
        if not v:
            raise ValueError("command is empty — give the program to run, e.g. [python, train.py]")
        return _no_nul(v)

    @field_validator("args")
    @classmethod
    def _args(cls, v: list[str]) -> list[str]:
        return _no_nul(v)

    @field_validator("environment")
    @classmethod
    def _environment(cls, v: dict[str, str]) -> dict[str, str]:
        """Names a process can be given: one with '=' or nothing in it, or a NUL anywhere, only fails once the task
        starts, where it looked like the platform losing the job."""
        for key, value in v.items():
            if not ENV_NAME_RE.match(key):
                raise ValueError(
                    f"{key!r} is not an environment variable name — letters, digits, '_', '.' and '-', "
                    "not starting with a digit"
                )
            _no_nul([value])
        return v

    @field_validator("exitActions")
    @classmethod
    def _exit_actions(cls, v: dict[str, str]) -> dict[str, str]:
        for action, codes in v.items():
            if action not in EXIT_ACTIONS:
                raise ValueError(f"unknown exit action {action!r} — use one of {', '.join(EXIT_ACTIONS)}")
            if not _EXIT_RANGE_RE.match(str(codes)):
                raise ValueError(f"exit codes {codes!r} for {action} must look like '0,1-10,16'")
        return {k: str(c) for k, c in v.items()}


def _no_nul(values: list[str]) -> list[str]:
    if any("\0" in x for x in values):
        raise ValueError("holds a NUL character (\\0), which no program can be given — remove it")
    return values


class Group(_Strict):
    name: str
    tasks: list[Task] = Field(min_length=1)
    barrier: bool = True
    ignoreNonleadStatus: bool = True

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return Task._name(v)

    @model_validator(mode="after")
    def _one_lead(self) -> Group:
        leads = [t.name for t in self.tasks if t.lead]
        if len(self.tasks) > 1 and len(leads) != 1:
            found = "none" if not leads else ", ".join(leads)
            raise ValueError(f"group {self.name!r} needs exactly one task with `lead: true` (found {found})")
        return self


def _norm(name: str) -> str:
    return name.lower().replace("_", "-")


class Workflow(_Strict):
    name: str
    labels: dict[str, str] = Field(default_factory=dict)
    pool: str | None = None
    tasks: list[Task] | None = None
    groups: list[Group] | None = None
    resources: dict[str, ResourceSpec] = Field(default_factory=lambda: {"default": ResourceSpec()})
    timeout: Timeout = Field(default_factory=Timeout)
    backend: str | None = None

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return Task._name(v)

    @model_validator(mode="after")
    def _structure(self) -> Workflow:
        if (self.tasks is None) == (self.groups is None):
            raise ValueError("a workflow needs exactly one of `tasks:` or `groups:` (not both, not neither)")
        if self.tasks is not None and not self.tasks:
            raise ValueError("`tasks:` is empty — add at least one task")
        if self.groups is not None and not self.groups:
            raise ValueError("`groups:` is empty — add at least one group")
        seen: dict[str, str] = {}
        for t in self.all_tasks():
            key = _norm(t.name)
            if key in seen:
                raise ValueError(f"task names {seen[key]!r} and {t.name!r} clash (names ignore case and -/_)")
            seen[key] = t.name
        for t in self.all_tasks():
            if t.resource not in self.resources and not (t.resource == "default" and t.resources is not None):
                if t.resource != "default":
                    raise ValueError(
                        f"task {t.name!r} uses resource profile {t.resource!r}, which is not defined under "
                        f"workflow.resources (defined: {', '.join(self.resources) or 'none'})"
                    )
            for inp in t.inputs:
                if inp.task is not None and ":" not in inp.task and _norm(inp.task) not in seen:
                    raise ValueError(f"task {t.name!r} takes input from unknown task {inp.task!r}")
                if inp.task is not None and _norm(inp.task) == _norm(t.name):
                    raise ValueError(f"task {t.name!r} takes input from itself")
        self._check_cycles()
        return self

    # -- structure helpers used by backends -------------------------------------------------------------
    def all_tasks(self) -> list[Task]:
        if self.tasks is not None:
            return list(self.tasks)
        return [t for g in self.groups or [] for t in g.tasks]

    def task_groups(self) -> list[Group]:
        """Flat `tasks:` become one group per task named `<task>-group`, as OSMO does."""
        if self.groups is not None:
            return list(self.groups)
        return [Group(name=f"{t.name}-group", tasks=[t.model_copy(update={"lead": True})]) for t in self.tasks or []]

    def group_of(self, task_name: str) -> Group:
        for g in self.task_groups():
            if any(_norm(t.name) == _norm(task_name) for t in g.tasks):
                return g
        raise KeyError(task_name)

    def group_dependencies(self) -> dict[str, set[str]]:
        """group → groups it must wait for (from task `inputs`)."""
        deps: dict[str, set[str]] = {}
        for g in self.task_groups():
            needs: set[str] = set()
            for t in g.tasks:
                for inp in t.inputs:
                    if inp.task and ":" not in inp.task:
                        up = self.group_of(inp.task).name
                        if up != g.name:
                            needs.add(up)
            deps[g.name] = needs
        return deps

    def resources_for(self, task: Task) -> ResourceSpec:
        """The task's profile, overridden field by field by its inline `resources`."""
        base = self.resources.get(task.resource, ResourceSpec())
        return base.merged(task.resources)

    def largest_request(self) -> TaskRequest:
        """Field by field, the most any one task asks for: what a single node must be able to fit."""
        need = TaskRequest()
        for t in self.all_tasks():
            r = self.resources_for(t)
            need = TaskRequest(
                cpu=max(need.cpu, float(r.cpu or 0)),
                gpu=max(need.gpu, int(r.gpu or 0)),
                memory_bytes=max(need.memory_bytes, r.memory_bytes or 0),
                storage_bytes=max(need.storage_bytes, r.storage_bytes or 0),
            )
        return need

    def total_gpus(self) -> int:
        """GPUs the whole workflow asks for at once (every task's request added up)."""
        return sum(int(self.resources_for(t).gpu or 0) for t in self.all_tasks())

    def _check_cycles(self) -> None:
        deps = self.group_dependencies()
        state: dict[str, int] = {}

        def visit(n: str, path: list[str]) -> None:
            if state.get(n) == 1:
                loop = path[path.index(n) :] + [n]
                if self.tasks:  # flat tasks: name the tasks the person wrote, not OSMO's implicit `<task>-group`s
                    loop = [g.removesuffix("-group") for g in loop]
                raise ValueError("task inputs form a cycle: " + " → ".join(loop) + ("" if self.tasks else " (groups)"))
            if state.get(n) == 2:
                return
            state[n] = 1
            for m in sorted(deps.get(n, ())):
                visit(m, path + [n])
            state[n] = 2

        for n in deps:
            visit(n, [])


class WorkflowFile(_Strict):
    """The whole document: `workflow:` plus optional top-level `default-values:` and `version:`."""

    workflow: Workflow
    default_values: dict[str, Any] = Field(default_factory=dict, alias="default-values")
    version: int | None = None
