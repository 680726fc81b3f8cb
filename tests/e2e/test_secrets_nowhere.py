"""Secrets a task prints appear nowhere the tool writes: CLI output (digest, raw, JSON), status artifact, checkpoints.

The task builds each secret at run time from pieces, so the spec (which is stored) never holds it whole; the
raw log the backend keeps is checked to really contain them, so the test cannot pass by nothing being printed.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from cli_helpers import env_for, orchestrate_bin, run

SECRETS = (
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",  # AWS secret access key
    "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",  # Hugging Face token
    "p4ssw0rd",  # password in a URL
    "abcDEF123456ghiJKL789mno",  # bearer token
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU",  # a private key's body line
    "T0123ABCD/B0456EFGH/abcdefghijklmnopqrstuvwx",  # a Slack webhook path
    "glpat-AbCdEfGhIjKlMnOpQrSt",  # GitLab token
)

SPEC = """\
workflow:
  name: leaky
  resources:
    default:
      cpu: 1
      memory: 256Mi
      storage: 1Gi
  tasks:
  - name: train
    image: python:3.11-slim
    command: [python, -c]
    args:
    - |
      aws = "wJalrXUtnFEMI" + "/K7MDENG/bPxRfiCYEXAMPLEKEY"
      hf = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
      pw = "p4ss" + "w0rd"
      bearer = "abcDEF123456" + "ghiJKL789mno"
      print("starting job", flush=True)
      print("AWS_SECRET_ACCESS_KEY=" + aws)
      print("using token " + hf + " for the hub")
      print("Authorization: Bearer " + bearer)
      print("cloning https://user:" + pw + "@git.example.com/team/repo.git")
      print("-----BEGIN OPENSSH " + "PRIVATE KEY-----")
      print("b3BlbnNzaC1rZXkt" + "djEAAAAABG5vbmU")
      print("-----END OPENSSH " + "PRIVATE KEY-----")
      print("posting to https://hooks.slack.com/services/" + "T0123ABCD/B0456EFGH/" + "abcdefghijklmnopqrstuvwx")
      print("gitlab " + "glpat-" + "AbCdEfGhIjKlMnOpQrSt")
      raise RuntimeError("could not fetch https://user:" + pw + "@git.example.com/team/repo.git with " + hf)
