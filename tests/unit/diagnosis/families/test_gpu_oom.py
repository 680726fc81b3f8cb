"""The gpu_oom family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import assert_read_as, diagnose_dev, root_line_cases


@pytest.mark.parametrize("case_id", ["a-0005", "a-0081"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "gpu_oom"


def test_driver_api_and_xla_wordings_of_gpu_oom() -> None:
    for line in (
        "RuntimeError: CUDA_ERROR_OUT_OF_MEMORY: out of memory",
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 2.1GiB.",
        "2024-01-01 E external/xla/xla/pjrt/pjrt_stream_executor_client.cc:2716] Resource exhausted: "
        "Failed to allocate request for 1.00GiB (1073741824B) on device ordinal 0",
    ):
        d = diagnose_log_text(line + "\n")
        assert (d.label, d.fix.kind) == ("gpu_oom", "reduce_memory"), line


def test_a_need_beyond_the_whole_device_asks_for_a_bigger_one() -> None:
    tpu = (
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of "
        "memory in memory space hbm. Used 21.90G of 7.48G hbm. Exceeded hbm capacity by 14.42G.\n"
    )
    torch_big = (
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 30.00 GiB (GPU 0; 15.78 GiB total capacity; "
        "2.00 GiB already allocated)\n"
    )
    torch_small = (
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity; "
        "15.50 GiB already allocated)\n"
    )
    assert diagnose_log_text(tpu).fix.kind == "increase_memory"
    assert diagnose_log_text(torch_big).fix.kind == "increase_memory"
    assert diagnose_log_text(torch_small).fix.kind == "reduce_memory"


@pytest.mark.parametrize(
    "log",
    [
        "Exception in main training loop: out of memory to allocate 205520896 bytes (total 16068929536 bytes)\n",
        "F0228 17:38:20.483613  4104 syncedmem.cpp:64] Check failed: error == cudaSuccess (2 vs. 0)  out of memory\n",
    ],
)
def test_cupy_and_caffe_wordings(log: str) -> None:
    assert diagnose_log_text(log).label == "gpu_oom", log


@pytest.mark.parametrize(
    "log",
    [
        "ValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be stored "
        "in KV cache (7344). Try increasing `gpu_memory_utilization` or decreasing `max_model_len`.\n",
        "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`\n",
    ],
)
def test_a_kv_cache_that_does_not_fit_and_a_cublas_handle_that_cannot_be_made(log: str) -> None:
    assert diagnose_log_text(log).label == "gpu_oom", log


@pytest.mark.parametrize(
    "log",
    [
        # PyTorch's other back-ends (c10/mps, c10/xpu allocators) and old PyTorch's THC allocator
        "RuntimeError: MPS backend out of memory (MPS allocated: 18.12 GB, other allocations: 0 bytes, max allowed: "
        "18.13 GB). Tried to allocate 256 bytes on private pool.\n",
        "RuntimeError: cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/THCCachingAllocator.cpp:510\n",
        # ggml's CUDA back-end (llama.cpp) and MXNet's pooled storage manager
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4096.00 MiB on device 0: cudaMalloc failed: out of "
        "memory\n",
        "mxnet.base.MXNetError: [10:00:00] src/storage/./pooled_storage_manager.h:157: cudaMalloc retry failed: out "
        "of memory\n",
        # TensorRT's allocator and ONNX Runtime's arena (onnxruntime/core/framework/bfc_arena.cc)
        "[TRT] [E] 1: [defaultAllocator.cpp::allocate::20] Error Code 1: Cuda Runtime (out of memory)\n",
        "Status Message: bfc_arena.cc:368 void* onnxruntime::BFCArena::AllocateRawInternal(size_t, bool) Failed to "
        "allocate memory for requested buffer of size 123456\n",
        # NCCL's WARN line for an allocation that failed inside a collective
        "node1:123:456 [0] NCCL WARN Cuda failure 'out of memory'\n",
    ],
)
def test_every_runtimes_out_of_memory_on_a_device(log: str) -> None:
    assert diagnose_log_text(log).label == "gpu_oom", log


@pytest.mark.parametrize(
    "log",
    [
        # vllm-project/vllm, v1/core/kv_cache_utils.py: the KV cache for one max-length request does not fit
        "ValueError: To serve at least one request with the models's max seq len (32768), (2.00 GiB KV cache is "
        "needed, which is larger than the available KV cache memory (0.78 GiB). Try increasing "
        "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.\n",
        # vLLM's start-up memory snapshot: another process holds the GPU memory it was told to take
        "ValueError: Free memory on device (3.27/15.98 GiB) on startup is less than desired GPU memory utilization "
        "(0.9, 14.39 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.\n",
        # transformers' quantizer: the model does not fit on the GPU and would spill to CPU/disk
        "ValueError: Some modules are dispatched on the CPU or the disk. Make sure you have enough GPU RAM to fit "
        "the quantized model.\n",
        # accelerate.utils.find_executable_batch_size after halving the batch on every OOM
        "RuntimeError: No executable batch size found, reached zero.\n",
    ],
)
def test_inference_servers_and_loaders_that_say_the_gpu_is_too_small(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("gpu_oom", "reduce_memory"), log


def test_vllm_profiling_that_leaves_no_room_for_the_kv_cache() -> None:
    d, _, record = diagnose_dev("a-0195")  # the log ends before vLLM raises: its profiler's numbers say why
    assert d.label == record["label"] == "gpu_oom"
    assert "KV Cache is -1.05GiB" in d.evidence[0]


def test_an_xla_tpu_memory_space_that_ran_out() -> None:
    # openxla/xla error 1001 (compile-time vmem OOM); hbm is the same message for the device's main memory
    log = (
        "RESOURCE_EXHAUSTED: Ran out of memory in memory space vmem while allocating on stack for "
        "%fusion.18 = bf16[2048,4096]{1,0} custom-call(...)\n"
    )
    assert diagnose_log_text(log).label == "gpu_oom"


def test_a_host_oom_kill_is_not_a_gpu_oom() -> None:
    log = "Out of memory: Killed process 4242 (python) total-vm:81234567kB, anon-rss:61234567kB\n"
    assert diagnose_log_text(log).label != "gpu_oom"


def test_cuda_math_libraries_that_could_not_allocate() -> None:
    for log in ("RuntimeError: cuFFT error: CUFFT_ALLOC_FAILED\n", "CUSOLVER_STATUS_ALLOC_FAILED when calling `x`\n"):
        assert diagnose_log_text(log).label == "gpu_oom", log


def test_vllm_with_no_room_for_a_single_cache_block_asks_for_a_larger_share() -> None:
    # vllm/worker/worker.py raise_if_cache_size_invalid: its own remedy is a larger gpu_memory_utilization
    log = (
        "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when "
        "initializing the engine.\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("gpu_oom", "increase_memory")
    assert "gpu_memory_utilization" in d.fix.description


def test_tensorflow_device_allocator_refusal_whatever_the_driver_code() -> None:
    """TF's stream executor prints "failed to allocate %s (%llu bytes) from device: %s" for CUDA and ROCm alike."""
    d, _, record = diagnose_dev("i-0020")  # ROCm: hipError_t(1002)
    assert d.label == record["label"] == "gpu_oom"


