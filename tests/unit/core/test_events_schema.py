"""The `--json` event stream is a public contract: its JSON Schema is published in the repository and must match
the models the code emits; the terminal renders every event type it knows by type, and ignores unknown ones."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from runshepherd.events import EVENTS, Done, StatusChanged, parse_event, schema_text
from runshepherd.render.session import Renderer

SCHEMA = Path(__file__).resolve().parents[3] / "docs" / "events.schema.json"


def test_the_published_schema_is_the_generated_one() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == schema_text(), (
        "docs/events.schema.json is stale: python -m runshepherd.events > docs/events.schema.json"
    )


def test_the_schema_names_every_event_kind() -> None:
    kinds = {
        v["properties"]["event"]["const"]
        for v in json.loads(schema_text())["$defs"].values()
        if "event" in v.get("properties", {})
    }
    assert {"planned", "submitted", "status", "progress", "diagnosis", "fix", "question", "done"} <= kinds


def test_status_keeps_its_from_field_on_the_wire() -> None:
    wire = StatusChanged(workflow_id="w-1", from_="PENDING", to="RUNNING", text="w-1 is running").wire()
    assert wire == {
        "event": "status",
        "workflow_id": "w-1",
        "from": "PENDING",
        "to": "RUNNING",
        "text": "w-1 is running",
    }
    assert parse_event(wire) == StatusChanged(workflow_id="w-1", from_="PENDING", to="RUNNING", text="w-1 is running")


def test_a_paused_done_states_no_counts_it_did_not_read() -> None:
    wire = Done(outcome="NEEDS_INPUT", paused=True, resume="orchestrate resume s --answer yes").wire(only_set=True)
    assert "fix_attempts" not in wire and wire["paused"] is True and wire["event"] == "done"


def test_malformed_or_unknown_events_are_refused_by_the_schema() -> None:
    assert parse_event({"event": "submitted", "workflow_id": "w"}) is None  # attempt, reused, reason missing
    assert parse_event({"event": "teleported"}) is None
    with pytest.raises(ValueError):
        EVENTS.validate_python({"event": "progress", "workflow_id": "w", "text": "x", "extra": 1})


def test_the_terminal_renders_by_type_and_skips_what_it_does_not_know() -> None:
    buf = io.StringIO()
    r = Renderer(session="s1", as_json=False, out=Console(file=buf, width=200))
    r.event(StatusChanged(workflow_id="w-1", from_=None, to="RUNNING", text="w-1 is running").wire())
    r.event({"event": "teleported", "where": "mars"})
    assert buf.getvalue() == "● status    w-1 is running\n"
