"""Decoding (bytes, \\r, ANSI, long lines), prefixes and secret redaction."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from runshepherd.logs import LogConfig, read_log, read_log_file, redact
from runshepherd.logs.decode import clean_text, iter_binary_lines
from runshepherd.logs.prefix import split_prefix

from .conftest import osmo


def test_invalid_utf8_is_replaced_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "bad.log"
    path.write_bytes(b"2025/10/08 20:00:00 [train] caf\xe9 \xff\xfe loss=0.5\n2025/10/08 20:00:01 [train] step 2/4\n")
    digest = read_log_file(path)
    assert digest.lines_read == 2
    assert digest.metrics["loss"].latest == 0.5
    assert digest.progress is not None and digest.progress.current == 2


def test_carriage_return_keeps_last_segment_and_prefix() -> None:
    line = "2025/10/08 20:00:00 [train]  10%|#    | 10/100\r 50%|#####     | 50/100\r 90%|######### | 90/100\r\n"
    digest = read_log([line])
    assert digest.progress is not None
    assert (digest.progress.current, digest.progress.total) == (90, 100)
    assert digest.task == "train"
    assert clean_text("a\rb\r\n") == "b"


def test_ansi_colour_codes_are_stripped() -> None:
    digest = read_log(["\x1b[31mRuntimeError: boom\x1b[0m", "\x1b[1;32mstep 3/10\x1b[0m"])
    assert digest.root_error == "RuntimeError: boom"
    assert digest.progress is not None and digest.progress.current == 3


def test_an_8_bit_csi_leaves_none_of_its_parameters(tmp_path: Path) -> None:
    """U+009B is the one-character form of ESC [: its parameters and final go with it (was: "31mRuntimeError: boom",
    the control dropped and "31m" left in the line `logs` and `diagnose` show)."""
    path = tmp_path / "c1.log"
    path.write_bytes("\u009b31mRuntimeError: boom\u009b0m\n\u009b1;32mstep 3/10\u009b0m\n".encode())
    digest = read_log_file(path)
    assert digest.root_error == "RuntimeError: boom", digest.root_error
    assert digest.progress is not None and digest.progress.current == 3
    assert clean_text("\u009b2J\u009b1;1Hloss=0.5") == "loss=0.5"


def test_long_lines_are_cut_with_a_marker(tmp_path: Path) -> None:
    config = LogConfig(max_line_chars=100)
    digest = read_log(["ERROR " + "x" * 5000], config=config)
    assert digest.long_lines_cut == 1
    assert len(digest.error_lines[0]) < 200 and "cut" in digest.error_lines[0]
    path = tmp_path / "long.log"
    path.write_bytes(b"RuntimeError: " + b"y" * 100_000 + b"\nstep 1/2\n")
    from_file = read_log_file(path, config=config)
    assert from_file.lines_read == 2 and from_file.long_lines_cut == 1
    assert from_file.root_error is not None and from_file.root_error.startswith("RuntimeError:")
    assert len(from_file.root_error) < 200


def test_endless_progress_line_keeps_what_the_terminal_showed() -> None:
    raw = b"".join(f"\r{p}%|bar| {p}/100".encode() for p in range(101)) * 50 + b"\n"
    lines = list(iter_binary_lines(io.BytesIO(raw), max_line_bytes=256))
    assert len(lines) == 1 and lines[0].cut and lines[0].nbytes == len(raw)
    assert lines[0].text.endswith("100/100")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("2025/10/08 20:23:43 [hello] Hello", ("2025/10/08 20:23:43", "hello", None, False, "Hello")),
        ("2025/10/08 20:23:43 [train retry-2] x", ("2025/10/08 20:23:43", "train", 2, False, "x")),
        (
            "2025/10/08 20:23:43 [task1][osmo] Checkpointing data",
            ("2025/10/08 20:23:43", "task1", None, True, "Checkpointing data"),
        ),
        ("[2026-05-05 18:01:30] Starting run", ("2026-05-05 18:01:30", None, None, False, "Starting run")),
        ("2025-01-02T03:04:05.123Z msg", ("2025-01-02T03:04:05", None, None, False, "msg")),
        ("plain text line", (None, None, None, False, "plain text line")),
    ],
)
def test_prefixes(line: str, expected: tuple[object, ...]) -> None:
    assert tuple(split_prefix(line)) == expected


SECRETS = {
    "aws_key": "creds AKIAIOSFODNN7EXAMPLE loaded",
    "aws_secret": "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "gcp_key": "key=AIzaSyA1234567890abcdefghijklmnopqrstuv",
    "azure_key": "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=abcdefghijklmnopqrstuvwxyz0123456789ABCD==;",
    "bearer_token": "curl -H 'Authorization: Bearer abcdef0123456789abcdef'",
    "openai_key": "OPENAI=sk-proj-abcdefghijklmnopqrstuvwxyz0123",
    "anthropic_key": "using sk-ant-api03-abcdefghijklmnopqrstuvwxyz-0123",
    "hf_token": "login hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "github_token": "remote ghp_abcdefghijklmnopqrstuvwxyz0123456789AB",
    "slack_token": "hook xoxb-123456789012-abcdefghijklmnop",
    "nvidia_key": "NGC nvapi-abcdefghijklmnopqrstuvwxyz012345",
    "url_password": "git clone https://builder:Sup3rS3cret@git.example.com/r.git",
    "password": "db password=hunter2hunter2",
    "token": "WANDB token: tkn_0123456789",
    "secret": "client_secret=shhh-very-secret",
    "jwt": "cookie eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "slack_webhook": "notify https://hooks.slack.com/services/T0123ABCD/B0456EFGH/abcdefghijklmnopqrstuvwx done",
    "discord_webhook": "POST https://discord.com/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "gitlab_token": "clone with glpat-AbCdEfGhIjKlMnOpQrSt",
    "npm_token": "registry auth npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "pypi_token": "twine pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0LXV2d3h5ejAxMjM0NQ",
}
SECRET_VALUES = {
    "aws_key": "AKIAIOSFODNN7EXAMPLE",
    "aws_secret": "wJalrXUtnFEMI",
    "gcp_key": "AIzaSyA1234567890",
    "azure_key": "abcdefghijklmnopqrstuvwxyz0123456789ABCD",
    "bearer_token": "abcdef0123456789abcdef",
    "openai_key": "sk-proj-abcdef",
    "anthropic_key": "sk-ant-api03",
    "hf_token": "hf_AbCdEf",
    "github_token": "ghp_abcdef",
    "slack_token": "xoxb-1234",
    "nvidia_key": "nvapi-abc",
    "url_password": "Sup3rS3cret",
    "password": "hunter2",
    "token": "tkn_0123456789",
    "secret": "shhh-very-secret",
    "jwt": "eyJhbGciOiJIUzI1NiJ9",
    "slack_webhook": "abcdefghijklmnopqrstuvwx",
    "discord_webhook": "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "gitlab_token": "glpat-AbCdEf",
    "npm_token": "npm_AbCdEf",
    "pypi_token": "pypi-AgEIcHlwaS5vcmc",
}


@pytest.mark.parametrize("kind", sorted(SECRETS))
def test_each_secret_kind_is_redacted_and_counted(kind: str) -> None:
    text, counts = redact(SECRETS[kind])
    assert SECRET_VALUES[kind] not in text
    assert f"[REDACTED:{kind}]" in text
    assert counts.get(kind) == 1


def test_private_key_block_spanning_lines_is_removed_in_text_and_stream() -> None:
    block = [
        "-----BEGIN RSA PRIVATE KEY-----",
        "MIIEowIBAAKCAQEA7bq9",
        "Zm9vYmFyYmF6cXV4==",
        "-----END RSA PRIVATE KEY-----",
    ]
    text, counts = redact("\n".join(["before", *block, "after"]))
    assert "MIIEow" not in text and "Zm9vYmFy" not in text and "after" in text
    assert counts == {"private_key": 1}
    # In a stream the body lines arrive one by one (and could be quoted by an error block): all are dropped.
    lines = osmo(["Traceback (most recent call last):", "  cat key.pem", *block, "RuntimeError: bad key"])
    digest = read_log(lines)
    dumped = digest.model_dump_json()
    assert "MIIEow" not in dumped and "Zm9vYmFy" not in dumped
    assert digest.root_error == "RuntimeError: bad key"
    assert digest.redactions.get("private_key") == 1


def test_no_false_positives_on_training_output() -> None:
    lines = [
        "{'loss': 0.52, 'learning_rate': 4e-05, 'epoch': 1.5}",
        "tokens_per_second=1234 max_tokens=512 eos_token_id=2 pad_token='<pad>'",
        "Epoch 3:  45%|####5     | 450/1000 [00:10<00:12, 43.2it/s, loss=0.41]",
    ]
    for line in lines:
        assert redact(line) == (line, {})


def test_extra_patterns_from_config_are_applied() -> None:
    config = LogConfig(redaction_patterns=[r"corp-[0-9]{6}"])
    digest = read_log(["RuntimeError: ticket corp-123456 failed"], config=config)
    assert digest.root_error == "RuntimeError: ticket [REDACTED:custom] failed"
    assert digest.redactions == {"custom": 1}
    assert redact("id corp-654321", [r"corp-[0-9]{6}"]) == ("id [REDACTED:custom]", {"custom": 1})


def test_secrets_never_reach_the_digest_or_markdown() -> None:
    from runshepherd.logs import digest_to_markdown

    lines = osmo(
        [
            "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "Saving model checkpoint to https://u:Sup3rS3cret@store.example.com/ckpt hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
            "step 5/10 loss=0.3 token=abc123secret",
            "Traceback (most recent call last):",
            '  File "x.py", line 1, in <module>',
            "PermissionError: denied for key AKIAIOSFODNN7EXAMPLE password=hunter2hunter2",
        ]
    )
    digest = read_log(lines)
    outputs = digest.model_dump_json() + digest_to_markdown([digest])
    for secret in ("wJalrXUtnFEMI", "Sup3rS3cret", "hf_AbCdEf", "abc123secret", "AKIAIOSFODNN7EXAMPLE", "hunter2"):
        assert secret not in outputs
    assert digest.root_error is not None and "[REDACTED:aws_key]" in digest.root_error
    assert digest.redactions["aws_secret"] == 1 and digest.redactions["url_password"] == 1


def test_prefixed_raw_key_block_and_webhooks_are_redacted_whole() -> None:
    """`logs --raw` lines keep the OSMO prefix: rules match the message after it, key bodies included."""
    from runshepherd.logs import redacted_lines

    block = [
        "-----BEGIN OPENSSH PRIVATE KEY-----",
        "b3BlbnNzaC1rZXktdjEAAAAA",
        "QyNTUxOQAAACBmYWtla2V5",
        "-----END OPENSSH PRIVATE KEY-----",
    ]
    raw = osmo(
        [
            "cat id_ed25519",
            *block,
            "POST https://hooks.slack.com/services/T0123ABCD/B0456EFGH/abcdefghijklmnopqrstuvwx",
            "after",
        ]
    )
    out = list(redacted_lines(raw))
    joined = "\n".join(out)
    assert "b3BlbnNzaC1rZXkt" not in joined and "QyNTUxOQ" not in joined and "abcdefghijklmnopqrstuvwx" not in joined
    assert all(a.startswith(b[: b.index("]") + 1]) for a, b in zip(out, raw, strict=True))  # prefixes kept
    assert out[-1].endswith("] after") and "[REDACTED:slack_webhook]" in out[-2]


@pytest.mark.parametrize(
    "line",
    [
        "/etc/passwd:1: the spec must be a mapping with a top-level `workflow:` key",
        "passwd:1: the spec must be a mapping with a top-level `workflow:` key",
        "'file:///tmp/../etc/passwd': `..` is not allowed in a download URL — name the stored folder itself",
        r"C:\Users\me\passwd: not a workflow spec",
    ],
)
def test_a_path_or_a_file_location_is_not_read_as_a_password(line: str) -> None:
    assert redact(line) == (line, {})


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("password: hunter2", "password: [REDACTED:password]"),
        ("passwd=x", "passwd=[REDACTED:password]"),
        ("db.password=s3cr3t now", "db.password=[REDACTED:password] now"),
        ("--password=abc", "--password=[REDACTED:password]"),
        ('{"password": "pw"}', '{"password": "[REDACTED:password]"}'),
        ("password: 1234", "password: [REDACTED:password]"),
    ],
)
def test_a_real_password_assignment_is_still_redacted(line: str, shown: str) -> None:
    assert redact(line) == (shown, {"password": 1})
