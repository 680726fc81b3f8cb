"""A local, versioned app registry: a saved spec with a one-sentence description, like OSMO apps.

Layout: <state>/apps/<name>/app.json (name, description, versions) and v<N>.yaml. An unchanged spec does not
create a new version (OSMO's behaviour).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from filelock import FileLock
from pydantic import BaseModel, Field

from runshepherd.errors import RunShepherdError
from runshepherd.names import is_id
from runshepherd.spec.model import NAME_MAX, NAME_RE
from runshepherd.wording import sentence_start


class AppVersion(BaseModel):
    version: int
    created: str
    source_workflow: str | None = None


class App(BaseModel):
    name: str
    description: str
    versions: list[AppVersion] = Field(default_factory=list)

    @property
    def latest(self) -> int:
        return self.versions[-1].version if self.versions else 0


class AppError(RunShepherdError):
    exit_code = 2


class AppRegistry:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def _dir(self, name: str) -> Path:
        if len(name) > NAME_MAX or not NAME_RE.match(name) or not is_id(name):
            raise AppError(f"app name {name!r} is not valid — letters, digits, '-' and '_', starting with a letter")
        return self.root / name

    def list_apps(self) -> list[App]:
        if not self.root.is_dir():
            return []
        return [self.get(p.name) for p in sorted(self.root.iterdir()) if (p / "app.json").is_file()]

    def get(self, name: str) -> App:
        meta = self._dir(name) / "app.json"
        if not meta.is_file():
            known = ", ".join(a.name for a in self.list_apps()) if self.root.is_dir() else ""
            raise AppError(f"no app {name!r}" + (f" — known apps: {known}" if known else " — none saved yet"))
        _inside(meta, name)
        app = _read_app(meta)
        # the folder is the app's name (`app submit NAME` finds it by that): an app.json that says another name (a
        # folder renamed or copied by hand) is shown under the folder's, never listed as an app no command finds
        return app if app.name == name else app.model_copy(update={"name": name})

    def spec(self, ref: str) -> str:
        name, colon, ver = ref.partition(":")
        app = self.get(name)
        if colon and not (ver.isascii() and ver.isdigit()):  # `NAME:` with no version is a typo, not "latest"
            raise AppError(
                f"{ref!r}: the version after ':' is a number, e.g. {name}:{app.latest} (latest is {app.latest})"
            )
        version = int(ver) if ver else app.latest
        path = self._dir(name) / f"v{version}.yaml"
        if not path.is_file():
            raise AppError(f"app {name!r} has no version {version} (latest is {app.latest})")
        _inside(path, name)
        return path.read_text(encoding="utf-8")

    def save(self, name: str, description: str, spec_text: str, source_workflow: str | None = None) -> App:
        d = self._dir(name)
        d.mkdir(parents=True, exist_ok=True)
        with FileLock(str(d / ".lock")):
            meta = d / "app.json"
            app = _read_app(meta) if meta.is_file() else App(name=name, description=description)
            if app.versions and (d / f"v{app.latest}.yaml").read_text(encoding="utf-8") == spec_text:
                return app
            version = app.latest + 1
            (d / f"v{version}.yaml").write_text(spec_text, encoding="utf-8")
            app.versions.append(
                AppVersion(
                    version=version,
                    created=datetime.now(UTC).isoformat(timespec="seconds"),
                    source_workflow=source_workflow,
                )
            )
            app.description = description or app.description
            tmp = meta.with_suffix(".tmp")
            tmp.write_text(app.model_dump_json(indent=2), encoding="utf-8")
            tmp.replace(meta)
            return app


def describe(spec_name: str, request: str) -> str:
    """One sentence for the app, from what the person asked (or the spec's name); never from a part of the request
    that reads as a shell command (the session's request is kept as it came through the door, `request_text.enter`,
    which cut those out: they were not used for the job either)."""
    text = request.strip().rstrip(".")
    if text:
        return sentence_start(text) + "."  # never "Train.py": a file name keeps its case
    return f"Runs the {spec_name} workflow."


def _inside(path: Path, name: str) -> None:
    """An app's files are its folder's own: a link (v2.yaml -> /etc/passwd) is refused, never followed and shown."""
    if path.is_symlink():
        raise AppError(
            f"app {name!r}: {path.name} is a link ({path} -> {path.readlink()}); an app's files are read only from "
            "its own folder — replace the link with the file itself"
        )


def _read_app(meta: Path) -> App:
    from pydantic import ValidationError

    from runshepherd.environment import damaged_file

    try:
        return App.model_validate_json(meta.read_bytes())
    except ValidationError:
        raise damaged_file(meta, "an app record") from None
