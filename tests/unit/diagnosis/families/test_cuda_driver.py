"""The cuda_driver family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import assert_read_as, diagnose_dev, root_line_cases, rules_dev

TB = 'Traceback (most recent call last):\n  File "train.py", line 10, in <module>\n    main()\n'


@pytest.mark.parametrize("case_id", ["a-0137", "a-0135", "a-0136"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "cuda_driver"


def test_a_gpu_newer_than_the_build_is_a_driver_or_image_problem() -> None:
    log = "NVIDIA RTX A6000 with CUDA capability sm_86 is not compatible with the current PyTorch installation.\n"
    d = diagnose_log_text(log)
    assert (d.label, d.origin, d.fix.kind) == ("cuda_driver", "infra", "fix_driver_or_image")


def test_the_cuda_runtime_of_a_wheel_is_a_dependency_not_the_driver() -> None:
    log = "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory\n"
    assert diagnose_log_text(log).label == "missing_dependency"
    assert diagnose_log_text("OSError: libcuda.so.1: cannot open shared object file\n").label == "cuda_driver"


def test_no_gpu_at_all_and_a_gpu_that_faulted_are_not_image_fixes() -> None:
    none = diagnose_log_text("RuntimeError: Found no NVIDIA driver on your system. Please check that you\n")
    assert (none.label, none.fix.kind) == ("cuda_driver", "change_resources_or_wait")
    bus = diagnose_log_text("[ 1843.4] NVRM: GPU at PCI:0000:3b:00: GPU has fallen off the bus.\n")
    assert (bus.label, bus.fix.kind) == ("cuda_driver", "resubmit")
    old = diagnose_log_text("RuntimeError: The NVIDIA driver on your system is too old (found version 9000).\n")
    assert old.fix.kind == "fix_driver_or_image"


def test_nvidia_smi_that_cannot_reach_the_driver() -> None:
    log = "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n"
    assert diagnose_log_text(log).label == "cuda_driver"


def test_container_runtimes_that_cannot_hand_the_gpu_over() -> None:
    # docker without the NVIDIA container toolkit; the toolkit refusing an image whose CUDA the driver is too old for
    for log in (
        'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].\n',
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.2, please update your driver to a "
        "newer version, or use an earlier cuda container: unknown.\n",
    ):
        d = diagnose_log_text(log)
        assert (d.label, d.fix.kind) == ("cuda_driver", "fix_driver_or_image"), log


def test_cuda_that_could_not_initialise() -> None:
    for log in (
        "RuntimeError: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env "
        "variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero.\n",
        "RuntimeError: CUDA error: system not yet initialized\n",  # cudaErrorSystemNotReady (fabric manager)
    ):
        assert diagnose_log_text(log).label == "cuda_driver", log


def test_tensorflows_cuinit_warning_on_a_cpu_run_is_not_a_driver_failure() -> None:
    log = (
        "2024-01-01 10:00:00.000000: W external/local_xla/xla/stream_executor/cuda/cuda_driver.cc:282] failed call "
        "to cuInit: UNKNOWN ERROR (303)\n"
        "Epoch 1/10\n"
        "100/100 [==============================] - 2s 10ms/step - loss: 0.5\n"
    )
    assert diagnose_log_text(log).label != "cuda_driver"


@pytest.mark.parametrize(
    "log",
    [
        # ROCm/HIP (hipErrorNoDevice, hipErrorNoBinaryForGpu): no AMD GPU, or no code object for this gfx target
        "RuntimeError: HIP error: no ROCm-capable device is detected\n",
        '"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"\n',
    ],
)
def test_rocm_counterparts_of_the_cuda_driver_failures(log: str) -> None:
    assert diagnose_log_text(log).label == "cuda_driver", log


def test_legacy_thc_cuda_runtime_error_code() -> None:
    """PyTorch's THC wording "cuda runtime error (%d) : %s": 999 is cudaErrorUnknown (a driver in a bad state)."""
    d, _, record = diagnose_dev("i-0015")
    assert (d.label, d.fix.kind) == ("cuda_driver", "fix_driver_or_image") == (record["label"], record["fix_kind"])
    assert diagnose_log_text("RuntimeError: cuda runtime error (2) : out of memory at x.cu:1\n").label != "cuda_driver"


