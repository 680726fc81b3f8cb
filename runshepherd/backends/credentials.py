"""Scheduler-side credentials (OSMO: `osmo credential …`), an optional backend capability.

Secret values come only from environment variables or files, are held in ``SecretStr`` (masked in every repr),
and reach the scheduler through private 0600 temp files (never argv, where `ps` and call logs would show them).
Nothing here writes a value to state, logs or output: what is reported is each key's *source*, never its value.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, SecretStr

from runshepherd.errors import UsageError

CredentialType = Literal["REGISTRY", "DATA", "GENERIC"]
# Keys that are not secret and may be given inline (OSMO's payload tables: REGISTRY registry/username, DATA
# endpoint/region/override_url/addressing_style). Every other key — auth, access_key, any GENERIC value — must come
# from an environment variable or a file.
PLAIN_KEYS = {"registry", "username", "endpoint", "region", "override_url", "addressing_style", "access_key_id"}
REQUIRED = {"REGISTRY": ["auth"], "DATA": ["endpoint"], "GENERIC": []}
NGC_REGISTRY = "nvcr.io"
NGC_ENV = ("NGC_CLI_API_KEY", "NGC_API_KEY")  # the skill's order for an NGC key
NGC_USERNAME = "$oauthtoken"


class Credential(BaseModel):
    """One stored credential as the scheduler lists it (never with its values)."""

    name: str
    type: str
    profile: str | None = None  # OSMO: the registry or data endpoint it applies to


class PayloadValue(BaseModel):
    value: SecretStr
    source: str  # "inline", "env:NGC_CLI_API_KEY", "file:/path" — what a report may say instead of the value


Payload = dict[str, PayloadValue]


@runtime_checkable
class CredentialStore(Protocol):
    def list_credentials(self) -> list[Credential]: ...

    def set_credential(self, name: str, ctype: CredentialType, payload: Payload) -> None: ...

    def delete_credential(self, name: str) -> None: ...


# What a backend without a credential store uses instead (said plainly by `orchestrate credential`).
INSTEAD = {
    "local": "the local backend runs jobs as you on this machine: they use your own environment variables, files "
    "and `docker login`; RunShepherd keeps no credential store for it",
    "slurm": "Slurm jobs run as your user on the cluster: credentials live in your environment and home there "
    "(e.g. exported variables, ~/.netrc, your container runtime's login); RunShepherd keeps no credential store "
    "for Slurm",
}


def _pair(item: str, flag: str) -> tuple[str, str]:
    key, sep, rest = item.partition("=")
    if not sep or not key.strip() or not rest.strip():
        raise UsageError(f"{flag} {item!r}: expected KEY=VALUE, e.g. {flag} auth=NGC_CLI_API_KEY")
    return key.strip(), rest.strip()


def build_payload(
    ctype: CredentialType,
    *,
    from_env: list[str],
    from_file: list[str],
    values: list[str],
    registry: str | None = None,
    username: str | None = None,
    environ: dict[str, str] | None = None,
) -> Payload:
    """The payload from flags. Inline values only for non-secret keys; an NGC registry credential takes its key
    from $NGC_CLI_API_KEY (then $NGC_API_KEY) and the username ``$oauthtoken`` when not given."""
    env = os.environ if environ is None else environ
    payload: Payload = {}

    def put(key: str, value: str, source: str) -> None:
        if key in payload:
            raise UsageError(f"payload key {key!r} given twice")
        if not value:
            raise UsageError(f"payload key {key!r} is empty ({source})")
        payload[key] = PayloadValue(value=SecretStr(value), source=source)

    for item in values:
        key, value = _pair(item, "--value")
        if key not in PLAIN_KEYS or ctype == "GENERIC":
            raise UsageError(
                f"--value {key}=…: {key!r} may be secret, and a value on the command line lands in shell history "
                f"and `ps`; use --from-env {key}=VARIABLE or --from-file {key}=PATH"
            )
        put(key, value, "inline")
    for item in from_env:
        key, var = _pair(item, "--from-env")
        if var not in env:
            raise UsageError(f"--from-env {key}={var}: the environment variable {var} is not set")
        put(key, env[var], f"env:{var}")
    for item in from_file:
        key, path = _pair(item, "--from-file")
        p = Path(path).expanduser()
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"--from-file {key}={path}: cannot read it ({exc.strerror or exc})") from None
        put(key, text.rstrip("\r\n"), f"file:{p}")
    if registry is not None:
        put("registry", registry, "inline")
    if username is not None:
        put("username", username, "inline")
    if ctype == "REGISTRY" and _plain(payload, "registry") == NGC_REGISTRY:
        if "auth" not in payload:
            ngc = next((v for v in NGC_ENV if env.get(v)), None)
            if ngc is None:
                raise UsageError(
                    "an nvcr.io credential needs your NGC API key: export NGC_CLI_API_KEY (or pass "
                    "--from-env auth=VARIABLE / --from-file auth=PATH); it is never printed or stored here"
                )
            put("auth", env[ngc], f"env:{ngc}")
        if "username" not in payload:
            put("username", NGC_USERNAME, "inline")
    missing = [k for k in REQUIRED[ctype] if k not in payload]
    if missing:
        raise UsageError(
            f"a {ctype} credential needs {', '.join(missing)} (e.g. --from-env {missing[0]}=VARIABLE)"
            if missing[0] not in PLAIN_KEYS
            else f"a {ctype} credential needs {', '.join(missing)} (e.g. --value {missing[0]}=s3://bucket)"
        )
    if not payload:
        raise UsageError("give at least one payload key: --from-env KEY=VARIABLE or --from-file KEY=PATH")
    return payload


def _plain(payload: Payload, key: str) -> str | None:
    v = payload.get(key)
    return v.value.get_secret_value() if v is not None and v.source == "inline" else None


def describe(payload: Payload) -> dict[str, str]:
    """What may be shown: inline values of non-secret keys, and the source of every other key."""
    return {
        k: (v.value.get_secret_value() if v.source == "inline" and k in PLAIN_KEYS else f"from {v.source}")
        for k, v in payload.items()
    }


@contextmanager
def payload_files(payload: Payload) -> Iterator[dict[str, Path]]:
    """Each value in its own 0600 file in a private 0700 folder, removed afterwards whatever happens."""
    folder = Path(tempfile.mkdtemp(prefix="runshepherd-cred-"))
    try:
        out = {}
        for i, (key, v) in enumerate(payload.items()):
            path = folder / f"v{i}"
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(v.value.get_secret_value())
            out[key] = path
        yield out
    finally:
        for p in folder.iterdir():
            p.unlink(missing_ok=True)
        folder.rmdir()
