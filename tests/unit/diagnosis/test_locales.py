"""The C library's and the shell's failure messages in a non-English locale read as their English text
(runshepherd/diagnosis/formats/locales.py): a log from a machine set to another language gets the same verdict."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.formats.locales import TRANSLATIONS
from runshepherd.diagnosis.paste import unpaste

from .families.real import dev_case
from .test_paste_invariance import LAYOUTS

READ = {t.text for t in TRANSLATIONS if not t.text.isascii() or " " in t.text or len(t.text) >= 12}


@pytest.mark.parametrize("row", [t for t in TRANSLATIONS if t.text in READ], ids=lambda t: f"{t.locale}:{t.english}")
def test_each_translation_is_read_as_its_english_text(row) -> None:  # type: ignore[no-untyped-def]
    assert row.source.startswith("https://") and row.locale in row.source
    assert unpaste([f"x {row.text} y"]) == [f"x {row.english} y"]


# after progress, a fatal signal's report in the machine's language was read as a healthy run
@pytest.mark.parametrize(
    ("localised", "english"),
    [
        ("段错误 (核心已转储)", "Segmentation fault (core dumped)"),
        ("Speicherzugriffsfehler (Speicherabzug geschrieben)", "Segmentation fault (core dumped)"),
        ("Violación de segmento (`core' generado)", "Segmentation fault (core dumped)"),
        ("Ошибка сегментирования (стек памяти сброшен на диск)", "Segmentation fault (core dumped)"),
        ("已放弃 (核心已转储)", "Aborted (core dumped)"),
    ],
)
def test_a_fatal_signal_after_progress_is_no_healthy_run_in_any_language(localised: str, english: str) -> None:
    head = "Epoch 1/10 step 100 loss 0.31\n"
    d = diagnose_log_text(head + localised + "\n", "x")
    assert d.label == diagnose_log_text(head + english + "\n", "x").label == "segfault"
    assert localised in d.evidence  # the line as the machine printed it is the evidence


# TRAIN cases whose label the locale changed before it was read (a-0106, i-0003: a segfault called healthy;
# a-0007: a kill; v-0017: a missing file; v-0019: glog's fatal line, then the shell's "Abgebrochen (Speicherabzug
# geschrieben)", the abort that echoes it, where the short "Abgebrochen" is read only in that whole report)
@pytest.mark.parametrize("case_id", ["a-0106", "i-0003", "a-0007", "v-0017", "zh-0012", "v-0019"])
def test_a_log_in_another_locale_keeps_its_label(case_id: str) -> None:
    text, record = dev_case(case_id)
    pasted = LAYOUTS.apply("localised", text, case_id)
    assert pasted != text
    assert diagnose_log_text(pasted, case_id).label == diagnose_log_text(text, case_id).label == record["label"]
