"""The disk_full family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import assert_read_as, diagnose_dev, root_line_cases


@pytest.mark.parametrize("case_id", ["b-0142", "b-0056", "b-0057"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "disk_full"


def test_an_image_that_cannot_be_unpacked_for_lack_of_space_is_disk_full() -> None:
    log = (
        "slurmstepd: error: pyxis: failed to import docker image\n"
        "slurmstepd: error: pyxis:     Write failed because No space left on device\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("disk_full", "free_disk")


@pytest.mark.parametrize(
    "log",
    [
        # kubelet's eviction manager (pkg/kubelet/eviction): an emptyDir (often /dev/shm) past its sizeLimit
        'Warning  Evicted  2m  kubelet  Usage of EmptyDir volume "dshm" exceeds the limit "1Gi".\n',
        # Windows' ERROR_DISK_FULL text; Python's tempfile finding no directory it can write a file to
        "OSError: [WinError 112] There is not enough space on the disk\n",
        "FileNotFoundError: [Errno 2] No usable temporary directory found in ['/tmp', '/var/tmp', '/usr/tmp', '/w']\n",
        "OSError: [Errno 122] Disk quota exceeded: '/home/u/.cache/huggingface/hub/tmpx'\n",
    ],
)
def test_other_emitters_words_for_a_full_disk(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("disk_full", "free_disk"), log


def test_a_full_disk_in_a_chinese_locale() -> None:
    # glibc's zh_CN message catalog: ENOSPC is "设备上没有空间"
    d = diagnose_log_text("OSError: [Errno 28] 设备上没有空间: '/data/ckpt/model.pt'\n")
    assert (d.label, d.fix.kind) == ("disk_full", "free_disk")


def test_ray_file_system_monitor_full_disk() -> None:
    """Ray's raylet (file_system_monitor.cc) warns "<path> is over 95% full, available space: …"."""
    d, _, record = diagnose_dev("j-0011")
    assert (d.label, d.fix.kind) == ("disk_full", "free_disk") == (record["label"], record["fix_kind"])


def test_huggingface_hubs_free_space_warning_is_read() -> None:
    log = (
        "/usr/local/lib/python3.10/dist-packages/huggingface_hub/file_download.py:1000: UserWarning: Not enough free "
        "disk space to download the file. The expected file size is: 4943.16 MB. The target location "
        "/root/.cache/huggingface/hub/models--x/blobs only has 1021.29 MB free disk space.\n  warnings.warn(\n"
    )
    assert diagnose_log_text(log).label == "disk_full"


def test_numpy_preallocating_a_file_without_room_is_disk_full() -> None:
    # numpy/_core/src/multiarray/convert.c (npy_fallocate on ENOSPC)
    log = 'Traceback (most recent call last):\n  File "prep.py", line 9, in <module>\n    arr.tofile(f)\n'
    log += "OSError: Not enough free space to write 1048576000 bytes\n"
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("disk_full", "free_disk")


@pytest.mark.parametrize(
    "log",
    [
        "OSError: [Errno 28] デバイスに空き領域がありません\n",  # glibc ja strerror(ENOSPC)
        "cp: Fehler beim Schreiben von 'ckpt.pt': Auf dem Gerät ist kein Speicherplatz mehr verfügbar\n",  # de
    ],
)
def test_enospc_in_the_systems_language(log: str) -> None:
    assert diagnose_log_text(log).label == "disk_full", log


@root_line_cases(
    ("b-0055", "OSError: [Errno 122] Disk quota exceeded"), ("b-0009", "PytorchStreamWriter failed writing file")
)
def test_root_line_vocabulary_reads_disk_full(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "disk_full", quoted)
