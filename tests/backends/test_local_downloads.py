"""Downloads stay in scope: only the store's own URLs, nothing written outside DEST, no symlink followed out."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.backends.base import OutOfScope
from runshepherd.backends.local import LocalBackend

from .conformance import wait_terminal
from .helpers import spec_from_yaml

LINKS = """\
workflow:
  name: links
  tasks:
  - name: t
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["echo ok > {{{{output}}}}/ok.txt; ln -s ok.txt {{{{output}}}}/inner-link; ln -s {secret} {{{{output}}}}/shadow"]
"""


def _stored(backend: LocalBackend, tmp_path: Path) -> tuple[str, Path]:
    secret = tmp_path / "outside" / "shadow"
    secret.parent.mkdir()
    secret.write_text("root:SECRET-HASH\n")
    wid = backend.submit(spec_from_yaml(LINKS.format(secret=secret))).workflow_id
    assert wait_terminal(backend, wid).status.value == "COMPLETED"
    return wid, secret


def test_a_symlink_out_of_the_task_folder_is_neither_exported_nor_downloaded(tmp_path: Path) -> None:
    backend = LocalBackend(tmp_path / "state")
    wid, _ = _stored(backend, tmp_path)
    urls = backend.query(wid).outputs
    assert urls and not any(u.endswith("/shadow") for u in urls)
    assert "a symlink out of the task's output folder" in "".join(backend.logs(wid, "t"))
    dest = tmp_path / "dl"
    got = []
    for url in urls:
        got += backend.download(url, dest)
    texts = [p.read_text() for p in got]
    assert "SECRET-HASH" not in "".join(texts) and "ok\n" in texts
    assert all(p.resolve().is_relative_to(dest.resolve()) for p in got)


def test_a_symlink_planted_in_the_store_later_is_not_followed(tmp_path: Path) -> None:
    backend = LocalBackend(tmp_path / "state")
    wid, secret = _stored(backend, tmp_path)
    task_dir = tmp_path / "state" / "objects" / wid / "t"
    (task_dir / "late").symlink_to(secret)
    got = backend.download(task_dir.as_uri(), tmp_path / "dl")
    assert {p.name for p in got} == {"ok.txt", "inner-link"}
    with pytest.raises(OutOfScope):
        backend.download((task_dir / "late").as_uri(), tmp_path / "dl2")
    assert not (tmp_path / "dl2").exists()


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "https://example.com/x",
        "ftp://host/x",
        "file://otherhost/tmp/x",
        "{store}/WF/..",
        "{store}/../../outside",
        "{store}",
    ],
)
def test_urls_outside_the_store_are_refused_and_nothing_is_written(tmp_path: Path, url: str) -> None:
    backend = LocalBackend(tmp_path / "state")
    store = (tmp_path / "state" / "objects").resolve()
    store.mkdir(parents=True, exist_ok=True)
    dest = tmp_path / "dl" / "inner"
    with pytest.raises(OutOfScope):
        backend.download(url.format(store=store.as_uri()), dest)
    assert not (tmp_path / "dl").exists()