"""


def _leaks(text: str | bytes) -> list[str]:
    data = text.encode() if isinstance(text, str) else text
    return [s for s in SECRETS if s.encode() in data]


def test_printed_secrets_appear_nowhere(tmp_path: Path) -> None:
    spec = tmp_path / "leaky.yaml"
    spec.write_text(SPEC)
    assert _leaks(SPEC) == []

    ran = run(tmp_path, "run", "--spec", str(spec), "--yes", "--json")
    assert ran.returncode == 1, ran.stderr  # the task failed and no automatic fix applies
    done = json.loads(ran.stdout.splitlines()[-1])
    wid = done["workflow_ids"][-1]
    state = tmp_path / "state"

    # The secrets really were printed: the backend's own raw log holds them.
    raw_logs = [p for p in (state / "workflows").rglob("*") if p.is_file() and _leaks(p.read_bytes())]
    assert raw_logs, "the task's raw log should contain the planted secrets"

    outputs = {"run": ran}
    for name, args in {
        "status --json": ("status", wid, "--json"),
        "status": ("status", wid),
        "logs --json": ("logs", wid, "--json"),
        "logs": ("logs", wid),
        "logs --raw": ("logs", wid, "--raw"),
        "logs --raw --json": ("logs", wid, "--raw", "--json"),
        "diagnose --json": ("diagnose", wid, "--json"),
    }.items():
        outputs[name] = run(tmp_path, *args)
        assert outputs[name].returncode == 0, (name, outputs[name].stderr)
    for name, res in outputs.items():
        assert _leaks(res.stdout) == [] and _leaks(res.stderr) == [], name

    # What was kept instead: redaction markers where the secrets were, and the error itself.
    digest = json.loads(outputs["logs --json"].stdout)["digests"]
    assert (
        "[REDACTED:url_password]" in outputs["logs"].stdout
        and "RuntimeError: could not fetch" in outputs["logs"].stdout
    )
    assert "AWS_SECRET_ACCESS_KEY=[REDACTED:aws_secret]" in outputs["logs --raw"].stdout
    assert "Bearer [REDACTED:bearer_token]" in outputs["logs --raw"].stdout
    assert digest

    artifacts = list((state / "runs").glob("*.md"))
    assert artifacts
    for artifact in artifacts:
        assert _leaks(artifact.read_bytes()) == [], artifact.name

    databases = [p for p in state.glob("sessions.sqlite*") if p.is_file()]  # the DB and its -wal / -shm files
    assert any(p.name == "sessions.sqlite" for p in databases)
    for db in databases:
        assert _leaks(db.read_bytes()) == [], db.name


def test_a_secret_in_the_request_is_said_to_be_left_out_and_stored_nowhere(tmp_path: Path) -> None:
    request = f"train a small classifier with HF_TOKEN={SECRETS[1]} and AWS_SECRET_ACCESS_KEY={SECRETS[0]}"
    res = run(tmp_path, request, "--no-input", "--json")
    assert res.returncode == 3, res.stderr  # paused at the submit question: nothing ran
    events = [json.loads(line) for line in res.stdout.splitlines()]
    warning = events[0]
    assert warning["event"] == "message" and warning["level"] == "warning" and warning["session"]
    assert "aws_secret" in warning["text"] and "hf_token" in warning["text"] and "left out" in warning["text"]
    planned = next(e for e in events if e["event"] == "planned")
    assert planned["spec_name"] == "train-classifier", planned  # was "train-classifier-hf": named after HF_TOKEN=
    assert not _leaks(res.stdout + res.stderr)
    assert not any(_leaks(p.read_bytes()) for p in (tmp_path / "state").rglob("*") if p.is_file())
    text = run(tmp_path, request, "--no-input")
    assert "warning: your request holds a secret" in text.stdout and not _leaks(text.stdout + text.stderr)


def test_explain_of_a_spec_holding_quoted_secrets_answers_and_shows_none(tmp_path: Path) -> None:
    spec = tmp_path / "quoted.yaml"
    spec.write_text(
        "workflow:\n  name: quoted\n  tasks:\n  - name: t\n    image: x\n    command: [bash, -c]\n"
        '    args: ["echo \'HF_TOKEN=SECRET_HF\'; echo \\"AWS_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY\\"; '
        f'echo \'curl -H \\"Authorization: Bearer {SECRETS[3]}\\" https://x\'"]\n'.replace("SECRET_HF", SECRETS[1])
    )
    leaky = spec.read_text()
    assert run(tmp_path, "submit", str(spec)).returncode == 2  # RunShepherd takes no literal secret in a spec
    # a workflow that holds them anyway (submitted with another tool, or before the refusal): planted in its record
    spec.write_text(leaky.replace(SECRETS[1], "$HF").replace(SECRETS[3], "$BEARER"))
    wid = json.loads(run(tmp_path, "submit", str(spec), "--json").stdout)["workflow_id"]
    for name in ("spec.yaml", "template.yaml"):
        (tmp_path / "state" / "workflows" / wid / name).write_text(leaky)
    for args in (("explain", wid), ("explain", wid, "--json")):
        res = run(tmp_path, *args)
        assert res.returncode == 0 and "internal error" not in res.stderr, res.stderr  # was: a YAML ParserError
        assert "quoted-1: 1 task(s)" in res.stdout or '"workflow_id": "quoted-1"' in res.stdout
        assert not _leaks(res.stdout + res.stderr)


LITERAL_SPEC = """\
workflow:
  name: literal
  resources:
    default: {cpu: 1, memory: 256Mi}
  tasks:
  - name: train
    image: python:3.11-slim
    command: [python, -c]
    args: ["import os; print('token chars', len(os.environ.get('HF_TOKEN', '')))"]
    environment:
      MODE: "{{ mode }}"
      HF_TOKEN: hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789
      AWS_ACCESS_KEY_ID: AKIAIOSFODNN7EXAMPLE
default-values:
  mode: fast
