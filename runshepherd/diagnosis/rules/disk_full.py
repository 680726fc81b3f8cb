"""The disk (or /dev/shm, or a storage quota) filled up."""

from __future__ import annotations

from runshepherd.diagnosis.rules.base import pat
from runshepherd.diagnosis.rules.family import family, words

# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): strerror(ENOSPC) "No space left on device",
# strerror(EDQUOT) "Disk quota exceeded", strerror(EFBIG) "File too large", the kubelet's ephemeral-storage eviction
ROOT_WORDS = (
    words(
        r"\bno space left\b|\bdisk (?:is )?full\b|\b(?:disk|storage|file ?system|inode)s? quota\b|\bquota exceeded\b"
        r"(?:[^.]|\.\S){0,40}\b(?:disk|storage|bytes|inodes?)\b|\b(?:not enough|insufficient) (?:free )?(?:disk|storage) space\b"
        r"|\bout of (?:disk|storage) space\b|\bfile too large\b|\bENOSPC\b|\bEDQUOT\b|\bErrno (?:28|122)\b"
        r"|\bevict\w*\b(?:[^.]|\.\S){0,60}\bephemeral[- ]storage\b|\bDiskPressure\b|\blow on resource:? ephemeral",
        0.64,
        "disk space or a storage quota",
    ),
    # a write that failed (PyTorch's PytorchStreamWriter "file write failed", a failed write(2)): most often a full
    # disk or quota
    words(
        r"\b(?:file )?write failed\b|\bfailed (?:to write|writing)\b|\bcannot write\b|\bwrite\(\)(?:[^.]|\.\S){0,20}\bfailed\b",
        0.55,
        "a file that could not be written (often a full disk or quota)",
    ),
)


FAMILY = family(
    "disk_full",
    origin="config",
    fix_kind="free_disk",
    explanation="The task ran out of disk space while writing (checkpoints, caches or outputs filled the "
    "space it was given).",
    fix_description="Request more `storage`, write large files to {{output}} or a mounted volume instead of "
    "the container's scratch space, keep fewer checkpoints, or clear caches (pip/HF) during the run.",
    patterns=(
        pat(r"No space left on device", 0.92),
        pat(r"\[Errno 28\]|ENOSPC", 0.92),
        pat(r"Disk quota exceeded|EDQUOT", 0.92),
        pat(r"low on resource: ephemeral-storage|ephemeral local storage usage exceeds", 0.96),
        pat(r"DiskPressure", 0.8),
        # Ray's raylet file-system monitor (file_system_monitor.cc): "<path> is over 95% full, available space: …
        # Object creation will fail if spilling is required."
        pat(r"is over \d+(?:\.\d+)?% full, available space", 0.85),
        pat(r"not enough (?:free )?disk space|insufficient disk space|database or disk is full", 0.88),
        pat(r"PytorchStreamWriter failed writing file|file write failed|unexpected pos \d+ vs \d+", 0.8),
        pat(r"write error: No space|out of disk space|disk is full", 0.9),
        # kubelet evicting a pod whose emptyDir outgrew its limit; Windows' ERROR_DISK_FULL; Python's tempfile when
        # no temporary directory can take a file; quotas on inodes or storage
        pat(r"Usage of EmptyDir volume \S+ exceeds the limit", 0.92),
        # glibc's zh_CN strerror for ENOSPC and EDQUOT
        pat(r"设备上没有空间|超出磁盘限额", 0.9),
        # ... and its ENOSPC in the other locales forum pastes come in (ja, de, fr, es)
        pat(
            r"デバイスに空き領域がありません|Auf dem Gerät ist kein Speicherplatz mehr verfügbar"
            r"|Aucun espace disponible sur le périphérique|No queda espacio en el dispositivo",
            0.9,
            flags=0,
        ),
        pat(r"There is not enough space on the disk", 0.9),
        pat(r"No usable temporary directory found in", 0.88),
        # NumPy preallocating a file it writes (numpy/_core/src/multiarray/convert.c, npy_fallocate on ENOSPC: "Not
        # enough free space to write %d bytes")
        pat(r"Not enough free space to write \d+ bytes", 0.88),
        pat(r"\b(?:inode|storage|file) quota (?:exceeded|reached)|exceeded (?:your|the) (?:disk|storage) quota", 0.86),
    ),
    # huggingface_hub checks the target's free space before a download and only warns ("Not enough free disk space
    # to download the file. The expected file size is: … MB. The target location … only has … MB free disk space."):
    # the write then fails, often in words of its own
    warning_patterns=(pat(r"Not enough free disk space to download the file", 0.82),),
    # exception classes named for a full disk or storage in any library (Ray's OutOfDiskError)
    exceptions=r"(?:^|\.)(?:OutOfDisk|DiskFull|NoSpace|StorageFull|DiskQuota)\w*(?:Error|Exception)?$",
    root_words=ROOT_WORDS,
)