@pytest.mark.parametrize("case_id", ["zzzzj-0003", "zzzzj-0004"])
def test_cudas_unknown_error_under_its_code_before_cuda_10_1(case_id: str) -> None:
    """cudaErrorUnknown was 30 before CUDA 10.1 renumbered it 999: THC's "cuda runtime error (30)" and Caffe's glog
    check "(30 vs. 0) unknown error" (v24's two threads: a GPU unusable after a suspend or a kernel update, fixed by
    a reboot) are the driver, not the code."""
    d, _, record = diagnose_dev(case_id)
    assert (d.label, d.fix.kind) == ("cuda_driver", "fix_driver_or_image") == (record["label"], record["fix_kind"])
    caffe = "F0101 00:00:00.0 1 common.cpp:152] Check failed: error == cudaSuccess (2 vs. 0)  out of memory\n"
    assert diagnose_log_text(caffe).label != "cuda_driver"  # 2 is cudaErrorMemoryAllocation


def test_a_gpu_busy_elsewhere_and_an_unknown_initialisation_error_reported_as_a_warning() -> None:
    busy = "RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable\n"
    warned = (
        "/usr/lib/python3/dist-packages/torch/cuda/__init__.py:88: UserWarning: CUDA initialization: CUDA unknown "
        "error - this may be due to an incorrectly set up environment, e.g. changing env variable "
        "CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero.\n"
    )
    for log in (busy, warned):
        assert diagnose_log_text(log).label == "cuda_driver", log


def test_a_gpu_the_driver_lost_and_a_kernel_stopped_by_the_display_watchdog() -> None:
    lost = "Unable to determine the device handle for GPU 0000:02:00.0: GPU is lost.  Reboot the system to recover this GPU\n"
    d = diagnose_log_text(lost)
    assert (d.label, d.fix.kind) == ("cuda_driver", "resubmit")
    tdr = "RuntimeError: CUDA error: the launch timed out and was terminated\n"
    assert diagnose_log_text(tdr).label == "cuda_driver"


def test_xlas_wording_of_a_cudnn_handle_that_could_not_be_created() -> None:
    log = (
        "jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed. Look at the "
        "errors above for more details.\n"
    )
    assert diagnose_log_text(log).label == "cuda_driver"


def test_the_capability_warning_alone_is_the_failure() -> None:
    """torch/cuda/__init__.py warns (UserWarning) that the GPU's sm_NN is not in the build, then fails at the first
    kernel; a paste that stops at the warning is that failure, not a healthy run."""
    log = (
        "/usr/local/lib/python3.10/dist-packages/torch/cuda/__init__.py:235: UserWarning: NVIDIA GeForce RTX 5090 "
        "with CUDA capability sm_120 is not compatible with the current PyTorch installation. The current PyTorch "
        "install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.\n  warnings.warn(\n"
    )
    assert diagnose_log_text(log).label == "cuda_driver"


def test_tensorrts_cuda_initialisation_failure() -> None:
    log = (
        "[TRT] CUDA initialization failure with error: 35. Please check your CUDA installation: "
        "http://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html\n"
    )
    assert diagnose_log_text(log).label == "cuda_driver"


# The CUDA error enums by name (cudaError_t, https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html;
# CUresult, https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html) and the runtime's own strings
@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: CUDA error: cudaErrorSystemDriverMismatch",
        "RuntimeError: CUDA error: cudaErrorNoKernelImageForDevice",
        "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
        "RuntimeError: CUDA error: CUDA_ERROR_ECC_UNCORRECTABLE",
        "RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable",
        "RuntimeError: CUDA error: system has unsupported display driver / cuda driver combination",
    ],
)
def test_cuda_error_codes_that_name_the_machine_not_the_code(line: str) -> None:
    d = diagnose_log_text(TB + line + "\n")
    assert d.label == "cuda_driver", d.explanation


def test_cuda_errors_a_kernel_bug_produces_are_not_the_driver() -> None:
    for line in (
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "RuntimeError: CUDA error: cudaErrorIllegalAddress",
    ):
        assert diagnose_log_text(TB + line + "\n").label != "cuda_driver"


@root_line_cases(
    ("a-0037", "no kernel image is available for execution on the device"),
    ("a-0140", "NVRM: The NVIDIA probe routine failed for 1 device(s)."),
    ("x-0050", "is not implemented for CUDA below version 12.3"),
)
def test_root_line_vocabulary_reads_cuda_driver(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "cuda_driver", quoted)


def test_the_runtimes_string_for_an_invalid_kernel_image() -> None:
    """cudaErrorInvalidKernelImage (200) in cudaGetErrorString's words, as Triton re-raises it: the binaries do not
    fit the GPU or driver (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html); not an image
    pull, whatever the word "image" says."""
    log = "RuntimeError: Triton Error [CUDA]: device kernel image is invalid\n"
    assert diagnose_log_text(log).label == "cuda_driver"


def test_xla_seeing_no_gpu_is_read_as_no_usable_gpu() -> None:
    """JAX's CUDA backend with no device it can use raises ``XlaRuntimeError: FAILED_PRECONDITION: No visible GPU
    devices.``: a generic runtime error whose words say no GPU is there."""
    log = "jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: No visible GPU devices.\n"
    assert diagnose_log_text(log).label == "cuda_driver"