"""


def _state_leaks(tmp_path: Path) -> list[str]:
    keys = ["AKIAIOSFODNN7EXAMPLE", SECRETS[1]]
    files = [p for p in (tmp_path / "state").rglob("*") if p.is_file()] if (tmp_path / "state").exists() else []
    return [f"{p.name}: {k}" for p in files for k in keys if k.encode() in p.read_bytes()]


def test_a_literal_secret_in_a_spec_is_refused_by_line_and_field_and_kept_nowhere(tmp_path: Path) -> None:
    """Before: `run --spec` warned, then kept the spec whole in sessions.sqlite and workflows/<id>/spec.yaml."""
    spec = tmp_path / "leaky.yaml"
    spec.write_text(LITERAL_SPEC)
    for args in (("run", "--spec", "leaky.yaml", "--yes"), ("submit", "leaky.yaml"), ("validate", "leaky.yaml")):
        res = run(tmp_path, *args)
        assert res.returncode == 2, (args, res.stdout, res.stderr)
        said = res.stdout + res.stderr
        assert "leaky.yaml:12 workflow.tasks[0].environment.HF_TOKEN value: holds a literal secret (hf_token)" in said
        assert "leaky.yaml:13 workflow.tasks[0].environment.AWS_ACCESS_KEY_ID value" in said and "(aws_key)" in said
        assert "export HF_TOKEN" in said and not _leaks(said), args
    assert _state_leaks(tmp_path) == [] and not (tmp_path / "state" / "sessions.sqlite").exists()


def test_a_secret_given_with_set_is_refused_and_the_advised_way_reaches_the_job(tmp_path: Path) -> None:
    clean = LITERAL_SPEC.replace("      HF_TOKEN: hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789\n", "")
    clean = clean.replace("      AWS_ACCESS_KEY_ID: AKIAIOSFODNN7EXAMPLE\n", "")
    (tmp_path / "clean.yaml").write_text(clean)
    res = run(tmp_path, "run", "--spec", "clean.yaml", "--set", f"mode={SECRETS[1]}", "--yes")
    assert res.returncode == 2 and "--set mode: is a secret (hf_token)" in res.stderr, res.stderr
    assert not _leaks(res.stdout + res.stderr)
    # what the message advises: the secret exported where `orchestrate` runs, the spec without it
    env = {**env_for(tmp_path), "HF_TOKEN": SECRETS[1]}
    ran = subprocess.run(
        [*orchestrate_bin(), "run", "--spec", "clean.yaml", "--yes", "--json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert ran.returncode == 0, ran.stderr
    wid = json.loads(ran.stdout.splitlines()[-1])["workflow_ids"][-1]
    assert "token chars 39" in run(tmp_path, "logs", wid, "--raw").stdout  # the job had it
    assert _state_leaks(tmp_path) == []  # and neither the session store nor the workflow's records keep it


def test_run_resume_and_app_save_keep_no_secret_the_job_takes_from_the_environment(tmp_path: Path) -> None:
    """The way the refusal advises, end to end: the entry deleted from the spec, the secret exported; after the
    submit question, the resume and the save-as-app answer, no file in the state dir holds it."""
    spec = LITERAL_SPEC.replace("      HF_TOKEN: hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789\n", "").replace(
        "      AWS_ACCESS_KEY_ID: AKIAIOSFODNN7EXAMPLE\n", ""
    )
    (tmp_path / "env.yaml").write_text(spec)
    env = {**env_for(tmp_path), "HF_TOKEN": SECRETS[1]}

    def orchestrate(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*orchestrate_bin(), *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )

    first = orchestrate("run", "--spec", "env.yaml", "--no-input", "--json")
    assert first.returncode == 3, first.stderr  # waits at the submit question
    sid = json.loads(first.stdout.splitlines()[0])["session"]
    assert orchestrate("resume", sid, "--answer", "yes", "--no-input").returncode == 3  # ran; asks to save the app
    saved = orchestrate("resume", sid, "--answer", "yes", "--no-input")
    assert saved.returncode == 0 and "saved literal v1" in saved.stdout, saved.stdout + saved.stderr
    assert "token chars 39" in orchestrate("logs", "literal-1", "--raw").stdout  # the job had the secret
    assert _state_leaks(tmp_path) == []
