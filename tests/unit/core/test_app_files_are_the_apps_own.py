"""`app show` reads an app's files only from its own folder, and an app is named by its folder.

Before: a v2.yaml that was a link (to /etc/passwd, found by fresh29) was followed and printed by `app show`; an
app.json saying "other" in folder tpl was listed as "other", a name no command finds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runshepherd.apps.registry import AppRegistry
from runshepherd.cli.main import main

SPEC = "workflow:\n  name: tpl\n  tasks:\n  - name: t\n    image: ubuntu:24.04\n    command: [echo, hi]\n"


def test_a_linked_version_file_is_refused_not_shown(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    apps = AppRegistry(here / "state" / "apps")
    apps.save("tpl", "A template.", SPEC)
    outside = here / "private.txt"
    outside.write_text("root:x:0:0:not-the-apps\n")
    (here / "state" / "apps" / "tpl" / "v2.yaml").symlink_to(outside)
    meta = here / "state" / "apps" / "tpl" / "app.json"
    record = json.loads(meta.read_text())
    record["versions"].append({**record["versions"][0], "version": 2})
    meta.write_text(json.dumps(record))
    assert main(["app", "show", "tpl:2"]) == 2
    got = capsys.readouterr()
    assert "not-the-apps" not in got.out + got.err, got  # the target named, never read
    assert "v2.yaml is a link" in " ".join(got.err.split()), got.err
    assert main(["app", "show", "tpl:1"]) == 0 and "name: tpl" in capsys.readouterr().out


def test_an_app_is_listed_under_its_folders_name(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    AppRegistry(here / "state" / "apps").save("tpl", "A template.", SPEC)
    meta = here / "state" / "apps" / "tpl" / "app.json"
    meta.write_text(json.dumps({**json.loads(meta.read_text()), "name": "other"}))
    assert main(["app", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    names = [a["name"] for a in (listed["apps"] if isinstance(listed, dict) else listed)]
    assert names == ["tpl"], listed