def test_a_driver_that_does_not_support_the_cuda_version() -> None:
    log = TB + "RuntimeError: The installed NVIDIA driver does not support CUDA 12.4\n"
    assert diagnose_log_text(log).label == "cuda_driver"


@pytest.mark.parametrize(
    "message",
    [
        # XLA (jaxlib) refusing a feature on an older CUDA (x-0050's wording)
        "jaxlib.xla_extension.XlaRuntimeError: UNIMPLEMENTED: StreamBeginCaptureToGraph is not implemented for CUDA "
        "below version 12.3. Therefore tracing is not supported.",
        "RuntimeError: FlashAttention requires CUDA 11.6 or later. Please upgrade your CUDA toolkit.",
        "ValueError: CUDA 12.1 or higher is required for this kernel",
    ],
)
def test_a_generic_exception_that_says_the_cuda_is_too_old_for_a_feature(message: str) -> None:
    """A generic exception whose message says the CUDA is older than a feature needs is that failure raised through
    Python (stop 25's user_code_error yield, then the root-line reading): weak, below 0.8."""
    log = 'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n    step()\n' + message + "\n"
    d = diagnose_log_text(log)
    assert d.label == "cuda_driver" and d.confidence < 0.8, d


def test_nccls_last_error_naming_a_driver_fault_is_that_fault() -> None:
    # PyTorch appends "\nLast error:\n" + ncclGetLastError() to an NCCL error
    # (torch/csrc/distributed/c10d/NCCLUtils.cpp, getNcclErrorDetailStr)
    d, _, record = diagnose_dev("zj-0021")
    assert (d.label, record["label"]) == ("cuda_driver", "cuda_driver")
    assert any("Driver/library version mismatch" in e for e in d.evidence)


def test_nccls_last_error_naming_a_network_fault_stays_nccl() -> None:
    log = (
        "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error "
        "(run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\n"
        "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n"
        "Last error:\n"
        "socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host\n"
    )
    assert diagnose_log_text(log).label == "nccl_or_distributed"


@pytest.mark.parametrize(
    "log",
    [
        "RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If "
        "you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu').\n",
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: Cannot assign a device for operation "
        "random_normal: Operation was explicitly assigned to /device:GPU:0 but available devices are [ "
        "/job:localhost/replica:0/task:0/device:CPU:0 ]. Make sure the device specification refers to a valid device.\n",
        "InvalidArgumentError: Cannot assign a device for operation MatMul: Could not satisfy explicit device "
        "specification '/device:GPU:0' because no devices matching that specification are registered in this process\n",
        TB + "RuntimeError: Failed to infer device type\n",
        # Lightning's accelerator connector (zzzv-0105, retired blind v22; both wordings)
        "lightning_fabric.utilities.exceptions.MisconfigurationException: No supported gpu backend found!\n",
        "lightning_fabric.utilities.exceptions.MisconfigurationException: `CUDAAccelerator` can not run on your system "
        "since the accelerator is not available. The following accelerator(s) is available and can be passed into "
        "`accelerator` argument of `Trainer`: ['cpu'].\n",
    ],
)
def test_a_gpu_job_on_a_machine_whose_framework_sees_no_gpu(log: str) -> None:
    # torch.load of GPU tensors, TensorFlow's placer, vLLM's device detection: the job needs a GPU node
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("cuda_driver", "change_resources_or_wait")


def test_cudnn_failing_inside_the_library_is_the_gpu_stack_not_the_code() -> None:
    for status in ("CUDNN_STATUS_INTERNAL_ERROR", "CUDNN_STATUS_MAPPING_ERROR", "CUDNN_STATUS_EXECUTION_FAILED"):
        d = diagnose_log_text(TB + f"RuntimeError: cuDNN error: {status}\n")
        assert d.label == "cuda_driver", status
    assert diagnose_log_text(TB + "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM\n").label != "cuda_driver"


def test_a_programs_own_gpu_check_as_its_last_word_is_no_gpu() -> None:
    log = "Rank 0: Creating dataset...\nRank 0: Start training...\nTraining requires CUDA.\n"
    d = diagnose_log_text(log)
    assert d.label == "cuda_driver" and d.label != "healthy"
    # said along the way, with the run going on after it, it is not what stopped the run
    went_on = "FlashAttention requires a GPU\nepoch 1/3 loss 0.9\nepoch 2/3 loss 0.8\nepoch 3/3 loss 0.7\n"
    assert diagnose_log_text(went_on).label != "cuda_driver"


