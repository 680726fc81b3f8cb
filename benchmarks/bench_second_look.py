"""The model path on real logs, through the product: `orchestrate diagnose --log … --json` with a model expert
configured (`expert: openai:recorded`, `llm.base_url` at a replay server on 127.0.0.1) whose answers were recorded.

No model provider can be reached here, so a model's answers are recorded once and replayed: the server answers each
request by the SHA-256 of the material it was sent (the last user message), in OpenAI's chat-completions format, as a
call of the offered tool. A request with no recorded answer gets prose, which the product rejects (the rules' verdict
stands), and its prompt is written to ``--prompts-out`` for a model to answer. ``--collect`` turns those answers
(``<sha12>.json`` beside each ``<sha12>.md``) into lines of the answers file.

    python benchmarks/bench_second_look.py --corpus real-blind|real-dev [--parts P1,P2] --answers FILE
                                           [--prompts-out DIR] [--collect DIR]

Logs are copied under names made from their case id's hash (``<sha10>.log``, run from that folder), so the prompt
holds no case id or corpus path and stays the same from run to run. The score is printed beside the rules' (the
same command with the built-in expert), with how many verdicts were asked, answered, used and rejected.
Recorded answers come from language models reading only the prompt; what that estimates is said where it is quoted.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
import threading
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_diagnosis import Case, CorpusError, load_real, report, run_via_cli  # noqa: E402

TOOL = "LLMDiagnosis"


def prompt_key(messages: list[dict[str, Any]]) -> str:
    """The answer's key: the SHA-256 of the last user message (the material of one verdict)."""
    user = [m for m in messages if m.get("role") == "user"]
    content = user[-1]["content"] if user else ""
    if isinstance(content, list):  # content parts
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return hashlib.sha256(str(content).encode()).hexdigest()


class Replay:
    """The recorded answers, what was asked, and where unanswered prompts go."""

    def __init__(self, answers: dict[str, dict[str, Any]], prompts_out: Path | None) -> None:
        self.answers = answers
        self.prompts_out = prompts_out
        self.asked: list[str] = []
        self.lock = threading.Lock()

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        key = prompt_key(body.get("messages") or [])
        with self.lock:
            self.asked.append(key)
        answer = self.answers.get(key)
        message: dict[str, Any] = {"role": "assistant", "content": "(no recorded answer)"}
        if answer is not None:
            call = {
                "id": f"call_{key[:12]}",
                "type": "function",
                "function": {"name": TOOL, "arguments": json.dumps(answer)},
            }
            message = {"role": "assistant", "content": None, "tool_calls": [call]}
        elif self.prompts_out is not None:
            self._write_prompt(key, body)
        return {
            "id": f"chatcmpl-{key[:12]}",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "recorded"),
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if answer else "stop"}],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        }

    def _write_prompt(self, key: str, body: dict[str, Any]) -> None:
        assert self.prompts_out is not None
        parts = [f"# {m.get('role', '?').upper()}\n{m.get('content')}\n" for m in body.get("messages") or []]
        tools = [t for t in body.get("tools") or [] if t.get("function", {}).get("name") == TOOL]
        parts.append("# THE TOOL YOU ANSWER WITH (JSON schema)\n" + json.dumps(tools[:1], indent=1) + "\n")
        (self.prompts_out / f"{key[:12]}.md").write_text("\n".join(parts), encoding="utf-8")
        (self.prompts_out / f"{key[:12]}.key").write_text(key)


def serve(replay: Replay) -> tuple[ThreadingHTTPServer, str]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (the http.server API)
            size = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(size) or b"{}")
            data = json.dumps(replay.reply(body)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/v1"


def load_answers(path: Path) -> dict[str, dict[str, Any]]:
    if not path.exists():
        return {}
    rows = [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    return {r["prompt_sha256"]: r["answer"] for r in rows}


def collect(folder: Path, answers_file: Path) -> int:
    """Append the answers written beside the prompts (``<sha12>.json``) to the answers file; returns how many."""
    have = load_answers(answers_file)
    n = 0
    with answers_file.open("a", encoding="utf-8") as out:
        for key_file in sorted(folder.glob("*.key")):
            key = key_file.read_text().strip()
            answer_file = key_file.with_suffix(".json")
            if key in have or not answer_file.exists():
                continue
            out.write(json.dumps({"prompt_sha256": key, "answer": json.loads(answer_file.read_text())}) + "\n")
            n += 1
    return n


def anonymised(cases: list[Case], folder: Path) -> list[Case]:
    """Each log copied as ``<sha10 of its id>.log`` (no case id, no corpus path in what the model reads)."""
    out = []
    for c in cases:
        name = hashlib.sha256(c.name.encode()).hexdigest()[:10] + ".log"
        shutil.copyfile(c.path, folder / name)
        out.append(replace(c, path=Path(name)))
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="real-blind", choices=("real-blind", "real-dev"))
    ap.add_argument("--parts", help="only cases whose id starts with one of these (comma-separated)")
    ap.add_argument("--answers", type=Path, required=True, help="the recorded answers (JSON lines)")
    ap.add_argument("--prompts-out", type=Path, help="write each unanswered prompt here (<sha12>.md)")
    ap.add_argument("--collect", type=Path, help="add the answers written beside prompts in this folder, then stop")
    a = ap.parse_args(argv)
    if a.collect:
        print(f"added {collect(a.collect, a.answers)} answers to {a.answers}")
        return 0
    try:
        cases = load_real("blind" if a.corpus == "real-blind" else "dev")
    except CorpusError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if a.parts:
        cases = [c for c in cases if c.name.startswith(tuple(a.parts.split(",")))]
    if a.prompts_out:
        a.prompts_out.mkdir(parents=True, exist_ok=True)
    replay = Replay(load_answers(a.answers), a.prompts_out)
    server, url = serve(replay)
    env = {"RUNSHEPHERD_EXPERT": "openai:recorded", "RUNSHEPHERD_LLM__BASE_URL": url}
    saved = {k: os.environ.get(k) for k in env}
    cwd = Path.cwd()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            for k in env:  # the product as installed (the built-in expert) first
                os.environ.pop(k, None)
            os.chdir(tmp)
            local = anonymised(cases, Path(tmp))
            rules, rules_ms = run_via_cli(local)
            os.environ.update(env)
            looked, ms = run_via_cli(local)
        finally:
            os.chdir(cwd)
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
            server.shutdown()
    report(f"{a.corpus} with the built-in expert", cases, rules, rules_ms, via_cli=True)
    print()
    report(f"{a.corpus} with the recorded model's second look", cases, looked, ms, via_cli=True)
    answered = sum(k in replay.answers for k in replay.asked)
    changed = [
        (c, r, v)
        for c, r, v in zip(cases, rules, looked, strict=True)
        if (r.label, r.explanation) != (v.label, v.explanation)
    ]
    print(
        f"second look: {len(replay.asked)} verdicts asked, {answered} answered from the record, "
        f"{len(changed)} replaced by the model's answer ({len(replay.asked) - answered} unanswered)"
    )
    gained = sum(c.label == v.label != r.label for c, r, v in changed)
    lost = sum(c.label == r.label != v.label for c, r, v in changed)
    print(f"labels: {gained} wrong -> right, {lost} right -> wrong")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
