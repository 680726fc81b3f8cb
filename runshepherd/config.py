"""Settings: the embedded default < user file < RUNSHEPHERD_* env < command-line flags."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator

from runshepherd.errors import ConfigError

DEFAULT_CONFIG = Path(__file__).with_name("configs") / "default.yaml"
ENV_PREFIX = "RUNSHEPHERD_"
LOG_SCANNER_VAR = ENV_PREFIX + "LOG_SCANNER"  # read for the whole process by logs/scanners.py: not a setting


# Bounds a value must keep to mean anything: before, `max_concurrency: 0` was an internal error after the plan,
# `max_fix_attempts: -5` "gave up after 0 fix attempts" and a negative cadence polled without pause.
Seconds = Annotated[float, Field(gt=0)]
SecondsOrZero = Annotated[float, Field(ge=0)]
Count = Annotated[int, Field(ge=1)]
CountOrZero = Annotated[int, Field(ge=0)]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Cadence(_Section):
    short: Seconds = 10
    training: Seconds = 30
    backoff: Seconds = 60
    backoff_after: Count = 4
    polls_per_checkpoint: Count = 5
    progress_every: SecondsOrZero = 3


class Fixes(_Section):
    max_fix_attempts: CountOrZero = 3
    max_infra_retries: CountOrZero = 3
    infra_backoff_seconds: SecondsOrZero = 5


class LogsConfig(_Section):
    tasks_per_reader: Count = 5
    max_concurrency: Count = 8
    capture_timeout_seconds: Seconds = 5
    tail_lines: Count = 2000
    max_error_lines: Count = 50
    digest_words: Count = 300
    stale_after_seconds: SecondsOrZero = 900
    redaction_patterns: list[str] = Field(default_factory=list)

    @field_validator("redaction_patterns")
    @classmethod
    def _compiles(cls, v: list[str]) -> list[str]:
        if not v:  # the usual case: the redaction rules (compiled at import) load only where a log is read
            return v
        import re

        from runshepherd.logs.redact import nested_quantifier

        for p in v:
            try:
                rx = re.compile(p)
            except re.error as exc:
                raise ValueError(f"{p!r} is not a regular expression ({exc}) — fix it or remove it") from None
            if rx.fullmatch(""):  # ".*" or "x?" redacted every line and every error message, this one included
                raise ValueError(f"{p!r} matches an empty text, so it would hide every line — make it match the secret")
            if nested_quantifier(p):  # checked at load, before any log line can make it backtrack for hours
                raise ValueError(
                    f"{p!r} repeats a repeat (a nested quantifier such as `(a+)+`), which can take exponential time on "
                    "a log line — write it without the outer repeat, e.g. `a+`"
                )
            ordinary = next((c for c in "aZ0 :-/." if rx.fullmatch(c)), None)
            if ordinary is not None:  # "." or "\w" replaced every character of every line, errors included
                raise ValueError(
                    f"{p!r} matches a single ordinary character ({ordinary!r}), so it would hide most of every line — "
                    "make it match the secret itself, e.g. `mytoken-[A-Za-z0-9]{20,}`"
                )
        return v


def _yes_no_read_as_bool(value: object) -> object:
    """YAML 1.1 reads a bare `yes`/`no` (and `on`/`off`, `true`/`false`) as a boolean, in a config file and in a
    RUNSHEPHERD_APPROVALS__* variable alike: it is the word the person wrote, not a wrong type. Before,
    `submit: yes` was refused with "Input should be 'ask', 'yes' or 'no' (got True)"."""
    return {True: "yes", False: "no"}.get(value, value) if isinstance(value, bool) else value


Approval = Annotated[Literal["ask", "yes", "no"], BeforeValidator(_yes_no_read_as_bool)]


class Approvals(_Section):
    submit: Approval = "ask"
    resubmit: Approval = "ask"
    download: Approval = "ask"
    save_app: Approval = "ask"


class Pending(_Section):
    explain_after_seconds: SecondsOrZero = 120


class LLMConfig(_Section):
    """The model path (used only when `expert` is `provider:model`). Keys come from the environment only."""

    base_url: str | None = None  # an OpenAI-compatible server (vLLM, llama.cpp, Ollama's /v1)
    timeout_seconds: Seconds = 60
    max_retries: CountOrZero = 1
    max_tokens_per_session: int | None = None  # a ceiling: LLM calls stop (the run does not) once reached
    max_cost_per_session: float | None = None  # in the currency of the prices below
    price_per_1k_input: float = 0.0
    price_per_1k_output: float = 0.0


class SmtpConfig(_Section):
    """Where `mailto:` notifications are sent from. The password comes from the environment variable named
    here, never from a file."""

    host: str = "localhost"
    port: Annotated[int, Field(ge=1, le=65535)] = 25
    sender: str = "runshepherd@localhost"
    username: str | None = None
    password_env: str | None = None
    starttls: bool = False
    timeout_seconds: Seconds = 10


def _checked(check: Callable[[str], object], value: str) -> None:
    """Run a check that raises ConfigError as a pydantic validator (which reports only ValueError)."""
    try:
        check(value)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None


class Settings(_Section):
    backend: Literal["local", "slurm", "osmo"] = "local"
    expert: str = "heuristic"
    state_dir: Path | None = None
    cadence: Cadence = Field(default_factory=Cadence)
    fixes: Fixes = Field(default_factory=Fixes)
    logs: LogsConfig = Field(default_factory=LogsConfig)
    approvals: Approvals = Field(default_factory=Approvals)
    pending: Pending = Field(default_factory=Pending)
    llm: LLMConfig = Field(default_factory=LLMConfig)
    backends: dict[str, dict[str, Any]] = Field(default_factory=dict)
    notify: list[str] = Field(
        default_factory=list, description="where state changes are sent: https://…, mailto:…, desktop, file:PATH"
    )
    smtp: SmtpConfig = Field(default_factory=SmtpConfig)
    checkpointer: str | None = Field(
        None, description="where sessions live: unset = sessions.sqlite in the state dir; postgresql://… = PostgreSQL"
    )

    @field_validator("expert")
    @classmethod
    def _expert_name(cls, v: str) -> str:
        """Checked at load, so the error names where the name came from (flag, variable or file)."""
        if v != "heuristic":
            from runshepherd.experts.llm.factory import parse_model_name

            _checked(parse_model_name, v)
        return v

    @field_validator("notify")
    @classmethod
    def _notify_targets(cls, v: list[str]) -> list[str]:
        """Each target's form is checked at load, so the error names where it came from (variable or file)."""
        if not v:  # the usual case: no import of the channels (smtplib, urllib.request, email) on every command
            return v
        from runshepherd.notify.channels import channel_for

        for target in v:
            _checked(channel_for, target)
        return v

    @field_validator("checkpointer")
    @classmethod
    def _checkpointer_url(cls, v: str | None) -> str | None:
        if v and not v.startswith(("postgresql://", "postgres://")):
            raise ValueError("use a postgresql://USER@HOST:PORT/DB URL, or leave it unset for SQLite in the state dir")
        return v or None

    def resolved_state_dir(self) -> Path:
        if self.state_dir is not None:
            path = Path(self.state_dir).expanduser()
            if path.exists() and not path.is_dir():  # else every command fails deep inside (FileExistsError)
                raise ConfigError(
                    f"state dir {path} is a file, not a folder — point --state-dir, RUNSHEPHERD_STATE_DIR or "
                    "`state_dir:` in the config at a folder (it is created if missing)"
                )
            return path
        import platformdirs

        return Path(platformdirs.user_data_dir("runshepherd", appauthor=False))


