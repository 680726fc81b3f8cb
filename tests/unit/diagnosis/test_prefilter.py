"""The literal prefilter only skips regexes that could not match: diagnoses are identical with it on and off."""

from __future__ import annotations

import re
import sys
import threading
from pathlib import Path

import pytest

from runshepherd.diagnosis import diagnose_log_text, prefilter
from runshepherd.diagnosis.prefilter import (
    MANY,
    Alternatives,
    AnyGate,
    AnyOf,
    Gate,
    Gated,
    Joined,
    fold,
    gate_for,
    prefilter_enabled,
    ungated,
)

DATA = Path(__file__).resolve().parents[2] / "data"
LOGS = sorted((DATA / "diagnosis" / "logs").glob("*.log")) + sorted((DATA / "diagnosis_holdout").glob("*.log"))


def _diagnose_all(texts: dict[str, str]) -> dict[str, dict[str, object]]:
    return {name: diagnose_log_text(text, name).model_dump(mode="json") for name, text in texts.items()}


def test_gated_and_ungated_engines_agree_on_every_corpus_log() -> None:
    assert len(LOGS) > 300
    texts = {p.name: p.read_text(encoding="utf-8") for p in LOGS}
    # long logs too: several corpus logs back to back, failures in the middle and at the end
    texts["joined"] = "\n".join(texts[p.name] for p in LOGS[::17])
    gated = _diagnose_all(texts)
    with ungated():
        reference = _diagnose_all(texts)
    assert prefilter_enabled()
    mismatched = [n for n in texts if gated[n] != reference[n]]
    assert mismatched == []
    assert len({d["label"] for d in gated.values()}) > 15  # the comparison covers many verdicts, not just healthy


def test_ungated_restores_the_prefilter_even_after_an_error() -> None:
    with pytest.raises(RuntimeError), ungated():
        assert not prefilter_enabled()
        raise RuntimeError("boom")
    assert prefilter_enabled()


def test_gates_rule_out_lines_without_the_literal_and_keep_lines_with_it() -> None:
    g = Gated.of(re.compile(r"CUDA out of memory", re.IGNORECASE))
    assert g.gate is not None
    assert not g.admits("step 10 loss 0.52")
    assert g.search("RuntimeError: cuda OUT OF MEMORY. Tried to allocate") is not None
    # a branch gates on every alternative; a small optional piece is multiplied out
    warn = gate_for(re.compile(r"W(?:ARN|arning)\b|level=warn"))
    assert warn is not None and warn.admits("x Warning y") and warn.admits("level=warn") and not warn.admits("Wx")


@pytest.mark.parametrize(
    "expr",
    [
        r"\w+\s\d+",  # no literal at all: never gated
        r"(?:abc)?def|x*",  # an alternative that can match empty text
        r"(?i:abc)",  # a local flag changes how its literal compares
        r".*",
    ],
)
def test_patterns_without_a_certain_literal_are_not_gated(expr: str) -> None:
    assert gate_for(re.compile(expr)) is None


@pytest.mark.parametrize(
    ("expr", "flags", "line"),
    [
        (r"image pull", re.IGNORECASE, "İMAGE PULL failed"),  # dotted capital I equals i under re.IGNORECASE
        (r"dist", re.IGNORECASE, "diſt"),  # long s
        (r"kill", re.IGNORECASE, "\u212aILL"),  # Kelvin sign
        (r"Fehler: über", 0, "Fehler: über alles"),  # non-ASCII literal (split off, the ASCII part gates)
        (r"(?:nan|inf)\.?\s+loss", re.IGNORECASE, "NaN. loss"),
        (r"设备上没有空间|超出磁盘限额", re.IGNORECASE, "cp: 写入出错: 设备上没有空间"),  # uncased: gated exactly
        (r"^\W*(?:Killed|已杀死)\W*$", re.IGNORECASE, "  已杀死"),
    ],
)
def test_gates_admit_every_line_the_regex_matches(expr: str, flags: int, line: str) -> None:
    regex = re.compile(expr, flags)
    assert regex.search(line) is not None
    gate = gate_for(regex)
    assert gate is None or gate.admits(line)
    both = AnyGate.of([gate, gate_for(re.compile(r"unrelated"))])
    assert both is None or both.admits(line, fold(line))


def test_a_class_of_literal_characters_gates_as_its_characters() -> None:
    """``[Ee]rror[:=]`` needs one of four strings; a drawn bar ``[━█▉▊▋]{4,}`` (uncased characters) one of five; a
    class with a range, a category or a negation, or a cased non-ASCII letter, gives no literal."""
    assert gate_for(re.compile(r"[Ee]rror[:=]")) == Gate((("Error:", "Error=", "error:", "error="),), icase=False)
    bar = gate_for(re.compile(r"[━█▉▊▋]{4,}", re.IGNORECASE))
    assert bar is not None and bar.admits("  40%|████      | 4/10") and not bar.admits("step 10 | loss 0.25 | 512 ms")
    for expr in (r"[a-c]", r"[\d:]", r"[^a]", r"[äb]"):
        assert gate_for(re.compile(expr, re.IGNORECASE)) is None, expr


