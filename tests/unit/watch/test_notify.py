"""Notifications against real receivers on 127.0.0.1: an HTTP server (http.server) and an SMTP server
(aiosmtpd); retries with back-off, deduplication on the fingerprint, never blocking the caller."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runshepherd.config import SmtpConfig
from runshepherd.errors import ConfigError
from runshepherd.notify import Notification, Notifier, channel_for, fingerprint_of, parse_targets
from runshepherd.notify.channels import Webhook


def note(status: str = "FAILED", label: str = "device_assert", evidence: str = "RuntimeError: boom") -> Notification:
    return Notification(
        workflow_id="wf-1",
        status=status,
        previous_status="RUNNING",
        label=label,
        summary="wf-1 failed",
        fingerprint=fingerprint_of("wf-1", status, label, evidence),
        artifact="/tmp/x/runs/wf-1-status.md",
    )


def test_webhook_posts_the_payload_once_per_fingerprint(hook_server) -> None:  # noqa: ANN001
    hook = hook_server()
    n = Notifier(parse_targets([hook.url]), backoff=0.05)
    assert n.notify(note()) is True
    assert n.notify(note()) is False  # same fingerprint: not announced twice
    assert n.notify(note(status="COMPLETED", label="completed", evidence="")) is True
    n.close(timeout=10)
    assert [p["status"] for p in hook.posts] == ["FAILED", "COMPLETED"]
    first = hook.posts[0]
    assert set(first) >= {
        "workflow_id",
        "status",
        "previous_status",
        "label",
        "summary",
        "fingerprint",
        "artifact",
        "at",
    }
    assert first["workflow_id"] == "wf-1" and first["label"] == "device_assert"


def test_failed_deliveries_are_retried_with_backoff(hook_server) -> None:  # noqa: ANN001
    h = hook_server(fail_first=2)
    n = Notifier(parse_targets([h.url]), backoff=0.05)
    n.notify(note())
    n.close(timeout=10)
    assert h.calls == 3 and len(h.posts) == 1 and n.delivered and not n.failed


def test_delivery_never_blocks_the_caller(hook_server) -> None:  # noqa: ANN001
    h = hook_server(delay=2.0)
    n = Notifier(parse_targets([h.url]), backoff=0.05)
    n.notify(note())
    assert h.posts == []  # notify() returned while the receiver was still sleeping on the request
    n.close(timeout=10)
    assert len(h.posts) == 1


def test_an_unreachable_target_is_recorded_not_raised() -> None:
    n = Notifier(parse_targets(["http://127.0.0.1:9/hook"]), attempts=2, backoff=0.01)
    n.notify(note())
    n.close(timeout=10)
    assert n.failed and n.failed[0][0] == "http://127.0.0.1:9/hook" and not n.delivered


def test_dedup_survives_a_restart_through_the_sent_file(hook_server, tmp_path: Path) -> None:  # noqa: ANN001
    hook = hook_server()
    sent = tmp_path / "wf-1.sent"
    first = Notifier(parse_targets([hook.url]), sent_path=sent)
    first.notify(note())
    first.close(timeout=10)
    again = Notifier(parse_targets([hook.url]), sent_path=sent)
    assert again.notify(note()) is False
    again.close(timeout=10)
    assert len(hook.posts) == 1


def test_a_target_every_attempt_failed_for_is_told_by_the_next_monitor(hook_server, tmp_path: Path) -> None:  # noqa: ANN001
    """Before: the target was marked told when the note was queued, so once the hook was back every later monitor
    said "not notified again: … was already told … by an earlier monitor" and it never was."""
    hook = hook_server(fail_first=2)  # the two attempts of the first monitor fail; the hook then answers
    sent = tmp_path / "wf-1.sent"
    first = Notifier(parse_targets([hook.url]), sent_path=sent, attempts=2, backoff=0.01)
    first.notify(note())
    first.close(timeout=10)
    assert first.failed and not first.delivered
    again = Notifier(parse_targets([hook.url]), sent_path=sent)
    assert again.notify(note()) is True and not again.skipped
    again.close(timeout=10)
    assert again.delivered and len(hook.posts) == 1
    third = Notifier(parse_targets([hook.url]), sent_path=sent)  # told now: never twice
    assert third.notify(note()) is False and third.skipped


def test_slack_and_discord_urls_get_their_body_shapes() -> None:
    slack = Webhook("https://hooks.slack.com/services/T000/B000/XXX").body(note())
    discord = Webhook("https://discord.com/api/webhooks/1/abc").body(note())
    plain = Webhook("https://example.org/hook").body(note())
    assert set(slack) == {"text"} and "wf-1 FAILED" in str(slack["text"])
    assert set(discord) == {"content"} and "device_assert" in str(discord["content"])
    assert plain["fingerprint"] == note().fingerprint


def test_file_target_appends_json_lines(tmp_path: Path) -> None:
    out = tmp_path / "notes" / "n.jsonl"
    n = Notifier(parse_targets([f"file:{out}"]))
    n.notify(note())
    n.notify(note(status="COMPLETED", label="completed", evidence=""))
    n.close(timeout=10)
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["status"] for r in rows] == ["FAILED", "COMPLETED"]


def test_mailto_goes_through_a_real_smtp_server() -> None:
    from aiosmtpd.controller import Controller

    class Sink:
        def __init__(self) -> None:
            self.messages: list[tuple[str, list[str], str]] = []

        async def handle_DATA(self, server, session, envelope):  # noqa: ANN001, ANN201, N802
            self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content.decode()))
            return "250 OK"

    import socket

    with socket.socket() as probe:  # a free port (aiosmtpd's controller checks it can connect to its own port)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sink = Sink()
    ctl = Controller(sink, hostname="127.0.0.1", port=port)
    ctl.start()
    try:
        smtp = SmtpConfig(host="127.0.0.1", port=port, sender="shepherd@example.org")
        n = Notifier(parse_targets(["mailto:me@example.org"], smtp), backoff=0.05)
        n.notify(note())
        n.close(timeout=15)
        assert len(sink.messages) == 1
        sender, rcpt, body = sink.messages[0]
        assert sender == "shepherd@example.org" and rcpt == ["me@example.org"]
        assert "Subject: RunShepherd: wf-1 FAILED" in body and "device_assert" in body
    finally:
        ctl.stop()


def test_a_target_nobody_understands_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="mailto:"):
        channel_for("ftp://nope")


def test_fingerprint_depends_on_facts_only() -> None:
    a = fingerprint_of("wf", "FAILED", "host_oom", "Killed")
    assert a == fingerprint_of("wf", "FAILED", "host_oom", "Killed  ")
    assert a != fingerprint_of("wf", "FAILED", "host_oom", "other line")
    assert a != fingerprint_of("wf", "COMPLETED", "host_oom", "Killed")


def test_a_failing_webhook_is_reported_without_its_credentials(caplog: pytest.LogCaptureFixture) -> None:
    """Was: 'notify https://…/hook?token=… attempt 1 failed' on the terminal, once per attempt."""
    import logging

    url = "http://127.0.0.1:9/hook?token=abcdef0123456789abcdef"
    n = Notifier(parse_targets([url]), attempts=3, backoff=0.01)
    with caplog.at_level(logging.WARNING):
        n.notify(note())
        n.close(timeout=10)
    said = n.undelivered_lines()
    shown = caplog.text + repr(n.failed) + "\n".join(said)
    assert "abcdef0123456789abcdef" not in shown
    assert n.failed[0][0] == "http://127.0.0.1:9/hook?…"
    assert "127.0.0.1:9/hook" not in caplog.text  # not one line per attempt, nor one per notification
    assert said == [
        "could not notify http://127.0.0.1:9/hook?…: 1 notification was not delivered after 3 attempts "
        "(last error: URLError: <urlopen error [Errno 111] Connection refused>)"
    ]


def test_several_undelivered_notes_to_one_target_are_one_line(caplog: pytest.LogCaptureFixture) -> None:
    """Was: a run's four notes to a dead webhook printed four identical 'gave up after 5 attempts' error lines, and
    `watch` printed each failure twice (the log line and its own warning)."""
    import logging

    n = Notifier(parse_targets(["http://127.0.0.1:9/hook"]), attempts=2, backoff=0.01)
    with caplog.at_level(logging.INFO):
        for status in ("RUNNING", "COMPLETED"):
            n.notify(note(status=status))
        n.close(timeout=10)
    assert len(n.failed) == 2 and "127.0.0.1:9/hook" not in caplog.text
    (line,) = n.undelivered_lines()
    assert line.startswith("could not notify http://127.0.0.1:9/hook: 2 notifications were not delivered after 2")


def test_a_webhook_url_with_a_password_is_refused_without_showing_it() -> None:
    """urllib takes `user:password@host` for the host name: such a hook never connects, so it is refused up front."""
    from runshepherd.errors import ConfigError

    with pytest.raises(ConfigError, match=r"https://127.0.0.1:9/hook: a user:password in a webhook URL") as err:
        parse_targets(["https://user:s3cr3tpassw0rd@127.0.0.1:9/hook"])
    assert "s3cr3tpassw0rd" not in str(err.value)


def test_a_webhook_token_in_the_url_path_is_not_printed() -> None:
    """Teams and generic hooks carry their key in the path (Slack's is redacted by its own rule, a query is cut):
    `● notified …` and the failure lines printed it whole."""
    from runshepherd.notify.channels import shown_target

    key = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
    teams = f"https://acme.webhook.office.com/webhookb2/1f2e3d4c-aaaa-bbbb@72f988bf-86f1/IncomingWebhook/{key}/x"
    assert shown_target(teams) == "https://acme.webhook.office.com/webhookb2/…/IncomingWebhook/…/x"
    assert shown_target(f"http://127.0.0.1:8080/hooks/{key}") == "http://127.0.0.1:8080/hooks/…"
    assert shown_target("https://example.org/api/v2/run-status") == "https://example.org/api/v2/run-status"


@pytest.mark.parametrize(
    ("target", "said"),
    [
        # each was accepted, tried 5 times over ~8 s, then "could not notify" (no host given / IsADirectoryError)
        ("https://", "notify target 'https://' names no host — give the webhook's whole URL"),
        ("file:{tmp}", "notify target 'file:{tmp}' is a folder — give a file in it (file:{tmp}/notes.jsonl)"),
        # a hook typed without https:// printed its key whole
        ("example.com/hooks/ab12cd34ef56gh78ij90kl", "notify target 'example.com/hooks/…' not understood"),
    ],
)
def test_a_target_that_cannot_work_is_refused_before_watching(tmp_path: Path, target: str, said: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_targets([target.format(tmp=tmp_path)])
    assert str(err.value).startswith(said.format(tmp=tmp_path)), str(err.value)
    assert "ab12cd34ef56gh78ij90kl" not in str(err.value)


def test_a_file_that_holds_something_else_is_never_appended_to(tmp_path: Path) -> None:
    """`file:/etc/passwd` (or any pasted path) was appended to, silently damaging the file."""
    other = tmp_path / "passwd"
    other.write_text("root:x:0:0:root:/root:/bin/bash\n")
    with pytest.raises(ConfigError) as err:
        parse_targets([f"file:{other}"])
    assert "already holds something other than notifications" in str(err.value)
    assert other.read_text() == "root:x:0:0:root:/root:/bin/bash\n"
    with pytest.raises(ConfigError, match="is not a regular file"):
        parse_targets(["file:/dev/null"])


def test_a_notes_file_written_before_takes_more_notes(tmp_path: Path) -> None:
    notes = tmp_path / "notes.jsonl"
    channel_for(f"file:{notes}").send(note())
    channel_for(f"file:{notes}").send(note(status="COMPLETED", label="completed", evidence=""))
    assert [json.loads(line)["status"] for line in notes.read_text().splitlines()] == ["FAILED", "COMPLETED"]
