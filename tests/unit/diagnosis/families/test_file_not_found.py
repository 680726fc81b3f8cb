"""The file_not_found family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.models import Diagnosis

from .real import assert_read_as, diagnose_dev, root_line_cases, rules_dev

TB = 'Traceback (most recent call last):\n  File "train.py", line 10, in <module>\n    main()\n'


@pytest.mark.parametrize("case_id", ["b-0168", "b-0105", "b-0103"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "file_not_found"


def test_a_missing_dataset_directory_is_a_path_to_fix() -> None:
    d = diagnose_log_text("ValueError: Dataset does not exist: /data/imagenet/train\n")
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path")


@pytest.mark.parametrize(
    "log",
    [
        "MissingInputException in line 42 of /home/u/rules/Get_data.skm:\nMissing input files for rule x:\n",
        'MountVolume.SetUp failed for volume "data" : hostPath type check failed: /data/x is not a directory\n',
    ],
)
def test_missing_inputs_named_by_workflow_managers_and_the_kubelet(log: str) -> None:
    assert diagnose_log_text(log).label == "file_not_found", log


@pytest.mark.parametrize("case_id", ["h-0052", "h-0043"])
def test_an_empty_dataset_and_a_file_a_tool_could_not_open(case_id: str) -> None:
    """RandomSampler's num_samples=0 (the data path matched nothing) and sbatch's "Unable to open file": the path."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "file_not_found" and d.fix.kind == "fix_path"