def user_config_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_config_dir("runshepherd", appauthor=False)) / "config.yaml"


def _read_yaml(path: Path) -> dict[str, Any]:
    from runshepherd.spec.limits import LimitExceeded, load_yaml, read_small_text

    try:
        data = load_yaml(read_small_text(path, "a config file"))[0] or {}  # bounded: size, nesting, aliases
    except FileNotFoundError:
        raise ConfigError(f"{path}: config file not found — check the --config path") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: is a folder — give the config file itself, e.g. {path / 'config.yaml'}") from None
    except LimitExceeded as exc:
        raise ConfigError(f"{path}{f':{exc.line}' if exc.line else ''}: {exc}") from None
    except ValueError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        raise ConfigError(f"{where}: config is not valid YAML ({getattr(exc, 'problem', exc)})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: config must be a mapping of settings")
    return data


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def env_settings(environ: dict[str, str] | os._Environ[str]) -> dict[tuple[str, ...], str]:
    """The setting path each RUNSHEPHERD_* variable sets: RUNSHEPHERD_CADENCE__TRAINING → ("cadence", "training")
    (double underscore = nesting), so an error can name the variable the person actually set."""
    return {
        tuple(key[len(ENV_PREFIX) :].lower().split("__")): key
        for key, value in environ.items()
        if key.startswith(ENV_PREFIX) and value and key != LOG_SCANNER_VAR
    }