def test_directml_on_windows_says_the_video_memory_is_too_small() -> None:
    log = "RuntimeError: Could not allocate tensor with 471859200 bytes. There is not enough GPU video memory available!\n"
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("gpu_oom", "reduce_memory")


def test_tensorflow_copying_an_input_to_a_full_gpu() -> None:
    log = (
        "tensorflow.python.framework.errors_impl.InternalError: Failed copying input tensor from "
        "/job:localhost/replica:0/task:0/device:CPU:0 to /job:localhost/replica:0/task:0/device:GPU:0 in order to run "
        "_EagerConst: Dst tensor is not initialized.\n"
    )
    assert diagnose_log_text(log).label == "gpu_oom"


def test_the_legacy_thc_check_glued_to_a_progress_bar() -> None:
    """fairseq's bar, then THC's ``THCudaCheck FAIL … error=2 : out of memory`` on the same line (l-0021)."""
    d, _, record = diagnose_dev("l-0021")
    assert d.label == record["label"] == "gpu_oom"


@root_line_cases(
    ("a-0003", "XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate"),
    ("a-0084", "No available memory for the cache blocks"),
)
def test_root_line_vocabulary_reads_gpu_oom(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "gpu_oom", quoted)


def test_a_quota_raised_as_resource_exhausted_is_not_memory() -> None:
    """gRPC's RESOURCE_EXHAUSTED is also "a per-user quota" (https://grpc.io/docs/guides/status-codes/): Google
    Cloud's client raises ResourceExhausted for a quota, which is no device running out of memory."""
    log = (
        "google.api_core.exceptions.ResourceExhausted: 429 Quota exceeded for quota metric 'GPUs (all regions)' "
        "and limit 'GPUs (all regions) per project' of service 'compute.googleapis.com'\n"
    )
    assert diagnose_log_text(log).label not in ("gpu_oom", "host_oom")