@pytest.mark.parametrize(
    "log",
    [
        # TensorFlow's glob over a checkpoint prefix (tensorflow/core/util/tensor_slice_reader.cc)
        "tensorflow.python.framework.errors_impl.NotFoundError: Unsuccessful TensorSliceReader constructor: Failed "
        "to find any matching files for ckpt/model.ckpt-1000\n",
        # Transformers' from_pretrained on a local folder without weights (modeling_utils.py)
        "OSError: Error no file named pytorch_model.bin, model.safetensors, tf_model.h5, model.ckpt.index or "
        "flax_model.msgpack found in directory ./out/checkpoint-500.\n",
        # huggingface_hub taking a missing local path for a repo id (utils/_validators.py)
        "huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or "
        "'namespace/repo_name': '/models/llama-7b/'. Use `repo_type` argument if needed.\n",
        # Java NIO (its message is only the path), Windows' ENOENT wording
        'Exception in thread "main" java.nio.file.NoSuchFileException: /data/input/part-0000.parquet\n',
        "OSError: [WinError 3] The system cannot find the path specified: 'D:\\\\data\\\\train'\n",
        # OpenCV: imread of a missing path returns an empty image, the next call asserts (imgproc color.cpp)
        "cv2.error: OpenCV(4.5.5) /io/opencv/modules/imgproc/src/color.cpp:182: error: (-215:Assertion failed) "
        "!_src.empty() in function 'cvtColor'\n",
        "RuntimeError: Could not open file /data/shards/train-0003.tar\n",
    ],
)
def test_paths_that_opened_nothing_in_other_runtimes_words(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path"), log


def test_a_shared_library_that_cannot_be_opened_is_not_a_path_to_fix() -> None:
    log = "OSError: libcudnn.so.8: cannot open shared object file: No such file or directory\n"
    assert diagnose_log_text(log).label == "missing_dependency"
    log = "RuntimeError: Failed to open file libnvinfer.so.8: shared object not found\n"
    assert diagnose_log_text(log).label != "file_not_found"


@pytest.mark.parametrize(
    "log",
    [
        # CPython's os.fspath on a path argument that was never set
        "TypeError: expected str, bytes or os.PathLike object, not NoneType\n",
        # libsndfile (soundfile) opening an audio path that is not there
        "soundfile.LibsndfileError: Error opening 'data/wavs/LJ001-0001.wav': System error.\n",
    ],
)
def test_a_path_never_set_or_an_audio_file_that_is_not_there(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path"), log


_CV = 'Traceback (most recent call last):\n  File "demo.py", line 12, in <module>\n    im = cv2.{}(im)\ncv2.error: OpenCV(4.8.0) '


@pytest.mark.parametrize(
    ("call", "check"),
    [
        # OpenCV's CV_Assert on an empty input Mat (what cv2.imread returns for a path that is not there), in whichever
        # function got it first: imgproc/src/color.cpp, imgproc/src/resize.cpp, imgcodecs, highgui
        ("cvtColor", "/io/opencv/modules/imgproc/src/color.cpp:182: error: (-215:Assertion failed) !_src.empty()"),
        ("resize", "/io/opencv/modules/imgproc/src/resize.cpp:4062: error: (-215:Assertion failed) !ssize.empty()"),
        ("imwrite", "/io/opencv/modules/imgcodecs/src/loadsave.cpp:801: error: (-215:Assertion failed) !_img.empty()"),
        (
            "imshow",
            "/io/opencv/modules/highgui/src/window.cpp:1272: error: (-215:Assertion failed) size.width>0 && "
            "size.height>0",
        ),
    ],
)
def test_an_opencv_call_given_the_empty_image_a_missing_path_reads_as(call: str, check: str) -> None:
    d = diagnose_log_text(_CV.format(call) + check + f" in function '{call}'\n")
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path") and d.evidence[0].startswith("cv2.error")
    # cv2.error is a class named in lower case: another OpenCV check is still read as the program's exception
    other = diagnose_log_text(_CV.format(call) + "error: (-5:Bad argument) in function 'cvtColor'\n")
    assert other.label == "user_code_error" and "cv2.error" in other.evidence[0]


def test_a_missing_helper_program_the_run_falls_back_from_is_not_a_failure() -> None:
    # torchtitan's device probe warns and carries on without lspci (i-0007, a healthy run)
    d, _, record = diagnose_dev("i-0007")
    assert record["label"] == "healthy"
    assert d.label == "healthy"


@pytest.mark.parametrize("case_id", ["h-0056", "j-0065", "m-0034", "j-0014"])
def test_a_missing_file_seen_through_the_error_it_causes(case_id: str) -> None:
    """An assertion that the path exists (``assert Path(working_dir).exists()``), an image reader that returned None
    inside a Dataset's ``__getitem__``, a data loader that found nothing under its directory."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "file_not_found" and d.fix.kind == "fix_path"


@pytest.mark.parametrize(
    "log",
    [
        # torchvision/datasets: folder.py (ImageFolder) and the built-in datasets' check
        "FileNotFoundError: Found no valid file for the classes .ipynb_checkpoints. Supported extensions are: .jpg\n",
        "RuntimeError: Dataset not found or corrupted. You can use download=True to download it\n",
        "AssertionError: ./data/coco/annotations/instances_train2017.json not found\n",
        "ValueError: Checkpoint file models/best.pth does not exist\n",
    ],
)
def test_paths_named_as_missing_in_other_words(log: str) -> None:
    assert diagnose_log_text(log).label == "file_not_found"


def test_a_none_used_as_an_array_with_no_reader_in_sight_stays_a_code_error() -> None:
    assert diagnose_log_text("TypeError: 'NoneType' object is not subscriptable\n").label == "user_code_error"


def test_a_windows_path_with_bad_syntax_is_a_path_to_fix() -> None:
    log = "OSError: [WinError 123] The filename, directory name, or volume label syntax is incorrect: 'C:\\\\d\\\\D:\\\\x'\n"
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path")


@pytest.mark.parametrize(
    "log",
    [
        "ValueError: Couldn't find any data file at /content/data/train.\n",
        # Windows words its messages in the system's language: the error code decides
        "FileNotFoundError: [WinError 3] 系统找不到指定的路径。: 'D:\\\\data\\\\train'\n",
    ],
)
def test_a_path_not_found_in_other_words_and_languages(log: str) -> None:
    assert diagnose_log_text(log).label == "file_not_found"


@pytest.mark.parametrize("case_id", ["p-0001", "p-0012", "s-0007"])
def test_an_exception_whose_message_names_a_missing_file_or_dataset(case_id: str) -> None:
    """TensorFlow's "<path>;" NotFoundError, "No file with name: x found in <dir>", a dataset its list does not
    define: the stopping exception says what is not there, so it is a path to fix, not a bug in the code."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "file_not_found" and d.fix.kind == "fix_path"


TRACEBACK = 'Traceback (most recent call last):\n  File "train.py", line 12, in <module>\n    main()\n'


@pytest.mark.parametrize(
    "last",
    [
        # TensorFlow's file systems: "<path>; <strerror>" (tsl/platform/errors.h, IOError)
        "tensorflow.python.framework.errors_impl.NotFoundError: ckpt/model-100.index; No such file or directory",
        # huggingface_hub: an id the Hub has no repository or revision for (utils/_http.py hf_raise_for_status)
        "huggingface_hub.errors.RepositoryNotFoundError: 404 Client Error. (Request ID: Root=1-65)",
        "huggingface_hub.errors.RevisionNotFoundError: 404 Client Error. (Request ID: Root=1-66)",
        # datasets: data files that are not there (datasets/data_files.py)
        "datasets.exceptions.DataFilesNotFoundError: Unable to find '/home/u/data/train-*.jsonl'",
        "ValueError: No checkpoint files found in directory /runs/exp3/ckpts",
    ],
)
def test_missing_files_named_by_library_exceptions(last: str) -> None:
    d = diagnose_log_text(TRACEBACK + last + "\n")
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path"), last
    # a verdict read from where the traceback ends still explains the family, never a stand-in exit code
    assert "does not exist" in d.explanation and "exit code" not in d.explanation


@pytest.mark.parametrize(
    "last",
    [
        # transformers: a revision the Hub does not have (utils/hub.py)
        "OSError: v2.0 is not a valid git identifier (branch name, tag name or commit id) that exists for this model "
        "name. Check the model page at 'https://huggingface.co/gpt2' for available revisions.",
        "AssertionError: /data/coco/train2017 is not a directory",
    ],
)
def test_a_revision_or_a_directory_that_is_not_there(last: str) -> None:
    d = diagnose_log_text(TRACEBACK + last + "\n")
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path"), last


def test_an_exception_that_could_not_find_something_and_asks_to_check_where_the_data_is() -> None:
    """nnU-Net: "Could not find a task with the ID 101. Make sure … nnU-Net knows where raw and preprocessed data are
    located": its data folders are not where it looks."""
    d, _, record = diagnose_dev("s-0002")
    assert d.label == record["label"] == "file_not_found" and d.fix.kind == "fix_path"


def test_a_message_that_says_not_there_first_and_names_the_path_after() -> None:
    d = diagnose_log_text(TRACEBACK + "RuntimeError: pretrained weights do not exist at /models/vit_b.pth\n")
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path") and "/models/vit_b.pth" in d.explanation


@pytest.mark.parametrize(
    "log",
    [
        "bash: ./train.sh: 没有那个文件或目录\n",  # glibc zh_CN strerror(ENOENT)
        "cp: 'ckpt/last.pt' を stat できません: そのようなファイルやディレクトリはありません\n",  # ja
        "python: can't open file '/home/u/train.py': [Errno 2] Datei oder Verzeichnis nicht gefunden\n",  # de
    ],
)
def test_enoent_in_the_systems_language(log: str) -> None:
    assert diagnose_log_text(log).label == "file_not_found", log


@pytest.mark.parametrize(
    "line",
    [
        "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: https://example.org/data/train.tar",
        "httpx.HTTPStatusError: Client error '404 Not Found' for url 'https://example.org/weights.bin'",
        # S3 error codes (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html) as botocore quotes them
        "botocore.exceptions.ClientError: An error occurred (NoSuchBucket) when calling the ListObjectsV2 operation: The specified bucket does not exist",
        # google/api_core/exceptions.py NotFound (a 404)
        "google.api_core.exceptions.NotFound: 404 GET https://storage.googleapis.com/storage/v1/b/runs/o/ckpt: No such object: runs/ckpt",
    ],
)
def test_a_fetch_answered_not_found(line: str) -> None:
    d = diagnose_log_text(TB + line + "\n")
    assert d.label == "file_not_found", d.explanation


def test_gone_is_not_found_and_unauthorized_is_not() -> None:
    # 410 Gone (RFC 9110 §15.5.11) is a missing URL for good; 401 stays a credential
    gone = TB + "requests.exceptions.HTTPError: 410 Client Error: Gone for url: https://example.org/v1/weights.bin\n"
    assert diagnose_log_text(gone).label == "file_not_found"
    unauthorized = TB + "requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://example.org/x\n"
    assert diagnose_log_text(unauthorized).label == "permission_or_auth"


def test_exception_class_named_for_a_missing_object_but_not_the_hubs_local_cache() -> None:
    # datasets.exceptions.DatasetNotFoundError (datasets/exceptions.py); huggingface_hub's LocalEntryNotFoundError is
    # the Hub unreachable with nothing cached (huggingface_hub/errors.py), a network failure
    missing = TB + "datasets.exceptions.DatasetNotFoundError: Dataset 'acme/reviews-v2' is gated or private.\n"
    assert diagnose_log_text(missing).label == "file_not_found"
    offline = (
        TB
        + "huggingface_hub.errors.LocalEntryNotFoundError: Connection error, and we cannot find the requested files.\n"
    )
    assert diagnose_log_text(offline).label == "network_download"


@root_line_cases(
    ("b-0006", "FileNotFoundError: [Errno 2] No such file or directory"), ("h-0003", "MissingInputException in line 42")
)
def test_root_line_vocabulary_reads_file_not_found(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "file_not_found", quoted)


def test_http_404_by_number_or_reason_phrase() -> None:
    assert diagnose_log_text("Error: failed to fetch https://example.org/ckpt/last.pt: 404 Not Found\n").label == (
        "file_not_found"
    )
    assert diagnose_log_text("ValueError: download failed with status code 404\n").label == "file_not_found"


def test_kubernetes_objects_a_pod_needs_that_are_not_there() -> None:
    # the kubelet's FailedMount and CreateContainerConfigError events for a missing volume claim, secret or configmap
    pvc = '  Warning  FailedMount  12s  kubelet  MountVolume.SetUp failed for volume "data" : persistentvolumeclaim "train-data" not found\n'
    assert diagnose_log_text(pvc).label == "file_not_found"
    cfg = '  Warning  Failed  8s  kubelet  Error: CreateContainerConfigError: secret "hf-token" not found\n'
    assert diagnose_log_text(cfg).label == "file_not_found"


@pytest.mark.parametrize(
    "exc",
    ["ValueError: The directory /data/train does not contain any images", "RuntimeError: checkpoint path /x is empty"],
)
def test_a_folder_that_holds_nothing_is_a_path_to_fix(exc: str) -> None:
    log = f'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n    main()\n{exc}\n'
    assert diagnose_log_text(log).label == "file_not_found"


def test_a_name_not_found_in_the_model_is_the_programs_own_lookup_not_a_file() -> None:
    # PEFT's "ValueError: Target modules [] not found in the base model" (an empty list the script built)
    d, _, record = diagnose_dev("ze-0006")
    assert d.label == record["label"] == "user_code_error"
    d = diagnose_log_text("ValueError: Checkpoint 'base-7b' not found, check the name\n")
    assert d.label == "file_not_found"


def test_a_store_without_the_named_artifact_is_an_input_that_is_not_there() -> None:
    # W&B: "ValueError: Project adsmaniotto/exercise_14 does not contain artifact: "preprocessed_data.csv:latest""
    d, _, record = diagnose_dev("zg-0015")
    assert d.label == record["label"] == "file_not_found"
    assert d.confidence < 0.8  # one line's reading


@pytest.mark.parametrize(
    "line",
    [
        "OSError: Cannot save file into a non-existent directory: 'results/run-7'",
        "RuntimeError: refusing to read from nonexistent folder reports",
    ],
)
def test_a_path_called_non_existent_is_a_path_to_fix(line: str) -> None:
    # the adjective says what "does not exist" says; the exception is otherwise a bare one, read as a code error
    d = diagnose_log_text(
        f'Traceback (most recent call last):\n  File "main.py", line 4, in <module>\n    go()\n{line}\n'
    )
    assert d.label == "file_not_found" and d.confidence < 0.8


def test_slurmstepds_epilog_chdir_notice_after_the_jobs_own_failure_is_not_a_missing_path() -> None:
    """slurmstepd runs a task epilog after the job's processes exit; a working directory it cannot enter is logged
    and the script runs anyway (mgr.c _run_script_as_user): the traceback above it is the job's failure."""
    log = (
        "Traceback (most recent call last):\n"
        '  File "/src/agent/ppo.py", line 210, in <module>\n'
        "    x = self.conv(obs)\n"
        "RuntimeError: Given groups=1, weight of size [16, 84, 3, 3], expected input[64, 4, 84, 84] to have 84 "
        "channels, but got 4 channels instead\n"
        "slurmstepd: error: run_script_as_user: couldn't change working dir to /home/u/'/scratch/u/run': No such file "
        "or directory\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "user_code_error", d.evidence


def test_a_tool_that_cannot_locate_the_index_it_was_given_by_base_name() -> None:
    """An aligner's genome index is a set of files named by a base name: "Could not locate a Bowtie index
    corresponding to basename …" is a path that opened nothing (zzze-0003, read healthy 0.5 as routine notices)."""
    log = (
        "INFO: Command: /opt/envs/bowtie/bin/bowtie-align-l --wrapper basic-0 -a -v 2 hg38_index --suppress 1,5 reads.fq\n"
        'Could not locate a Bowtie index corresponding to basename "hg38_index"\n'
        "Command: bowtie-align --wrapper basic-0 -a -v 2 --suppress 1,5 hg38_index reads.fq\n"
    )
    d = diagnose_log_text(log, "bowtie.log")
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path"), (d.label, d.explanation)


def test_an_index_out_of_range_is_not_a_missing_index_file() -> None:
    log = "epoch 1 step 10\nIndexError: list index out of range\n"
    assert diagnose_log_text(log, "ix.log").label != "file_not_found"


def test_a_file_pattern_or_storage_prefix_that_matched_nothing_is_a_path_to_fix() -> None:
    for log, path in (
        (
            "tensorflow.python.framework.errors_impl.InvalidArgumentError: Expected 'tf.Tensor(False, shape=(),"
            " dtype=bool)' to be true. Summarized data: b'No files matched pattern: gs://bkt/train-*.tfrecord'\n",
            "gs://bkt/train-*.tfrecord",
        ),
        (
            "ClientError: An error occurred (ValidationException) when calling the CreateProcessingJob operation: No S3"
            ' objects found under S3 URL "s3://my-bucket/data/vocab.txt" given in input data source. Please ensure'
            " that the bucket exists in the selected region (us-east-1).\n",
            "s3://my-bucket/data/vocab.txt",
        ),
    ):
        d = diagnose_log_text(log)
        assert (d.label, d.fix.kind) == ("file_not_found", "fix_path"), log
        assert path in d.explanation


def test_a_local_variable_never_set_is_not_a_missing_path() -> None:
    # Python 3.11's UnboundLocalError wording, logged by the program after a caught failure (zzzl-0017)
    log = (
        "2024-09-07 01:26:32,263 - ERROR - Error with MLP Neural Network: cannot access local variable 'X_train' "
        "where it is not associated with a value\n"
    )
    assert diagnose_log_text(log).label != "file_not_found"


def test_a_configured_path_that_is_not_a_file_explains_a_later_vague_error() -> None:
    # PaddleDetection checks the annotation path, then raises "is not valid for reason above" (zzzt-0114)
    log = (
        "Config annotation dataset/aic_coco_train_cocoformat.json is not a file, dataset config is not valid\n"
        "Traceback (most recent call last):\n"
        '  File "tools/train.py", line 142, in run\n'
        "    raise ValueError(\n"
        "ValueError: Dataset /works/det/dataset is not valid for reason above, please check again.\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path")


@pytest.mark.parametrize("case_id", ["zzv-0023"])
def test_torch_load_of_a_file_that_is_not_the_checkpoint(case_id: str) -> None:
    # another format's weights ('\\x00'); a Git LFS pointer ('v' of "version https://git-lfs…") is missing_dependency's
    # since stop 57 (two of the three dev cases so labelled: git-lfs was not installed; zzzw-0122 says file_not_found)
    d, _, _ = diagnose_dev(case_id)
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path")


def test_a_loader_that_found_no_images_where_the_config_points() -> None:
    d, _, _ = diagnose_dev("zzzx-0020")  # PaddleOCR at start-up (retired blind v22)
    assert d.label == "file_not_found"


def test_a_tokenizer_built_from_a_directory_without_its_vocabulary_file() -> None:
    d, _, _ = diagnose_dev("zzzx-0023")  # PaddleNLP's from_pretrained on a local directory (retired blind v22)
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path")


def test_kaldi_entries_whose_files_cannot_be_opened() -> None:
    """zzzzb-0211: wav.scp points into another user's home; every entry fails to open and the job ends code 1."""
    warn = (
        "WARNING (compute-mfcc-feats[5.5.971~1-07043]:EnsureObjectLoaded():util/kaldi-table-inl.h:310) Failed to open "
        "file /home/<redacted>/kaldi/egs/digits_audio/test/jackson_4/{}.wav\n"
    )
    log = "".join(warn.format(i) for i in range(3)) + "# Ended (code 1) at Wed Sep 22 14:39:34 IST 2021\n"
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path")


@pytest.mark.parametrize("case_id", ["zzzzt-0202", "zzzzq-0206", "zzzzp-0123"])
def test_a_snapshot_folder_an_image_or_a_path_that_is_not_there_in_other_words(case_id: str) -> None:
    """Caffe's "Check failed: proto.SerializeToOstream(&output)" (the snapshot folder does not exist), "assert img is
    not None" after an image read, pandas' "Invalid file path or buffer object type: <class 'NoneType'>" (retired
    blind v26's misses)."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "file_not_found"
    assert d.fix.kind == "fix_path"


def test_a_run_saying_it_found_no_checkpoint_to_resume_is_not_a_missing_file() -> None:
    """zzzzt-0103: "SSD.trainer INFO: No checkpoint found." is where a fresh run starts, not its failure."""
    d, _, _ = diagnose_dev("zzzzt-0103")
    assert d.label != "file_not_found"
    log = "2025-04-05 12:43:31,609 trainer INFO: No checkpoint found.\nepoch 1 loss 0.5\nepoch 2 loss 0.4\n"
    assert diagnose_log_text(log).label != "file_not_found"
    log = "Traceback (most recent call last):\nValueError: No valid checkpoint found in output directory (out)\n"
    assert diagnose_log_text(log).label == "file_not_found"


@pytest.mark.parametrize("case_id", ["zzzzv-0202", "zzzzw-0111"])
def test_a_scene_or_environment_folder_that_does_not_hold_what_the_loader_needs(case_id: str) -> None:
    """Gaussian Splatting's "Could not recognize scene type!" (no COLMAP sparse/ or transforms_train.json under the
    source path) and ML-Agents' "Provided filename does not match any environments" are paths that do not hold the
    data, fixed by the path (retired blind v27's misses)."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "file_not_found"
    assert d.fix.kind == "fix_path"


def test_torch7s_diskfile_that_cannot_open_its_file_after_training_is_a_path() -> None:
    """Retired v29 zzzzzf-0231 and dev zzzzt-0210 (both read healthy after the training progress above them): LuaJIT
    reports an error nothing caught as "<interpreter>: <message>" and a stack traceback, then exits; Torch7's
    DiskFile says "cannot open <path> in mode r" (a file to read that is not there) or "mode w" (a folder to write
    into that does not exist)."""
    log = (
        "Epoch: 2 Lowerbound: 122.62024767955 time: 73.759642124176\n"
        "/home/u/torch/install/bin/luajit: cannot open <save/parameters.t7> in mode  w at "
        "/tmp/luarocks_torch-scm-1-8096/torch7/lib/TH/THDiskFile.c:640\n"
        "stack traceback:\n"
        "\t[C]: at 0x7f8dd1a6d7d0\n"
        "\t[C]: in function 'DiskFile'\n"
        "\t/home/u/torch/install/share/lua/5.1/torch/File.lua:385: in function 'save'\n"
        "\tmain.lua:150: in main chunk\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path")
    assert "save/parameters.t7" in d.evidence[0]
    for case_id in ("zzzzzf-0231", "zzzzt-0210"):
        assert diagnose_dev(case_id)[0].label == "file_not_found", case_id


def test_a_lua_error_nothing_caught_is_an_error_line_whatever_its_words() -> None:
    """After progress lines, the interpreter's own report of an uncaught error is never a healthy run: a message no
    family knows is read as unknown, quoting it."""
    log = (
        "Iteration 1651 / 2000\n"
        "  Total loss: 1443577.504616\n"
        "/root/torch/install/bin/luajit: ./misc/loader.lua:88: bad argument #1 to 'narrow' (out of range)\n"
        "stack traceback:\n"
        "\t[C]: in function 'narrow'\n"
        "\ttrain.lua:120: in main chunk\n"
    )
    d = diagnose_log_text(log)
    assert d.label != "healthy"
    assert "bad argument #1 to 'narrow'" in " ".join(d.evidence)


def test_a_scripts_own_no_such_file_and_tensorflows_invalid_checkpoint_are_paths() -> None:
    """Retired v30 zzzzzm-0009 (healthy 0.9: Kaldi's "steps/make_mfcc.sh: no such file conf/mfcc.conf" after
    "Succeeded in formatting data") and zzzzzm-0004 (healthy 0.6: TensorFlow's "The passed save_path is not a valid
    checkpoint")."""
    kaldi = (
        "*** Succeeded in formatting data.\n"
        "steps/make_mfcc.sh --cmd run.pl --mem 2G --nj 2 data/train exp/make_mfcc/train mfcc\n"
        "steps/make_mfcc.sh: no such file conf/mfcc.conf\n"
    )
    d = diagnose_log_text(kaldi)
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path") and "conf/mfcc.conf" in d.explanation
    tf = (
        "[2020-05-19 15:01:05.767]    linear out:              1025\n"
        "[2020-05-19 15:01:19.503]  Exiting due to exception: The passed save_path is not a valid checkpoint: "
        "logs-tacotron/model.ckpt-254924\n"
    )
    assert diagnose_log_text(tf).label == "file_not_found"


@pytest.mark.parametrize("case_id", ["zzzzzv-0106", "zzzzzv-0107", "zzzzzv-0115"])
def test_a_config_path_setting_left_unset_is_a_path_to_fix(case_id: str) -> None:
    d, record = rules_dev(case_id)
    assert (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("file_not_found", "fix_path")


def test_an_unset_config_value_that_is_not_a_path_stays_a_config_error() -> None:
    path = "omegaconf.errors.MissingMandatoryValue: Missing mandatory value: data_dir\n"
    assert diagnose_log_text(path).label == "file_not_found"
    other = "omegaconf.errors.MissingMandatoryValue: Missing mandatory value: model.num_classes\n"
    assert diagnose_log_text(other).label == "validation_error"
    d, record = rules_dev("zzzzzv-0116")  # an interpolation of a seed nobody defined
    assert d.label == record["label"] == "validation_error"


@pytest.mark.parametrize("case_id", ["zzzzzu-0201", "zzzzzx-0104", "zzzm-0124"])
def test_an_exception_whose_message_is_a_missing_path_is_that_path(case_id: str) -> None:
    d, record = rules_dev(case_id)
    assert d.label == record["label"] == "file_not_found"
    assert "does not exist!" in d.evidence[0]


def test_a_ca_bundle_path_that_is_not_there_is_a_missing_file_not_the_network() -> None:
    # requests told to verify TLS with a CA bundle file (REQUESTS_CA_BUNDLE) that does not exist: no connection was made
    d, record = rules_dev("zzzzzy-0010")
    assert (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("file_not_found", "fix_path")


def test_yolos_release_lookup_for_a_weights_path_that_is_not_local_is_the_path() -> None:
    d, record = rules_dev("zzzzzzb-0004")
    assert (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("file_not_found", "fix_path")


@pytest.mark.parametrize("case_id", ["zzc-0017", "zzzzzzp-0202", "zzzzzzk-0405", "zzzzzt-0113", "zzzzzzm-0219"])
def test_an_empty_file_listing_seen_through_the_error_it_causes(case_id: str) -> None:
    """A glob's first match indexed, or a division by the number of items loaded, failing: the data path held
    nothing. The reading is unsure (the same errors are code faults too), and says which statement showed it."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "file_not_found" and d.fix.kind == "fix_path"
    assert d.confidence < 0.8


def _raised_at(code: str, last: str) -> Diagnosis:
    """The verdict on a traceback whose deepest frame quotes ``code`` and ends in the exception line ``last``."""
    return diagnose_log_text(f'{TB}  File "data.py", line 7, in load\n    {code}\n{last}\n')


@pytest.mark.parametrize(
    ("code", "last"),
    [
        ("ckpt = sorted(glob.glob(os.path.join(d, '*.pth')))[-1]", "IndexError: list index out of range"),
        ("names = list(os.walk(root))[0][2]", "IndexError: list index out of range"),
        ("mean = total / len(dataset)", "ZeroDivisionError: division by zero"),
        ("i = index % len(self.image_paths)", "ZeroDivisionError: integer division or modulo by zero"),
    ],
)
def test_an_empty_listing_in_the_statement_that_raised(code: str, last: str) -> None:
    d = _raised_at(code, last)
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path"), code
    assert code in d.evidence[0]


@pytest.mark.parametrize(
    ("code", "last"),
    [
        ("x = scores[0]", "IndexError: list index out of range"),
        ("lr = base_lr * step / warmup", "ZeroDivisionError: division by zero"),
        ("ratio = hits / (total - misses)", "ZeroDivisionError: division by zero"),
    ],
)
def test_an_index_or_a_division_unrelated_to_a_listing_stays_a_code_error(code: str, last: str) -> None:
    d = _raised_at(code, last)
    assert d.label == "user_code_error", code


def test_opencvs_model_importer_that_cannot_open_its_file_is_a_path_not_a_crash() -> None:
    """OpenCV's dnn importer throws a cv::Exception naming the file it could not open; uncaught, the process aborts
    ("terminate called …", "Aborted (core dumped)"), which is no segfault to report but a model path to fix."""
    log = (
        'OpenCV Error: Unspecified error (FAILED: fs.is_open(). Can\'t open "model/net.prototxt") in '
        "ReadProtoFromTextFile, file /opt/opencv/modules/dnn/src/caffe/caffe_io.cpp, line 1113\n"
        "terminate called after throwing an instance of 'cv::Exception'\n"
        "  what():  /opt/opencv/modules/dnn/src/caffe/caffe_io.cpp:1113: error: (-2) FAILED: fs.is_open(). "
        'Can\'t open "model/net.prototxt" in function ReadProtoFromTextFile\n\nAborted (core dumped)\n'
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path") and d.confidence >= 0.8
    d, _, record = diagnose_dev("zzzzzzzh-0115")  # szad670401/HyperLPR#47: the model files were still zipped
    assert d.label == record["label"] == "file_not_found"


def test_a_sampler_that_found_no_files_under_its_folder_is_a_path() -> None:
    log = (
        'Traceback (most recent call last):\n  File "train.py", line 80, in <module>\n    x = sample(folder, 1500)\n'
        "AssertionError: Cannot sample 1500 from 0 files found in data/ir_train/1\n"
    )
    assert diagnose_log_text(log).label == "file_not_found"


def test_a_loader_that_found_no_file_of_its_kind_in_the_given_directory_is_a_path_problem() -> None:
    """Dev zzzzzzzs-0903 (blind v42) and zzzzb-0009: "No .nii.gz files found in …", "No video found in …" were read as
    code errors. A loader's own message that the directory holds none of what it reads is the path it was given."""
    for message in (
        "ValueError: No .nii.gz files found in /data/PVWMI/T1w/trainA",
        "Exception: No video found in data/kinetics100/train_video",
        "FileNotFoundError: No *_model.pkl files were found in outputs/model_output.",
        "Exception: No synthesizer models found in synthesizer/saved_models",
    ):
        tb = (
            'Traceback (most recent call last):\n  File "train.py", line 12, in <module>\n    main()\n' + message + "\n"
        )
        assert diagnose_log_text(tb).label == "file_not_found", message
    assert diagnose_dev("zzzzzzzs-0903")[0].label == "file_not_found"


def test_an_image_that_came_back_as_none_is_a_path_the_reader_could_not_open() -> None:
    """Dev zzzzzzzt-0312 (blind v42) and zzzzn-0223: OpenCV's imread returns None for a path it cannot read, and the
    first use fails with "'NoneType' object has no attribute 'shape'"; both were read as code errors."""
    tb = (
        "Traceback (most recent call last):\n"
        '  File "tools/test_shadownet.py", line 60, in recognize\n'
        "    image = cv2.resize(image, (100, 32))\n"
        '  File "tools/test_shadownet.py", line 58, in recognize\n'
        "    h, w = image.shape[:2]\n"
        "AttributeError: 'NoneType' object has no attribute 'shape'\n"
    )
    assert diagnose_log_text(tb).label == "file_not_found"
    # another attribute of None is the code's own
    assert diagnose_log_text(tb.replace("'shape'", "'group'")).label == "user_code_error"
    assert diagnose_dev("zzzzzzzt-0312")[0].label == "file_not_found"