def env_overrides(environ: dict[str, str] | os._Environ[str]) -> dict[str, Any]:
    """RUNSHEPHERD_BACKEND=slurm, RUNSHEPHERD_CADENCE__TRAINING=20 (double underscore = nesting)."""
    out: dict[str, Any] = {}
    for path, key in env_settings(environ).items():
        value = environ[key]
        node = out
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = yaml.safe_load(value) if value.strip() else value
    return out


def _setting_error(
    err: Any,
    *,
    env: dict[tuple[str, ...], str],
    environ: Any,
    flags: dict[str, Any],
    file: Path | None,
    file_data: dict[str, Any],
) -> ConfigError:
    """One line naming where the bad value came from — the flag, the RUNSHEPHERD_* variable or the config file —
    the setting, what is wrong and what to do."""
    from runshepherd.logs.redact import redact_line  # a rejected value may be a URL with a password in it

    loc = tuple(str(p) for p in err["loc"])
    field = ".".join(loc)
    got = redact_line(repr(err.get("input")))
    msg = str(err["msg"]).removeprefix("Value error, ")
    var = next((v for path, v in env.items() if path[: len(loc)] == loc or loc[: len(path)] == path), None)
    if loc and loc[0] in flags and not (var and str(environ.get(var)) == str(flags[loc[0]])):
        return ConfigError(f"--{loc[0].replace('_', '-')}: {msg} (got {got})")  # typed, not the variable's value
    if var is not None:
        section = _section_fields(loc) if err["type"] in ("model_type", "dict_type") else None
        if err["type"] == "extra_forbidden":
            todo = (
                f"there is no setting {field!r}: unset {var}, or name a setting (RUNSHEPHERD_<SETTING>, __ for nesting)"
            )
        elif section:
            todo = f"{field!r} is a group of settings: set one of them instead ({', '.join(section)})"
        elif err["type"] == "list_type":
            todo = f"setting {field!r} is a list: give it as YAML or JSON, e.g. {var}='[\"…\"]'"
        else:
            todo = f"setting {field!r}: {msg} — fix the value or unset {var}"
        return ConfigError(f"environment variable {var}={redact_line(_shown(str(environ.get(var, ''))))}: {todo}")
    where = _where(loc, {}, file, file_data) if file is not None else "configuration"
    if err["type"] == "extra_forbidden":  # the name is what is wrong: its value is never shown (`smtp: password: …`)
        known = ", ".join(_field_names(loc[:-1]))
        return ConfigError(f"{where}: there is no setting {field!r} — remove it or use one of: {known}")
    return ConfigError(f"{where}: setting {field!r}: {msg} (got {got})")