def test_a_kernel_launch_that_failed_on_the_device_is_the_gpu() -> None:
    # cudaErrorLaunchFailure in a Lightning run of stock kernels: the real threads (zzzi-0005, zzn-0022) find the card
    log = (
        "RuntimeError: CUDA error: unspecified launch failure\n"
        "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be "
        "incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n"
    )
    assert diagnose_log_text(log).label == "cuda_driver"


def test_tensorflows_convolution_algorithm_that_cudnn_could_not_initialise() -> None:
    # tf_cnn_benchmarks' coordinator at info level, then the root error (zzzy-0115, retired blind v22)
    log = (
        "I1209 16:36:56.860446 139725186250560 coordinator.py:224] Error reported to Coordinator: <class "
        "'tensorflow.python.framework.errors_impl.UnknownError'>, 2 root error(s) found.\n"
        "  (0) Unknown: Failed to get convolution algorithm. This is probably because cuDNN failed to initialize, so "
        "try looking to see if a warning log message was printed above.\n"
    )
    assert diagnose_log_text(log).label == "cuda_driver"


def test_nvidia_container_cli_failing_in_a_pyxis_container_start() -> None:
    d, _, _ = diagnose_dev("zzzy-0003")  # "nvidia-container-cli: ldcache error" under pyxis (retired blind v22)
    assert d.label == "cuda_driver"


def test_nccl_tests_finding_cuda_unable_to_start() -> None:
    d, _, _ = diagnose_dev("zzzy-0002")  # "Test CUDA failure common.cu:1045 'unknown error'" (retired blind v22)
    assert d.label == "cuda_driver"


def test_cufft_failing_inside_the_library_is_the_cuda_build() -> None:
    """zzzzr-0106: "RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR" from torch.stft on a GPU the wheel's cuFFT does
    not support (retired blind v26's miss)."""
    d, _, record = diagnose_dev("zzzzr-0106")
    assert d.label == record["label"] == "cuda_driver"
    assert d.fix.kind == "fix_driver_or_image"


def test_a_wrong_cufft_call_is_not_the_driver() -> None:
    log = "Traceback (most recent call last):\nRuntimeError: cuFFT error: CUFFT_INVALID_SIZE\n"
    assert diagnose_log_text(log).label != "cuda_driver"


def test_nvml_driver_mismatch_in_nccls_own_warn_lines_outranks_its_generic_error() -> None:
    log = (
        "RuntimeError: NCCL error in: /opt/conda/torch/lib/c10d/ProcessGroupNCCL.cpp:957, unhandled system error, "
        "NCCL version 2.10.3\n"
        "ncclSystemError: System call (socket, malloc, munmap, etc) failed.\n"
        "node1:26647:26676 [6] misc/nvmlwrap.cc:115 NCCL WARN nvmlInit() failed: Driver/library version mismatch\n"
        "node1:26647:26676 [6] NCCL INFO graph/xml.cc:662 -> 2\n"
        "node1:26647:26676 [6] NCCL INFO init.cc:840 -> 2\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "cuda_driver" and d.fix.kind == "fix_driver_or_image"
    # alone, the warning-level line is still the driver failing, not a routine notice
    alone = "node1:26656:26677 [7] misc/nvmlwrap.cc:115 NCCL WARN nvmlInit() failed: Driver/library version mismatch\n"
    assert diagnose_log_text(alone).label == "cuda_driver"


@pytest.mark.parametrize("case_id", ["zzzv-0212", "zzzzn-0236", "zzzzzk-0017", "zzzzzn-0101"])
def test_invalid_device_function_is_a_binary_built_for_another_gpu(case_id: str) -> None:
    """cudaErrorInvalidDeviceFunction: no kernel in the binary for this GPU's architecture (a custom op built with
    another -arch, a Caffe build for other cards). Dev zzzv-0212 and zzzzn-0236 were read as the segfault that
    followed it (0.9), retired v30 zzzzzk-0017 and zzzzzn-0101 as unknown."""
    d, _, record = diagnose_dev(case_id)
    assert (d.label, d.fix.kind) == (record["label"], "fix_driver_or_image") == ("cuda_driver", "fix_driver_or_image")
    crash = "RuntimeError: CUDA error: invalid device function\nSegmentation fault (core dumped)\n"
    assert diagnose_log_text(crash).label == "cuda_driver"


def test_a_training_scripts_own_no_gpu_check_is_no_gpu_visible() -> None:
    d, record = rules_dev("zzzzzu-0115")  # DiT: "AssertionError: Training currently requires at least one GPU."
    assert d.label == record["label"] == "cuda_driver"
    # a setting a CPU run cannot honour is the setting's: accelerate's fp16 on a machine with no GPU
    d, record = rules_dev("zzzzu-0201")
    assert d.label == record["label"] == "validation_error"
    assert diagnose_log_text("ValueError: This script requires a CUDA GPU.\n").label == "cuda_driver"