def test_a_job_client_that_reports_the_failure_quoting_every_ranks_oom_is_not_a_second_failure() -> None:
    """Four ranks print the OOM (a family keeps its first three lines), the launcher and the platform print their
    summaries, then the client that waited on the job raises, its message quoting the OOM: the run failed once, of
    the OOM. Before: the client's exception was read as the program's own error (user_code_error 0.64)."""
    oom = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 30.00 MiB (GPU {}; 31.74 GiB total capacity)"
    log = "\n".join(
        [*(oom.format(g) for g in range(4))]
        + [
            f"WARNING:torch.distributed.elastic.multiprocessing.api:Sending process {p} closing signal SIGTERM"
            for p in (201, 202, 205)
        ]
        + [
            "Root Cause (first observed failure):",
            "[0]:",
            "  time      : 2023-10-13_04:43:31",
            "  host      : algo-2",
            "  rank      : 10 (local_rank: 2)",
            "  exitcode  : 1 (pid: 203)",
            "2023-10-13 04:43:39,205 sagemaker-training-toolkit ERROR    Encountered exit_code 1",
            "2023-10-13 04:44:09 Uploading - Uploading generated training model",
            "2023-10-13 04:44:09 Failed - Training job failed",
            "Traceback (most recent call last)",
            '  File "/opt/conda/lib/python3.10/site-packages/sagemaker/session.py", line 6940, in _check_job_status',
            "    raise exceptions.UnexpectedStatusException(",
            "UnexpectedStatusException: Error for Training job esm-2: Failed. Reason: AlgorithmError: ExecuteUserScriptError:",
            "ExitCode 1",
            'ErrorMessage "' + oom.format(2),
        ]
    )
    d = diagnose_log_text(log + "\n")
    assert (d.label, d.fix.kind) == ("gpu_oom", "reduce_memory"), d


@pytest.mark.parametrize(
    "log",
    [
        "xgboost.core.XGBoostError: [02:14:02] /work/src/common/device_helpers.cuh:393: Memory allocation error on "
        "worker 0: std::bad_alloc: out_of_memory: CUDA error at: /opt/conda/include/rmm/mr/device/"
        "cuda_memory_resource.hpp\n",
        'Error: Warmup(Generation("Not enough memory to handle 1024 prefill tokens. You need to decrease '
        '`--max-batch-prefill-tokens`"))\n',
    ],
)
def test_rapids_and_tgi_device_memory_refusals_are_gpu_oom(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("gpu_oom", "reduce_memory")


def test_a_gpu_held_by_another_process_needs_a_free_gpu_not_a_smaller_batch() -> None:
    head = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 18.00 MiB. GPU 0 has a total capacity of"
    held = (
        f"{head} 19.60 GiB of which 15.62 MiB is free. Process 3291739 has 18.62 GiB memory in use. Including"
        " non-PyTorch memory, this process has 972.00 MiB memory in use.\n"
    )
    d = diagnose_log_text(held)
    assert (d.label, d.fix.kind) == ("gpu_oom", "change_resources_or_wait")
    assert "Another process" in d.fix.description
    # the job's own process filling the GPU is the usual fix: less memory per step
    own = (
        f"{head} 23.68 GiB of which 1.01 GiB is free. Including non-PyTorch memory, this process has 22.47 GiB"
        " memory in use.\n"
    )
    assert diagnose_log_text(own).fix.kind == "reduce_memory"


def test_a_ray_drivers_task_error_is_not_undone_by_other_tasks_output_flushed_after_it() -> None:
    tag = "\x1b[36m(run_training pid=1383153)\x1b[0m "
    log = (
        f"{tag}Starting repetition 1/1\n"
        "Traceback (most recent call last):\n"
        '  File "run_gym_ray.py", line 40, in <module>\n'
        "    results = ray.get(futures)\n"
        "ray.exceptions.RayTaskError(RuntimeError): ray::run_training() (pid=1383151, ip=128.208.6.32)\n"
        '  File "gym_train.py", line 91, in shuffle_dataset\n'
        "    self.dataset[key] = self.dataset[key][indices]\n"
        "RuntimeError: CUDA error: out of memory\n" + "".join(f"{tag}Batch {i} of 106\n" for i in range(1, 8))
    )
    assert diagnose_log_text(log).label == "gpu_oom"


def test_an_oom_the_program_logs_as_a_warning_every_batch() -> None:
    # a training loop catching the OOM per batch and logging it at WARNING, never stepping (zzzp-0111)
    head = "2025-11-11 13:00:27,976 - INFO - Starting conservative training for 25 epochs\n"
    warn = (
        "2025-11-11 13:12:45,463 - WARNING - Training batch error: CUDA out of memory. Tried to allocate 4.00 GiB. "
        "GPU 0 has a total capacity of 15.99 GiB of which 0 bytes is free.\n"
    )
    assert diagnose_log_text(head + warn * 4).label == "gpu_oom"
    steps = "".join(f"2025-11-11 13:2{i}:00,000 - INFO - epoch 1 step {i * 100} loss 0.{9 - i}1\n" for i in range(5))
    assert diagnose_log_text(head + warn + steps).label == "healthy"


def test_tensorflows_cublas_handle_that_could_not_be_created_is_a_full_gpu() -> None:
    # TF/JAX's stream executor failing cublasCreate, as PyTorch's "when calling `cublasCreate(handle)`" (zzzn-0024)
    log = (
        "2021-06-26 17:01:46.891583: E external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_blas.cc:226] "
        "failed to create cublas handle: CUBLAS_STATUS_NOT_INITIALIZED\n"
    )
    assert diagnose_log_text(log).label == "gpu_oom"
    assert diagnose_log_text("RuntimeError: CUBLAS_STATUS_NOT_INITIALIZED\n").label == "cuda_driver"


@pytest.mark.parametrize("case_id", ["zzzx-0011", "zzzx-0021", "zzzm-0121"])
def test_paddles_memoryerror_with_a_gpu_summary_is_the_gpu(case_id: str) -> None:
    # Paddle raises its ResourceExhaustedError as a MemoryError with no message; the "Error Message Summary" below it
    # says a GPU ran out (retired blind v22, and v20's zzzm-0121)
    d, _, _ = diagnose_dev(case_id)
    assert d.label == "gpu_oom"


def test_a_memoryerror_with_its_own_message_or_none_at_all_stays_the_hosts() -> None:
    tb = 'Traceback (most recent call last):\n  File "prep.py", line 3, in <module>\n    x = load()\n'
    assert diagnose_log_text(tb + "MemoryError\n").label == "host_oom"
    assert diagnose_log_text(tb + "MemoryError: Unable to allocate 7.10 GiB for an array\n").label == "host_oom"
    assert diagnose_log_text(tb + "MemoryError: \n").label == "host_oom"  # no device named anywhere


def test_metal_running_out_of_memory_on_an_apple_gpu_is_the_devices_memory() -> None:
    """MLX on an Apple GPU: the command buffer failed for lack of memory, then the C++ runtime aborted (not a crash
    in native code). The fix is the device's: a shorter sequence or a smaller batch (dev zzzzzo-0009, mlx-lm#236)."""
    log = (
        "Iter 50: Train loss 1.487, Learning Rate 1.000e-05, It/sec 0.372, Peak mem 34.108 GB\n"
        "libc++abi: terminating due to uncaught exception of type std::runtime_error: [METAL] Command buffer "
        "execution failed: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)\n"
        "zsh: abort      mlx_lm.lora --model ./Qwen3-8B --train\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("gpu_oom", "reduce_memory") and d.confidence >= 0.8
    assert diagnose_dev("zzzzzo-0009")[0].label == "gpu_oom"


def test_nccls_failed_cuda_allocation_is_the_gpus_memory_not_the_network() -> None:
    """PyTorch ends an NCCL error with NCCL's own account; "Failed to CUDA calloc" there is the GPU's memory full
    (a colocated vLLM engine had reserved it), not the ranks losing each other."""
    d, _, record = diagnose_dev("zzzzzzx-0703")
    assert d.label == record["label"] == "gpu_oom" and d.fix.kind == "reduce_memory"
    assert any("Failed to CUDA calloc" in e for e in d.evidence)


def test_an_nccl_error_whose_account_names_no_memory_stays_nccls() -> None:
    log = (
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp:81, "
        "remote process exited or there was a network error, NCCL version 2.21.5\n"
        "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.\n"
        "Last error:\nsocketProgress: Connection closed by remote peer\n"
    )
    assert diagnose_log_text(log).label == "nccl_or_distributed"


@pytest.mark.parametrize(
    ("numbers", "kind"),
    [
        # 22.17 GiB device, PyTorch reserved 4.20 GiB and 0.15 GiB free: ~17.8 GiB held outside this process
        (
            "22.17 GiB total capacity; 3.47 GiB already allocated; 153.81 MiB free; 4.20 GiB reserved in total by PyTorch",
            "change_resources_or_wait",
        ),
        # PyTorch before 1.4: "cached" beside "already allocated"
        (
            "11.90 GiB total capacity; 302.58 MiB already allocated; 66.75 MiB free; 21.42 MiB cached",
            "change_resources_or_wait",
        ),
        # this process holds nearly all of it: a smaller batch is the fix
        (
            "15.75 GiB total capacity; 14.03 GiB already allocated; 18.38 MiB free; 14.60 GiB reserved in total by PyTorch",
            "reduce_memory",
        ),
    ],
)
def test_pytorchs_older_oom_numbers_say_when_another_process_holds_the_gpu(numbers: str, kind: str) -> None:
    log = f"RuntimeError: CUDA out of memory. Tried to allocate 576.00 MiB (GPU 0; {numbers})\n"
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("gpu_oom", kind)
    if kind == "change_resources_or_wait":
        assert "another process most likely holds it" in d.fix.description
