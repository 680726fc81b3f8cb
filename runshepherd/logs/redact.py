"""Secret redaction: runs before any extractor, digest, model prompt, checkpoint or status file sees text.

Each pattern has a kind; a match becomes ``[REDACTED:<kind>]`` and is counted. Assignment-style patterns
keep the name (``HF_TOKEN=[REDACTED:token]``) because the name is useful evidence and not a secret.
A cheap trigger search skips the full pattern set on the vast majority of lines, which hold no secret.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from re import Pattern

from runshepherd.logs.prefix import split_prefix

_KEY_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
_KEY_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
_KEY_BLOCK = re.compile(
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
    re.S,
)
# Lines inside a PEM block: base64 body, RFC 1421 headers (Proc-Type, DEK-Info), blank lines.
_KEY_BODY = re.compile(r"^\s*(?:[A-Za-z0-9+/=]*|[A-Za-z-]+: .*)\s*$")

_ASSIGN_NAME = (
    r"[\w.-]*?(?:password|passwd|pwd|passphrase|token|secret|secret[_-]?key|api[_-]?key|apikey|"
    r"access[_-]?key|private[_-]?key|credentials?|auth[_-]?key)"
)

# The names a secret is given in prose ("secret 9f8e…", "my password is hunter2-…"); "token" is left out, a
# tokenizer's words ("token 50256", "pad token id2") are printed far more often than a credential in prose, but a
# service's key or token ("my wandb key is 0123…", "hf token …") names a credential.
_SERVICE = r"(?:wandb|w&b|hf|hugging[ _-]?face|openai|anthropic|github|ngc|nvidia|comet|neptune)"
_PROSE_NAME = rf"(?:secret(?:[ _-]?key)?|password|passwd|passphrase|api[ _-]?key|{_SERVICE}[ _-]?(?:key|token))"


@dataclass(frozen=True)
class _Rule:
    kind: str
    pattern: Pattern[str]
    keep_group: int = 0  # 1 = keep group 1 (the name and separator), replace the rest of the match
    named: bool = False  # the kind comes from the assigned name (password / token / secret / api_key)


# Names that contain "token" but hold vocabulary, not credentials (tokenizer configs are printed often).
_NOT_SECRET_NAMES = ("pad_token", "eos_token", "bos_token", "unk_token", "sep_token", "cls_token", "mask_token")
_NOT_SECRET_VALUES = frozenset({"none", "null", "true", "false", "***", "****", "''", '""', "<redacted>"})


def _assignment_kind(name: str) -> str:
    low = name.lower()
    if "pass" in low or "pwd" in low:
        return "password"
    if "token" in low:
        return "token"
    if "key" in low:
        return "api_key"
    if "credential" in low:
        return "credential"
    return "secret"


def _rules() -> list[_Rule]:
    flags = re.IGNORECASE
    return [
        _Rule("private_key", re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*")),
        _Rule("anthropic_key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
        _Rule("openai_key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}")),
        _Rule("hf_token", re.compile(r"\bhf_[A-Za-z0-9]{20,}")),
        _Rule("github_token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})")),
        _Rule("slack_token", re.compile(r"\bxox[abposre]-[A-Za-z0-9-]{10,}")),
        _Rule(
            "slack_webhook",
            re.compile(r"(hooks\.slack(?:-gov)?\.com/(?:services|workflows|triggers)/)[A-Za-z0-9_/-]{8,}", flags),
            keep_group=1,
        ),
        _Rule(
            "discord_webhook",
            re.compile(r"((?:discord|discordapp)\.com/api/(?:v\d+/)?webhooks/)\d+/[A-Za-z0-9_-]{20,}", flags),
            keep_group=1,
        ),
        _Rule("gitlab_token", re.compile(r"\bgl(?:pat|dt|rt|ptt|ft|imt|agent|oas|soat|cbt)-[A-Za-z0-9_-]{20,}")),
        _Rule("npm_token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
        _Rule("pypi_token", re.compile(r"\bpypi-AgE[A-Za-z0-9_-]{50,}")),
        _Rule("nvidia_key", re.compile(r"\bnvapi-[A-Za-z0-9_-]{20,}")),
        _Rule("aws_key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b")),
        _Rule(
            "aws_secret",
            re.compile(
                r"((?:aws_?)?secret_?access_?key[\"']?\s*[=:]\s*[\"']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])", flags
            ),
            keep_group=1,
        ),
        _Rule("gcp_key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
        _Rule("gcp_token", re.compile(r"\bya29\.[0-9A-Za-z_-]{20,}")),
        _Rule(
            "azure_key",
            re.compile(r"((?:AccountKey|SharedAccessKey)\s*=\s*)[A-Za-z0-9+/]{20,}={0,2}", flags),
            keep_group=1,
        ),
        _Rule("azure_sas", re.compile(r"([?&]sig=)[A-Za-z0-9%+/=]{16,}", flags), keep_group=1),
        _Rule("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
        _Rule("bearer_token", re.compile(r"(\bbearer\s+)[A-Za-z0-9._~+/-]{8,}=*", flags), keep_group=1),
        _Rule(
            "basic_auth",
            re.compile(r"(\bauthorization[\"']?\s*[=:]\s*[\"']?basic\s+)[A-Za-z0-9+/]{8,}=*", flags),
            keep_group=1,
        ),
        _Rule("url_password", re.compile(r"(\b[a-z][a-z0-9+.-]*://[^\s/:@]+:)[^\s@/]+(?=@)", flags), keep_group=1),
        _Rule(
            "secret",
            # not a file's name inside a path (`/etc/passwd: ...`, `'s3://b/../passwd': ...`) and not a
            # `FILE:LINE:` location (`passwd:1: the spec must be ...`): those are the product's words, not secrets
            re.compile(
                r"((?<![\w./\\])\b("
                + _ASSIGN_NAME
                + r")\b[\"']?\s*[=:]\s*[\"']?)(?!\[REDACTED)(?!\d+:(?:\d+:)?(?:\s|$))"
                # a colon that ends the value is the sentence's ("…?password=S3cret: connection failed"), kept
                r"([^\s\"',;&}]*[^\s\"',;&}:])",
                flags,
            ),
            keep_group=1,
            named=True,
        ),
        _Rule(
            "secret",
            # said in words, no `=` (`my secret is hunter2-x`, `the api secret 9f8e…`): only a value with a letter
            # and a digit, unquoted unless after "is"/"was", no path — so `secrets manager`, `the secret is
            # needed`, `secret "db-creds-2" not found` (Kubernetes names the secret, not its value) stay as written
            re.compile(
                r"((?<![\w./\\-])\b(" + _PROSE_NAME + r")\s+(?:(?:is|was)\s+[\"'`]?)?)(?!\[REDACTED)"
                r"(?=[\w+=.~!@#$%^&*-]*\d)(?=[\w+=.~!@#$%^&*-]*[A-Za-z])"
                r"([A-Za-z0-9][\w+=.~!@#$%^&*-]{5,})(?=[\s\"'`,;)]|$)",
                flags,
            ),
            keep_group=1,
            named=True,
        ),
        _Rule(
            "secret",
            re.compile(
                r"(--?((?:password|passwd|token|secret|api-key|api_key|access-key))\s+)(?!\[REDACTED)([^\s\"']+)", flags
            ),
            keep_group=1,
            named=True,
        ),
    ]


_RULES = _rules()
_TRIGGER = re.compile(
    r"sk-|hf_|gh[pousr]_|github_pat_|xox|nvapi-|hooks\.slack|webhooks/|gl[a-z]{1,5}-|npm_|pypi-|AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|AIza|ya29\.|eyJ|://[^\s/]*@"
    r"|PRIVATE KEY"
    r"|(?i:pass|pwd|token|secret|api.?key|access.?key|credential|bearer|authorization|accountkey|sharedaccesskey"
    r"|sig=|auth.?key)"
    rf"|(?i:{_SERVICE}[ _-]?key)"
)


def _apply(rule: _Rule, text: str, counts: Counter[str]) -> str:
    replacement = f"[REDACTED:{rule.kind}]"

    def sub(match: re.Match[str]) -> str:
        kind = rule.kind
        if rule.named:
            name, value = match.group(2), match.group(3)
            if name.lower().endswith(_NOT_SECRET_NAMES) or value.lower() in _NOT_SECRET_VALUES:
                return match.group(0)
            kind = _assignment_kind(name)
        counts[kind] += 1
        return (match.group(1) if rule.keep_group else "") + (f"[REDACTED:{kind}]" if rule.named else replacement)

    return rule.pattern.sub(sub, text)


def nested_quantifier(pattern: str) -> bool:
    """Whether a repeat holds another variable repeat (`(a+)+$`, `(?:x*y?)*`): the shape whose backtracking is
    exponential on a near-miss line, so one config pattern could hang every log read. ``pattern`` compiles."""
    from re import _parser  # the stdlib's own parse tree, no hand-written parser

    repeats = {_parser.MAX_REPEAT, _parser.MIN_REPEAT}

    def children(av: object) -> Iterator[object]:
        items = av if isinstance(av, tuple | list) else (av,)
        for item in items:
            if isinstance(item, _parser.SubPattern):
                yield item
            elif isinstance(item, tuple | list):
                yield from children(item)

    def has_repeat(sub: object) -> bool:  # a variable-count repeat anywhere below
        for op, av in sub:  # type: ignore[attr-defined]
            if op in repeats and av[1] > av[0]:
                return True
            if any(has_repeat(c) for c in children(av)):
                return True
        return False

    def nested(sub: object) -> bool:
        for op, av in sub:  # type: ignore[attr-defined]
            if op in repeats and av[1] > 1 and has_repeat(av[2]):
                return True
            if any(nested(c) for c in children(av)):
                return True
        return False

    return nested(_parser.parse(pattern))


def compile_extra(patterns: Iterable[str]) -> list[Pattern[str]]:
    """Compile config-supplied patterns once; a bad regex is a config error worth failing on."""
    return [re.compile(p) for p in patterns]


# The config's `logs.redaction_patterns`, set where settings are loaded (`config.load_settings`), so every caller
# of the functions below — status files, the chat's record, the audit log, errors, the checkpoint — redacts them
# too, not only the callers that were handed the settings.
_CONFIGURED: list[Pattern[str]] = []


def use_patterns(patterns: Iterable[str]) -> None:
    """Make ``patterns`` part of every redaction in this process (replacing the ones set before)."""
    _CONFIGURED[:] = compile_extra(patterns)


def _with_configured(extra: Iterable[Pattern[str]]) -> list[Pattern[str]]:
    given = list(extra)
    if not given:
        return _CONFIGURED  # the usual per-line call: no list or set built for every line
    seen = {p.pattern for p in given}
    return [*given, *(p for p in _CONFIGURED if p.pattern not in seen)]


def redact_line(text: str, extra: Iterable[Pattern[str]] = (), counts: Counter[str] | None = None) -> str:
    """Redact one line (no multi-line state); counts are added to ``counts`` when given."""
    counts = counts if counts is not None else Counter()
    for pattern in _with_configured(extra) if _CONFIGURED else extra:
        text = _apply(_Rule("custom", pattern), text, counts)
    if not _TRIGGER.search(text):
        return text
    for rule in _RULES:
        text = _apply(rule, text, counts)
    return text


def redact(text: str, extra_patterns: Iterable[str] = ()) -> tuple[str, dict[str, int]]:
    """Redact any text (one line or many) and say what was removed, by kind.

    The reusable entry point for other modules: LLM prompts, checkpoints and status files go through it.
    Private key blocks are removed whole, from BEGIN to END, across lines.
    """
    counts: Counter[str] = Counter()
    extra = compile_extra(extra_patterns)

    def key_block(match: re.Match[str]) -> str:
        counts["private_key"] += 1
        return "[REDACTED:private_key]"

    text = _KEY_BLOCK.sub(key_block, text)
    lines = [redact_line(line, extra, counts) for line in text.split("\n")]
    return "\n".join(lines), dict(counts)


@dataclass
class LineRedactor:
    """Streaming redaction with the one piece of cross-line state secrets need: an open private key block."""

    extra: list[Pattern[str]] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    in_key_block: bool = False

    def __post_init__(self) -> None:
        # its own copy; a caller's fast path asks `.extra` whether any custom rule applies
        self.extra = list(_with_configured(self.extra))

    def __call__(self, line: str) -> str:
        """Match on the message, not the log prefix (`2026/11/30 12:51:24 [task] `): a key block's lines start
        after it, so a rule anchored at line start would never see them. The prefix is kept as it was."""
        text = split_prefix(line).text
        head = line[: len(line) - len(text)] if line.endswith(text) else ""
        if not head:
            text = line
        return head + self._message(text)

    def _message(self, text: str) -> str:
        if self.in_key_block:
            end = _KEY_END.search(text)
            if end:
                self.in_key_block = False
                return redact_line("[REDACTED:private_key]" + text[end.end() :], self.extra, self.counts)
            if _KEY_BODY.match(text):
                return "[REDACTED:private_key]"
            # Not key material any more (a cut or garbled block): stop swallowing lines.
            self.in_key_block = False
        begin = _KEY_BEGIN.search(text)
        if begin and not _KEY_END.search(text, begin.end()):
            self.in_key_block = True
            self.counts["private_key"] += 1
            return redact_line(text[: begin.start()], self.extra, self.counts) + "[REDACTED:private_key]"
        if begin:
            text = _KEY_BLOCK.sub(lambda m: self._count_key(), text)
        return redact_line(text, self.extra, self.counts)

    def _count_key(self) -> str:
        self.counts["private_key"] += 1
        return "[REDACTED:private_key]"


def redacted_lines(lines: Iterable[str], extra_patterns: Iterable[str] = ()) -> Iterator[str]:
    """Raw lines as they may be shown (``logs --raw``, ``logs -f``, MCP's raw tail): one line each whatever the
    job printed inside it (`decode.shown_line`), then redacted, private key blocks included, lazily."""
    from runshepherd.logs.decode import shown_line

    redactor = LineRedactor(extra=compile_extra(extra_patterns))
    return (redactor(shown_line(line)) for line in lines)