@pytest.mark.parametrize("n", [1, MANY - 1, MANY, 40])
def test_any_of_answers_as_one_substring_test_per_literal(n: int) -> None:
    """A few literals are tested one by one, many by one automaton pass: either way, exactly ``any(lit in text)``."""
    lits = tuple(f"lit{i}x" for i in range(n - 1)) + ("设备上",)
    texts = ["", "lit0x", f"prefix lit{n - 2}x", "lit", "li t0x", "a lit1x", "写入: 设备上没有空间", "设备", "x" * 500]
    texts += [t + " lit0x" for t in texts] + [("lit" * 50) + "0x"]
    any_of = AnyOf(lits)
    for _ in range(2):  # the automaton is built on the first call and reused
        assert [any_of(t) for t in texts] == [any(lit in t for lit in lits) for t in texts]
    assert any(any_of(t) for t in texts) and not all(any_of(t) for t in texts)


def test_a_held_first_clause_answers_as_its_literals_do(monkeypatch: pytest.MonkeyPatch) -> None:
    """A first clause of literals of HELD_MIN+ characters is answered from one pass per text over every such gate's
    literals (kept per text): the same answer as testing its own literals, also for a gate made after the text was
    read, and after the kept texts are forgotten."""
    gate = gate_for(re.compile(r"watchdog got stuck|collective (?:operation )?timeout", re.IGNORECASE))
    assert gate is not None and gate.first == {
        "watchdog got stuck",
        "collective operation timeout",
        "collective timeout",
    }
    lines = ["[PG 0] Watchdog got stuck for 480 s", "collective timeout", "collective  timeout", "step 1", ""]
    for _ in range(2):  # the second time from what was kept
        assert [gate.admits(ln) for ln in lines] == [True, True, False, False, False]
    late_line = "x zq-held-late-literal-5 y"
    assert not gate.admits(late_line)  # read now, before the next gate exists
    later = gate_for(re.compile(r"zq-held-late-literal-5"))
    assert later is not None and later.first is not None and later.admits(late_line) and not later.admits("zq-held")
    monkeypatch.setattr(prefilter, "HELD_TEXTS", 40)  # forget after every text or two
    assert [gate.admits(ln) for ln in lines * 3] == [True, True, False, False, False] * 3
    short = gate_for(re.compile(r"lr[:=]"))  # ``lr:`` / ``lr=`` are held; a 2-character literal would not be
    assert short is not None and short.first is not None and short.admits("lr: 0.1") and not short.admits("lr 0.1")
    assert gate_for(re.compile(r"\bs/it\b|\d+it/s")).first is not None  # "s/it", "it/s"
    assert gate_for(re.compile(r"\d:\d")).first is None  # ":" stays a test of its own