def _check_backend_options(
    backends: dict[str, dict[str, Any]],
    *,
    env: dict[tuple[str, ...], str],
    file: Path,
    file_data: dict[str, Any],
) -> None:
    """A key under `backends:` that no backend reads is a typo or a wish, not a setting: `partitoin: gpu` ran on
    the default partition and `local: pool: gpu-a` on the one local pool, without a word. Refused (exit 2) naming
    where it was written (file and line, or the variable), the key, the closest option and what to do."""
    import difflib

    from runshepherd.backends import OPTIONS

    for name, options in backends.items():
        loc: tuple[str, ...] = ("backends", str(name))
        if name not in OPTIONS:
            raise ConfigError(
                f"{_where(loc, env, file, file_data)}: there is no backend {str(name)!r} under 'backends' — "
                f"use one of: {', '.join(OPTIONS)}"
            )
        known = OPTIONS[name]
        for key in options:
            if key in known:
                continue
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f" — did you mean {close[0]!r}?" if close else ""
            todo = (
                f"its options: {', '.join(sorted(known))}"
                if known
                else f"the {name} backend takes no options: remove it"
            )
            raise ConfigError(
                f"{_where((*loc, str(key)), env, file, file_data)}: backends.{name}.{key}: the {name} backend has no "
                f"option {str(key)!r}{hint} ({todo})"
            )


def _where(loc: tuple[str, ...], env: dict[tuple[str, ...], str], file: Path, file_data: dict[str, Any]) -> str:
    """Where a setting was written: ``FILE:LINE`` (the config file), the RUNSHEPHERD_* variable, else the default."""
    if _has(file_data, loc):
        line = key_line(file, loc)
        return f"{file}:{line}" if line else str(file)
    var = env.get(loc)
    return f"environment variable {var}" if var else "configuration"


def key_line(path: Path, loc: tuple[str, ...]) -> int | None:
    """The 1-based line of the key at ``loc`` in a YAML file already read and bounded (a config, a runs file)."""
    try:
        node: Any = yaml.compose(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, yaml.YAMLError):
        return None
    line = None
    for part in loc:
        if isinstance(node, yaml.SequenceNode) and part.isdigit() and int(part) < len(node.value):
            node = node.value[int(part)]  # a list item: its own line (`- 5`)
            line = node.start_mark.line + 1
            continue
        if not isinstance(node, yaml.MappingNode):
            return None
        match = next(((k, v) for k, v in node.value if getattr(k, "value", None) == part), None)
        if match is None:
            return None
        line, node = match[0].start_mark.line + 1, match[1]
    return line


def _shown(value: str, limit: int = 200) -> str:
    return repr(value) if len(value) <= limit else repr(value[:limit]) + "…"


def _has(data: Any, loc: tuple[str, ...]) -> bool:
    for part in loc:
        if isinstance(data, list) and part.isdigit() and int(part) < len(data):
            data = data[int(part)]
        elif isinstance(data, dict) and part in data:
            data = data[part]
        else:
            return False
    return True


def _field_names(loc: tuple[str, ...]) -> list[str]:
    """The settings of the group at ``loc`` (() = the top level); [] when ``loc`` is not a group."""
    model: Any = Settings
    for part in loc:
        info = getattr(model, "model_fields", {}).get(part)
        if info is None:
            return []
        model = info.annotation
    return list(getattr(model, "model_fields", None) or [])


def _section_fields(loc: tuple[str, ...]) -> list[str]:
    return [f"{ENV_PREFIX}{'__'.join(loc).upper()}__{name.upper()}" for name in _field_names(loc)]


def load_settings(
    config_file: Path | None = None,
    *,
    flags: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
) -> Settings:
    data = _read_yaml(DEFAULT_CONFIG)
    user_file = config_file or user_config_path()
    file_data: dict[str, Any] = {}
    if config_file is not None or user_file.exists():
        file_data = _read_yaml(user_file)
        data = _merge(data, file_data)
    env = os.environ if environ is None else environ
    data = _merge(data, env_overrides(env))
    given = {k: v for k, v in (flags or {}).items() if v is not None}
    data = _merge(data, given)
    try:
        settings = Settings.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        raise _setting_error(
            err,
            env=env_settings(env),
            environ=env,
            flags=given,
            file=user_file if file_data else None,
            file_data=file_data,
        ) from None
    _check_backend_options(settings.backends, env=env_settings(env), file=user_file, file_data=file_data)
    # one redaction, everywhere in this process (logs/redact.py); not imported at all when there is nothing to set
    if settings.logs.redaction_patterns or "runshepherd.logs.redact" in sys.modules:
        from runshepherd.logs.redact import use_patterns

        use_patterns(settings.logs.redaction_patterns)
    return settings
