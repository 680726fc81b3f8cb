"""The unknown family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

from runshepherd.diagnosis import diagnose_log_text


def test_an_error_no_family_explains_is_unknown_with_the_line_quoted() -> None:
    d = diagnose_log_text("step 3 loss 0.4\nERROR ~ Error executing process > 'STAR_mapping (S31)'\n")
    assert d.label == "unknown" and d.evidence == ["ERROR ~ Error executing process > 'STAR_mapping (S31)'"]
    assert d.fix.kind == "none" and "full log" in d.fix.description