def test_fold_maps_every_character_re_ignorecase_equates_with_ascii() -> None:
    """The fold table is checked against ``re`` itself over all of Unicode, so a Python upgrade cannot skew it."""
    others = "".join(chr(c) for c in range(128, sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF)
    for a in map(chr, range(128)):
        for c in re.findall(re.escape(a), others, re.IGNORECASE):
            assert fold(c) == a.lower(), (hex(ord(c)), a)
    assert fold("İmage") == "image"  # one character, so the next ones stay adjacent


def test_uncased_non_ascii_literals_gate_and_survive_folding() -> None:
    """CJK literals now gate (a Chinese-only pattern no longer turns its whole family's prefilter off): sound because
    ``re`` compares an uncased character exactly and ``str.lower`` never changes it (checked over all of Unicode)."""
    import _sre

    gate = gate_for(re.compile(r"设备上没有空间", re.IGNORECASE))
    assert gate is not None and gate.admits("写入出错: 设备上没有空间") and not gate.admits("step 10 loss 0.5")
    cased = gate_for(re.compile(r"über", re.IGNORECASE))  # a cased non-ASCII letter still never gates
    assert cased is not None and cased.clauses == (("ber",),)
    uncased = (chr(c) for c in range(128, sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF)
    assert [c for c in uncased if not _sre.unicode_iscased(ord(c)) and fold(c) != c] == []


def test_lines_in_finds_exactly_the_lines_a_gate_admits() -> None:
    gate = AnyGate.of([gate_for(re.compile(r"CUDA out of memory", re.IGNORECASE)), gate_for(re.compile(r"Killed"))])
    assert gate is not None
    lines = [
        "step 1",
        "RuntimeError: CUDA out of memory",
        "cuda out",
        "of memory Killed",
        "x",
        "Killed cuda OUT OF MEMORY",
    ]
    folded = [fold(ln) for ln in lines]
    got = gate.lines_in(Joined(lines, folded))
    assert got == [i for i, ln in enumerate(lines) if gate.admits(ln, folded[i])] == [1, 3, 5]


def test_a_gate_made_after_a_log_was_scanned_still_finds_its_lines() -> None:
    """The automaton holds the literals of the gates made so far: a later gate (a rule's gates are made on first use)
    brings literals it lacks, and the joined text is scanned again rather than answering "in no line"."""
    lines = ["step 1", "Zqx-unseen-literal-7 here", "x", "ZQX-UNSEEN-LITERAL-7", "exact-only-literal-9"]
    joined = Joined(lines, [fold(ln) for ln in lines])
    first = AnyGate.of([gate_for(re.compile(r"step \d"))])
    assert first is not None and first.lines_in(joined) == [0]
    later = AnyGate.of(
        [gate_for(re.compile(r"zqx-unseen-literal-7", re.IGNORECASE)), gate_for(re.compile(r"exact-only-literal-9"))]
    )
    assert later is not None and later.generation > first.generation
    assert later.lines_in(joined) == [1, 3, 4]
    assert first.lines_in(joined) == [0]


@pytest.mark.parametrize(
    ("expr", "n_parts"),
    [
        (r"loss scale\b.*(?:to|->)\s*\d|You should probably TRAIN|^\s*\[W[^\]]*\]", 3),
        (r"x(a|b)|[|(]y|\|z|(?i:Warn)ing", 4),  # a nested '|', one in a class, an escaped one
        (r"[]|]q|r$", 2),  # a ']' first in a class is a literal
        (r"(?P<n>\d+) of (?P=n) steps|all done", 2),  # a named reference inside its own part
    ],
)
def test_alternatives_find_exactly_what_the_whole_regex_finds(expr: str, n_parts: int) -> None:
    regex = re.compile(expr, re.IGNORECASE)
    alt = Alternatives.of(regex)
    assert alt.parts is not None and len(alt.parts) == n_parts
    lines = [
        "iteration 60 | lm loss: 2.97 | loss scale: 65536.0 | number of skipped iterations: 0",
        "Reducing loss scale to 32768",
        "you should probably train this model",
        "  [W socket.cpp:464] c10d",
        "xb",
        "(y",
        "|z",
        "WARNING",
        "]q",
        "|q",
        "r",
        "12 of 12 steps (100%) done",
        "11 of 12 steps (92%) done",
        "ALL DONE",
        "nothing here",
    ]
    for line in lines:
        assert alt.found(line, fold(line)) == (regex.search(line) is not None), line
        with ungated():
            assert alt.found(line) == (regex.search(line) is not None), line


@pytest.mark.parametrize("expr", [r"ab|ac", r"(a)x|\1y", r"(?P<g>a)x|(?P=g)y", r"(a)?(?(1)b|c)|d", r"single", r"a|b"])
def test_alternatives_not_split_when_the_parts_would_not_mean_the_same(expr: str) -> None:
    alt = Alternatives.of(re.compile(expr))
    assert alt.parts is None  # the whole regex runs
    assert alt.found("ab") == (re.search(expr, "ab") is not None)


def test_automata_built_on_first_use_answer_threads_that_ask_at_once() -> None:
    """A sweep diagnoses its points' logs in threads of one process: the first calls of a fresh gate can come from
    several threads at once, and each must get the right answer, never an automaton still being built ("Not an
    Aho-Corasick automaton yet" crashed two sweeps in CI)."""
    lits = tuple(f"zq-race-{i}-literal" for i in range(3000))
    texts = [f"line {i} zq-race-{i * 7}-literal end" if i % 2 else f"line {i} nothing" for i in range(8)]
    expected = [(any(lit in t for lit in lits), frozenset(lit for lit in lits if lit in t)) for t in texts]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns inside the build, as they do on a loaded machine
    try:
        for _ in range(5):
            assert _ask_at_once(AnyOf(lits), prefilter._Held(), lits, texts) == expected
    finally:
        sys.setswitchinterval(interval)


def _ask_at_once(any_of: AnyOf, held: prefilter._Held, lits: tuple[str, ...], texts: list[str]) -> list[object]:
    """Each text asked of ``any_of`` and ``held`` by a thread of its own, all released at once; what each answered
    or raised."""
    generation = held.add(frozenset(lits))
    start = threading.Barrier(len(texts))
    answers: list[object] = [None] * len(texts)

    def ask(i: int) -> None:
        start.wait()
        try:
            answers[i] = (any_of(texts[i]), held.of(texts[i], generation))
        except AttributeError as exc:  # kept as the thread's answer, so the comparison shows it
            answers[i] = exc

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(texts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers
