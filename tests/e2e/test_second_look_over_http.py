"""The model's second look through a real provider client: `orchestrate diagnose --log` with `expert: openai:…` and
`llm.base_url` at an OpenAI-compatible server on 127.0.0.1 (the benchmark's replay server, benchmarks/
bench_second_look.py). The request carries the log's lines and the offered tool; a recorded tool call becomes the
printed verdict, marked as the model's; a prose reply (no answer recorded) is rejected with a note and the rules'
verdict stands."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cli_helpers import REPO, env_for, orchestrate_bin

sys.path.insert(0, str(REPO / "benchmarks"))
import subprocess  # noqa: E402

from bench_second_look import Replay, serve  # noqa: E402

LOG = """\
$ python train.py --aug_types color transition
Traceback (most recent call last):
  File "train.py", line 40, in <module>
    for f in AUGMENT_FNS[p]:
KeyError: 'transition'
"""
ANSWER = {
    "label": "validation_error",
    "origin": "config",
    "confidence": 0.7,
    "evidence": ["KeyError: 'transition'"],
    "explanation": "--aug_types names an augmentation the program does not have.",
    "fix_kind": "fix_code",
    "fix_description": "Pass only augmentations the program knows to --aug_types",
}


def _diagnose(tmp: Path, url: str) -> subprocess.CompletedProcess[str]:
    env = env_for(tmp)
    env.update(RUNSHEPHERD_EXPERT="openai:recorded", RUNSHEPHERD_LLM__BASE_URL=url)
    env.pop("OPENAI_API_KEY", None)
    return subprocess.run(
        [*orchestrate_bin(), "diagnose", "--log", "run.log", "--json"],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_recorded_answer_is_the_verdict_and_prose_is_rejected(tmp_path: Path) -> None:
    (tmp_path / "run.log").write_text(LOG)
    replay = Replay({}, prompts_out=tmp_path)
    server, url = serve(replay)
    try:
        first = _diagnose(tmp_path, url)  # nothing recorded: the server answers in prose
        assert first.returncode == 0, first.stderr
        assert json.loads(first.stdout)["label"] == "user_code_error"
        assert "answered in prose" in first.stderr and "using the built-in heuristic instead" in first.stderr
        [key] = [p.read_text() for p in tmp_path.glob("*.key")]
        prompt = next(tmp_path.glob("*.md")).read_text()
        assert "KeyError: 'transition'" in prompt and '"name": "LLMDiagnosis"' in prompt
        replay.answers[key] = ANSWER
        second = _diagnose(tmp_path, url)
    finally:
        server.shutdown()
    got = json.loads(second.stdout)
    assert got["label"] == "validation_error" and got["evidence"] == ["KeyError: 'transition'"]
    assert got["second_look"]["rules_label"] == "user_code_error" and not second.stderr.strip()
