"""Apps the scheduler itself hosts (OSMO apps): an optional backend capability beside the local app registry.

`orchestrate app list|show|submit` use it when the backend has one; the local registry otherwise.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Protocol, runtime_checkable

import yaml
from pydantic import BaseModel, Field

from runshepherd.backends.base import Priority, Submission


class CatalogApp(BaseModel):
    name: str
    description: str = ""
    owner: str | None = None
    latest_version: int | None = None
    versions: list[int] = Field(default_factory=list)
    parameters: dict[str, Any] = Field(default_factory=dict)  # the app's default-values: what --set can change


class AppCreated(BaseModel):
    name: str
    version: int | None = None
    url: str | None = None
    message: str


@runtime_checkable
class AppCreator(Protocol):
    """Optional capability: the scheduler keeps saved specs itself (OSMO apps); else the local registry does."""

    def create_app(self, name: str, description: str, spec_text: str) -> AppCreated: ...


@runtime_checkable
class AppCatalog(Protocol):
    def catalog_apps(self) -> list[CatalogApp]: ...

    def catalog_app(self, ref: str) -> CatalogApp: ...

    def app_spec(self, ref: str) -> str: ...

    def submit_app(
        self, app: str, *, pool: str | None = None, values: dict[str, Any] | None = None, priority: Priority = "NORMAL"
    ) -> Submission: ...


def parameters_from_show(text: str) -> dict[str, Any]:
    """The PARAMETERS block of `osmo app show`: the real CLI prints the default-values mapping (a Python dict's
    repr); the skill's fixtures print `key: value` lines. Both read; anything unreadable is an empty mapping."""
    m = re.search(r"^PARAMETERS\s*$(.*)", text, re.MULTILINE | re.DOTALL)
    if not m:
        return {}
    block = m.group(1).strip()
    if block.startswith("{"):
        try:
            value = ast.literal_eval(block)
        except (ValueError, SyntaxError):
            value = None
        return value if isinstance(value, dict) else {}
    try:
        value = yaml.safe_load("\n".join(line.strip() for line in block.splitlines()))
    except yaml.YAMLError:
        return {}
    return value if isinstance(value, dict) else {}


def description_from_show(text: str) -> str:
    m = re.search(r"^DESCRIPTION\s*$\s*(.+?)\s*(?:^PARAMETERS|\Z)", text, re.MULTILINE | re.DOTALL)
    return " ".join(m.group(1).split()) if m else ""
