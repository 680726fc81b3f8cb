"""The image_pull family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import assert_read_as, diagnose_dev, root_line_cases


@pytest.mark.parametrize("case_id", ["b-0034", "b-0035", "b-0040"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "image_pull"


def test_a_registry_refusal_is_an_image_pull_needing_credentials() -> None:
    log = (
        "Error response from daemon: pull access denied for myorg/trainer, repository does not exist or may "
        "require 'docker login': denied: requested access to the resource is denied\n"
    )
    d = diagnose_log_text(log)
    # Docker Hub answers so for a repository it does not have as well as for a private one: the name comes first
    assert (d.label, d.fix.kind) == ("image_pull", "fix_image")
    # the registry's own "unauthorized" about the image is what says a credential is missing
    for answer in (
        "Error response from daemon: Head https://registry.example.com/v2/myorg/trainer/manifests/1.2: unauthorized: "
        "authentication required\n",
        "Step 1/9 : FROM registry.example.com/myorg/base:1.2\nGet https://registry.example.com/v2/myorg/base/"
        "manifests/1.2: unauthorized: authentication required\n",
    ):
        d = diagnose_log_text(answer + log)
        assert (d.label, d.fix.kind) == ("image_pull", "fix_credentials"), answer


def test_docker_hub_asked_for_another_registrys_path_is_an_image_reference_fix() -> None:
    log = (
        "slurmstepd: error: pyxis:     [ERROR] URL https://registry-1.docker.io/v2/nvcr.io/nvidia/pytorch/manifests/"
        "20.12-py3 returned error code: 401 Unauthorized\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("image_pull", "fix_image")


@pytest.mark.parametrize(
    "log",
    [
        "Error response from daemon: repository katib/suggestion-hayperband not found: does not exist or no pull "
        "access\n",
        "failed to solve with frontend dockerfile.v0: failed to create LLB definition: "
        "docker.io/nvidia/cuda:11.2-cudnn8-devel-ubuntu18.04: not found\n",
    ],
)
def test_an_image_that_does_not_exist_in_docker_and_buildkit_words(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("image_pull", "fix_image"), log


@pytest.mark.parametrize(
    "log",
    [
        "6.0.1: Pulling from jasonish/suricata\nno matching manifest for linux/arm64/v8 in the manifest list entries\n",
        "FATAL:   While pulling shub image: Failed to get manifest from Shub: No response received from hub\n",
    ],
)
def test_no_image_for_this_platform_and_singularity_pulls(log: str) -> None:
    assert diagnose_log_text(log).label == "image_pull", log


def test_enroots_error_tag_does_not_hide_the_pull() -> None:
    d, _, record = diagnose_dev("b-0139")  # "[ERROR] URL https://nvcr.io/proxy_auth returned error code: 401"
    assert (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("image_pull", "fix_credentials")


@pytest.mark.parametrize(
    ("log", "kind"),
    [
        # the docker daemon's registry API calls (/v2/…) refused or unanswered
        (
            'docker: Error response from daemon: Head "https://nvcr.io/v2/nvidia/pytorch/manifests/24.01-py3": '
            "unauthorized: authentication required\n",
            "fix_credentials",
        ),
        (
            'Error response from daemon: Get "https://123.dkr.ecr.us-east-1.amazonaws.com/v2/": no basic auth '
            "credentials\n",
            "fix_credentials",
        ),
        # apptainer/singularity building a SIF from a registry
        (
            "FATAL:   While making image from oci registry: error fetching image to cache: failed to get checksum for "
            "docker://foo/bar:latest: reading manifest latest in docker.io/foo/bar: manifest unknown\n",
            "fix_image",
        ),
    ],
)
def test_docker_daemon_and_apptainer_pull_failures(log: str, kind: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("image_pull", kind), log


def test_an_importer_refused_its_own_directory_is_a_file_permission_not_a_pull() -> None:
    d, _, record = diagnose_dev("b-0033")  # pyxis: "mkdir: cannot create directory '/run/enroot': Permission denied"
    assert (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("permission_or_auth", "fix_path")


def test_an_image_for_another_platform_is_an_image_problem() -> None:
    """Docker warns that "The requested image's platform (linux/arm64) does not match the detected host platform";
    the runtime then cannot exec the image's programs (no loader for that architecture)."""
    d, _, record = diagnose_dev("k-0004")
    assert (d.label, d.fix.kind) == ("image_pull", "fix_image") == (record["label"], record["fix_kind"])
    # the kernel's ENOEXEC for a foreign binary, as runc reports it
    log = "standard_init_linux.go:228: exec user process caused: exec format error\n"
    assert (diagnose_log_text(log).label, diagnose_log_text(log).fix.kind) == ("image_pull", "fix_image")


@pytest.mark.parametrize("case_id", ["n-0001", "n-0006"])
def test_a_registry_refusing_a_dockerfiles_base_image(case_id: str) -> None:
    """docker build's ``Step 1/22 : FROM …`` then the registry's bare ``unauthorized: authentication required``."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "image_pull"


def test_buildkit_failing_to_fetch_a_base_image() -> None:
    log = (
        "ERROR: failed to solve: pytorch/pytorch:2.9-cuda12: failed to resolve source metadata for "
        "docker.io/pytorch/pytorch:2.9-cuda12: docker.io/pytorch/pytorch:2.9-cuda12: not found\n"
    )
    assert diagnose_log_text(log).label == "image_pull"


@root_line_cases(
    ("b-0034", "manifest for kaixhin/cuda-torch:latest not found"),
    ("b-0136", "no matching manifest for linux/arm64/v8"),
)
def test_root_line_vocabulary_reads_image_pull(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "image_pull", quoted)


def test_a_picture_file_that_is_not_found_is_no_container_image() -> None:
    """YOLOv5's dataloader check (utils/dataloaders.py: ``assert im is not None, f'Image Not Found {f}'``) names a
    picture on disk: the words 'image … not found' do not make it an image pull."""
    log = (
        'Traceback (most recent call last):\n  File "utils/dataloaders.py", line 740, in load_image\n'
        "    assert im is not None, f'Image Not Found {f}'\nAssertionError: Image Not Found /data/images/001.jpg\n"
    )
    assert diagnose_log_text(log).label == "file_not_found"


def test_a_picture_folder_not_found_is_a_path_not_an_image_pull() -> None:
    d, _, record = diagnose_dev("zc-0003")  # FileNotFoundError: [ERROR] Image folder not found: 'data/JPEGImages'
    assert d.label == record["label"] == "file_not_found"
    d = diagnose_log_text("Error: image nvcr.io/nvidia/pytorch:99.01-py3 not found\n")
    assert d.label == "image_pull"


def test_pyxis_failing_to_start_after_a_refused_mount_is_no_pull() -> None:
    # pyxis's "couldn't start container" follows enroot-mount's "Permission denied": the mount, not the image
    d, _, record = diagnose_dev("zf-0015")
    assert d.label == record["label"] == "permission_or_auth"
