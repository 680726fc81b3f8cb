"""The user_code_error family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["a-0104", "a-0183", "a-0181"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "user_code_error"


def test_a_plain_exception_in_the_users_code() -> None:
    log = 'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n    x = y[3]\nKeyError: 3\n'
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("user_code_error", "fix_code") and d.evidence == ["KeyError: 3"]


def test_an_uncaught_jvm_exception_is_read_like_a_python_one() -> None:
    """The JVM's 'Exception in thread "main" <type>: <message>' (Spark, Nextflow's Groovy): its type decides."""
    plain = 'Exception in thread "main" java.lang.IllegalStateException: model dir not initialised\n\tat com.acme.Train.main(Train.java:42)\n'
    d = diagnose_log_text(plain)
    assert d.label == "user_code_error" and "IllegalStateException" in d.explanation
    missing = 'Exception in thread "main" java.nio.file.NoSuchFileException: /data/in.parquet\n\tat sun.nio.fs.UnixException.translateToIOException(UnixException.java:92)\n'
    assert diagnose_log_text(missing).label == "file_not_found"
