"""`langgraph dev` serves the repo's langgraph.json (no key, no network); the LangGraph SDK drives a whole session:
a thread, a run with a request, the submit question as an interrupt, resumes with answers, streamed to COMPLETED.
The run's context is plain JSON (ServerContext), turned into the session's deps inside the graph."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from cli_helpers import REPO, env_for, gated_spec

LANGGRAPH = shutil.which("langgraph", path=str(Path(sys.executable).parent))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_langgraph_json_names_the_graphs() -> None:
    cfg = json.loads((REPO / "langgraph.json").read_text())
    assert set(cfg["graphs"]) == {"orchestrate", "workflow_expert", "logs_reader"}
    from runshepherd.graph.server import graph

    assert graph.checkpointer is None  # the server brings its own


@pytest.mark.slow
def test_langgraph_dev_serves_a_session_driven_by_the_sdk(tmp_path: Path) -> None:
    from langgraph_sdk import get_sync_client

    assert LANGGRAPH, "langgraph-cli[inmem] is in the dev extra"
    port = _free_port()
    env = {**env_for(tmp_path), "LANGGRAPH_CLI_NO_ANALYTICS": "1", "LANGSMITH_TRACING": "false"}
    log = (tmp_path / "server.log").open("w")
    proc = subprocess.Popen(
        [LANGGRAPH, "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", str(port)]
        + ["--config", str(REPO / "langgraph.json")],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        client = get_sync_client(url=f"http://127.0.0.1:{port}")
        deadline = time.time() + 90
        while True:
            try:
                assistants = client.assistants.search(graph_id="orchestrate")
                break
            except httpx.HTTPError:  # not listening yet: the server imports the graphs first
                if proc.poll() is not None or time.time() > deadline:
                    pytest.fail("langgraph dev did not start: " + (tmp_path / "server.log").read_text()[-3000:])
                time.sleep(0.5)
        assert [a["graph_id"] for a in assistants] == ["orchestrate"]

        spec = tmp_path / "quick.yaml"
        spec.write_text(gated_spec(tmp_path / "go"))
        (tmp_path / "go").touch()  # it only has to finish (a fixed sleep 2 was waited out)
        thread = client.threads.create()["thread_id"]
        context = {"state_dir": str(tmp_path / "state"), "cadence": 0.2}  # plain JSON: ServerContext
        payload: dict[str, Any] = {
            "input": {"request": "run quick", "spec_path": str(spec), "set_values": {}, "pool": None}
        }
        events: list[dict[str, Any]] = []
        asked: list[str] = []
        for _ in range(6):
            for chunk in client.runs.stream(
                thread, "orchestrate", context=context, stream_mode=["custom", "updates"], **payload
            ):
                if chunk.event == "custom" and isinstance(chunk.data, dict):
                    events.append(chunk.data)
            state = client.threads.get_state(thread)
            if not state["interrupts"]:
                break
            if not asked:  # the first stop is the submit question, and nothing was submitted before it
                assert not any(e.get("event") == "submitted" for e in events)
            answers = {}
            for itr in state["interrupts"]:
                kind = itr["value"]["kind"]
                asked.append(kind)
                answers[itr["id"]] = "yes" if kind == "submit" else "no"
            payload = {"command": {"resume": answers}}
        values = client.threads.get_state(thread)["values"]
        assert asked[0] == "submit"
        assert values["outcome"] == "COMPLETED", values.get("outcome_reason")
        assert [e["event"] for e in events if e.get("event") == "submitted"] == ["submitted"]
        assert values["workflow_ids"] == ["slow-1"]
        assert (tmp_path / "state" / "audit.jsonl").is_file()  # the deps came from the run's context
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()
