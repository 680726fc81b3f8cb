"""Deterministically writes the holdout3 blind corpus: realistic, off-template failure logs.

Why: earlier corpora share phrasing with the rules they tuned; these logs use real-world
variants (Python 3.12 carets, docker/OCI, pip resolver, c10::Error, bare `Killed`) to
measure how the diagnoser generalises. Run: python generate.py (rewrites *.log + labels.json).
"""
from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent

CASES: list[tuple[str, str, str]] = [
    ("gpu_oom_01_cuda_error.log", "gpu_oom", """\
Epoch 3/20: 41%|####      | 820/2000 [12:01<17:18, 1.14it/s, loss=0.412]
Traceback (most recent call last):
  File "/app/train.py", line 211, in <module>
    main()
  File "/app/train.py", line 188, in main
    loss.backward()
    ^^^^^^^^^^^^^^^
RuntimeError: CUDA error: out of memory
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
For debugging consider passing CUDA_LAUNCH_BLOCKING=1.
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.
"""),
    ("gpu_oom_02_torch_oom.log", "gpu_oom", """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/workspace/finetune.py", line 97, in <module>
[rank0]:     outputs = model(**batch)
[rank0]:               ^^^^^^^^^^^^^^
[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.06 GiB is free. Including non-PyTorch memory, this process has 78.08 GiB memory in use. Of the allocated memory 75.90 GiB is allocated by PyTorch, and 1.21 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.
E1130 04:12:55.123000 140 torch/distributed/elastic/multiprocessing/api.py:833] failed (exitcode: 1) local_rank: 0 (pid: 212) of binary: /usr/bin/python
"""),
    ("gpu_oom_03_jax_resource.log", "gpu_oom", """\
2026-11-29 22:01:14.512: W external/xla/xla/tsl/framework/bfc_allocator.cc:291] Allocator (GPU_0_bfc) ran out of memory trying to allocate 12.50GiB (rounded to 13421772800)requested by op
jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 13421772800 bytes.
BufferAssignment OOM Debugging.
"""),
    ("gpu_oom_04_tf_oom.log", "gpu_oom", """\
2026-11-29 10:03:11.441207: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1928] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 14783 MB memory
tensorflow.python.framework.errors_impl.ResourceExhaustedError: {{function_node __wrapped__Conv2D_device_/job:localhost/replica:0/task:0/device:GPU:0}} OOM when allocating tensor with shape[256,512,64,64] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc [Op:Conv2D]
"""),
    ("gpu_oom_05_vllm.log", "gpu_oom", """\
INFO 11-29 08:00:01 llm_engine.py:161] Initializing an LLM engine (v0.5.4) with config: model='meta-llama/Llama-3-70B'
ERROR 11-29 08:01:42 worker.py:211] Error executing method determine_num_available_blocks
ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.
torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 896.00 MiB. GPU
"""),
    ("host_oom_01_killed_137.log", "host_oom", """\
Loading dataset shards: 100%|##########| 64/64 [03:12<00:00,  3.01s/it]
Tokenizing: 71%|#######   | 7100000/10000000 [18:44<07:40, 6301.22 examples/s]
/var/spool/slurmd/job88123/slurm_script: line 14: 40211 Killed                  python preprocess.py --num-proc 64
slurmstepd: error: Detected 1 oom_kill event in StepId=88123.batch. Some of the step tasks have been OOM Killed.
"""),
    ("host_oom_02_k8s_oomkilled.log", "host_oom", """\
Name:         train-llm-7b-worker-0
Status:       Failed
    State:          Terminated
      Reason:       OOMKilled
      Exit Code:    137
      Started:      Sun, 29 Nov 2026 03:14:22 +0000
      Finished:     Sun, 29 Nov 2026 03:51:09 +0000
"""),
    ("host_oom_03_dataloader_killed.log", "host_oom", """\
Traceback (most recent call last):
  File "/opt/conda/lib/python3.12/site-packages/torch/utils/data/dataloader.py", line 1243, in _try_get_data
    data = self._data_queue.get(timeout=timeout)
RuntimeError: DataLoader worker (pid 5121) is killed by signal: Killed.
"""),
    ("host_oom_04_memoryerror.log", "host_oom", """\
Traceback (most recent call last):
  File "/src/build_index.py", line 33, in <module>
    emb = np.zeros((n_docs, 4096), dtype=np.float32)
          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
numpy.core._exceptions._ArrayMemoryError: Unable to allocate 1.49 TiB for an array with shape (100000000, 4096) and data type float32
"""),
    ("host_oom_05_bare_killed.log", "host_oom", """\
step 1200 | loss 2.113 | tok/s 48211
step 1210 | loss 2.109 | tok/s 48190
Killed
+ exit 137
"""),
    ("nccl_01_watchdog.log", "nccl_or_distributed", """\
[rank3]:[E1129 14:22:10.712311 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1822, OpType=ALLREDUCE, NumelIn=262144, NumelOut=262144, Timeout(ms)=600000) ran for 600042 milliseconds before timing out.
[rank3]:[E1129 14:22:10.713121 ProcessGroupNCCL.cpp:1785] [PG 0 (default_pg) Rank 3] Exception (either an error before or during the collective) : [Rank 3] Watchdog caught collective operation timeout
terminate called after throwing an instance of 'c10::DistBackendError'
"""),
    ("nccl_02_unhandled_system.log", "nccl_or_distributed", """\
node-12:4411:4502 [1] NCCL INFO NET/IB : No device found.
node-12:4411:4502 [1] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.3.17<41233> failed : Software caused connection abort
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.
"""),
    ("nccl_03_rendezvous.log", "nccl_or_distributed", """\
torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError
[E socket.cpp:957] [c10d] The client socket has timed out after 900s while trying to connect to (trainer-0.trainer-svc, 29500).
torch.distributed.DistNetworkError: The client socket has timed out after 900s while trying to connect to (trainer-0.trainer-svc, 29500).
"""),
    ("nccl_04_deepspeed.log", "nccl_or_distributed", """\
[2026-11-29 06:10:02,331] [INFO] [launch.py:256:main] process 3301 spawned with command: ['/usr/bin/python', '-u', 'train.py', '--local_rank=1']
[2026-11-29 06:41:55,118] [ERROR] [launch.py:322:sigkill_handler] ['/usr/bin/python', '-u', 'train.py', '--local_rank=1'] exits with return code = -6
RuntimeError: NCCL communicator was aborted on rank 1.  Original reason for failure was: [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=40, OpType=BROADCAST)
"""),
    ("dep_01_modulenotfound.log", "missing_dependency", """\
Traceback (most recent call last):
  File "/workspace/train.py", line 4, in <module>
    import flash_attn
ModuleNotFoundError: No module named 'flash_attn'
"""),
    ("dep_02_command_not_found.log", "missing_dependency", """\
+ accelerate launch --num_processes 8 train.py
/var/spool/slurmd/job4411/slurm_script: line 9: accelerate: command not found
srun: error: gpu-n17: task 0: Exited with exit code 127
"""),
    ("dep_03_pip_resolution.log", "missing_dependency", """\
Collecting transformers==4.99.0
ERROR: Could not find a version that satisfies the requirement transformers==4.99.0 (from versions: 4.40.0, 4.41.0, 4.45.2, 4.46.0)
ERROR: No matching distribution found for transformers==4.99.0
"""),
    ("dep_04_resolution_impossible.log", "missing_dependency", """\
INFO: pip is looking at multiple versions of torchvision to determine which version is compatible with other requirements. This could take a while.
ERROR: Cannot install torch==2.3.0 and torchvision==0.20.0 because these package versions have conflicting dependencies.

The conflict is caused by:
    The user requested torch==2.3.0
    torchvision 0.20.0 depends on torch==2.5.0

ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts
"""),
    ("dep_05_shared_lib.log", "missing_dependency", """\
Traceback (most recent call last):
  File "/app/serve.py", line 2, in <module>
    import tensorrt_llm
ImportError: libmpi.so.40: cannot open shared object file: No such file or directory
"""),
    ("dep_06_conda_packages_not_found.log", "missing_dependency", """\
Channels:
 - conda-forge
Platform: linux-64
Solving environment: failed

PackagesNotFoundError: The following packages are not available from current channels:

  - cudatoolkit=13.1
"""),
    ("fnf_01_checkpoint.log", "file_not_found", """\
Traceback (most recent call last):
  File "/code/eval.py", line 51, in <module>
    state = torch.load(args.ckpt, map_location="cpu")
            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.12/site-packages/torch/serialization.py", line 1065, in load
    with _open_file_like(f, "rb") as opened_file:
FileNotFoundError: [Errno 2] No such file or directory: '/mnt/ckpt/run-42/step_9000.pt'
"""),
    ("fnf_02_hf_local.log", "file_not_found", """\
OSError: Incorrect path_or_model_id: '/models/llama-3-8b-instruct'. Please provide either the path to a local folder or the repo_id of a model on the Hub.
"""),
    ("fnf_03_tf_notfound.log", "file_not_found", """\
tensorflow.python.framework.errors_impl.NotFoundError: /data/tfrecords/train-00000-of-01024; No such file or directory
"""),
    ("nan_01_loss_nan.log", "nan_loss", """\
{'loss': 1.9821, 'grad_norm': 3.12, 'learning_rate': 2e-05, 'epoch': 0.41}
{'loss': nan, 'grad_norm': nan, 'learning_rate': 2e-05, 'epoch': 0.42}
RuntimeError: Loss is NaN at step 4200, stopping training.
"""),
    ("nan_02_anomaly.log", "nan_loss", """\
RuntimeError: Function 'LogSoftmaxBackward0' returned nan values in its 0th output.
"""),
    ("nan_03_lightning.log", "nan_loss", """\
Epoch 5: 63%|######3   | 630/1000 [05:12<03:03, train_loss=inf]
Monitored metric val_loss = nan is not finite. Previous best value was 0.812. Signaling Trainer to stop.
"""),
    ("image_01_pull_denied.log", "image_pull", """\
Unable to find image 'registry.internal/ml/trainer:2026.11' locally
docker: Error response from daemon: pull access denied for registry.internal/ml/trainer, repository does not exist or may require 'docker login': denied: requested access to the resource is denied.
See 'docker run --help'.
"""),
    ("image_02_k8s_backoff.log", "image_pull", """\
Events:
  Type     Reason     Age                From     Message
  ----     ------     ----               ----     -------
  Normal   Pulling    3m (x4 over 5m)    kubelet  Pulling image "ghcr.io/acme/train:v9"
  Warning  Failed     3m (x4 over 5m)    kubelet  Failed to pull image "ghcr.io/acme/train:v9": rpc error: code = NotFound desc = failed to pull and unpack image "ghcr.io/acme/train:v9": not found
  Warning  Failed     3m (x4 over 5m)    kubelet  Error: ErrImagePull
  Normal   BackOff    2m (x6 over 5m)    kubelet  Back-off pulling image "ghcr.io/acme/train:v9"
  Warning  Failed     2m (x6 over 5m)    kubelet  Error: ImagePullBackOff
"""),
    ("image_03_manifest_unknown.log", "image_pull", """\
Error response from daemon: manifest for nvcr.io/nvidia/pytorch:26.13-py3 not found: manifest unknown: manifest unknown
"""),
    ("unsched_01_k8s.log", "unschedulable", """\
  Warning  FailedScheduling  45s (x12 over 11m)  default-scheduler  0/16 nodes are available: 4 Insufficient nvidia.com/gpu, 12 node(s) didn't match Pod's node affinity/selector. preemption: 0/16 nodes are available: 16 No preemption victims found for incoming pod.
"""),
    ("unsched_02_slurm.log", "unschedulable", """\
sbatch: error: Batch job submission failed: Requested node configuration is not available
"""),
    ("timeout_01_slurm.log", "timeout", """\
step 88000 | loss 1.71
slurmstepd: error: *** JOB 771203 ON gpu-a44 CANCELLED AT 2026-11-29T23:59:59 DUE TO TIME LIMIT ***
"""),
    ("timeout_02_k8s_deadline.log", "timeout", """\
Status:  Failed
Reason:  DeadlineExceeded
Message: Job was active longer than specified deadline
"""),
    ("disk_01_enospc.log", "disk_full", """\
Saving model checkpoint to /scratch/out/checkpoint-12000
Traceback (most recent call last):
  File "/usr/lib/python3.12/site-packages/torch/serialization.py", line 652, in save
    _save(obj, opened_zipfile, pickle_module, pickle_protocol, _disable_byteorder_record)
RuntimeError: [enforce fail at inline_container.cc:595] . unexpected pos 3170951424 vs 3170951312
OSError: [Errno 28] No space left on device
"""),
    ("disk_02_evicted.log", "disk_full", """\
Status:   Failed
Reason:   Evicted
Message:  Pod ephemeral local storage usage exceeds the total limit of containers 50Gi.
"""),
    ("cuda_01_driver_old.log", "cuda_driver", """\
/usr/lib/python3.12/site-packages/torch/cuda/__init__.py:129: UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx
RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx
"""),
    ("cuda_02_oci_nvidia.log", "cuda_driver", """\
docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'
nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown.
"""),
    ("cuda_03_xid.log", "cuda_driver", """\
RuntimeError: CUDA error: uncorrectable ECC error encountered
kernel: NVRM: Xid (PCI:0000:3b:00): 48, pid=1911, name=python, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 2, subpartition 1.
"""),
    ("assert_01_indexing.log", "device_assert", """\
../aten/src/ATen/native/cuda/Indexing.cu:1289: indexSelectLargeIndex: block: [211,0,0], thread: [64,0,0] Assertion `srcIndex < srcSelectDimSize` failed.
terminate called after throwing an instance of 'c10::Error'
  what():  CUDA error: device-side assert triggered
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
"""),
    ("perm_01_hf_gated.log", "permission_or_auth", """\
huggingface_hub.errors.GatedRepoError: 403 Client Error. (Request ID: Root=1-6749)
Cannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json.
Access to model meta-llama/Llama-3.1-8B is restricted and you are not in the authorized list. Visit https://huggingface.co/meta-llama/Llama-3.1-8B to ask for access.
"""),
    ("perm_02_s3_denied.log", "permission_or_auth", """\
botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the PutObject operation: User: arn:aws:sts::1234:assumed-role/ml-batch/job is not authorized to perform: s3:PutObject on resource: "arn:aws:s3:::ckpts/run7/model.safetensors"
"""),
    ("perm_03_eacces.log", "permission_or_auth", """\
PermissionError: [Errno 13] Permission denied: '/shared/outputs/run-19/metrics.jsonl'
"""),
    ("net_01_hf_connection.log", "network_download", """\
requests.exceptions.ConnectionError: (MaxRetryError("HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /bert-base-uncased/resolve/main/config.json (Caused by NameResolutionError(\\"<urllib3.connection.HTTPSConnection object at 0x7f>: Failed to resolve 'huggingface.co' ([Errno -3] Temporary failure in name resolution)\\"))"), '(Request ID: 9f1c)')
OSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files and it looks like bert-base-uncased is not the path to a directory containing a file named config.json.
"""),
    ("net_02_wget.log", "network_download", """\
--2026-11-29 02:11:09--  https://data.example.org/c4/en/part-0007.json.gz
Resolving data.example.org (data.example.org)... 93.184.216.34
Connecting to data.example.org (data.example.org)|93.184.216.34|:443... failed: Connection timed out.
Retrying.
curl: (28) Failed to connect to data.example.org port 443 after 130012 ms: Couldn't connect to server
"""),
    ("preempt_01_gke_spot.log", "preempted", """\
Warning  NodeShutdown  2m  kubelet  Node is shutting down: spot instance preemption
Status:  Failed
Reason:  Terminated
Message: Pod was terminated in response to imminent node shutdown.
"""),
    ("preempt_02_slurm.log", "preempted", """\
slurmstepd: error: *** JOB 99012 ON gpu-b02 CANCELLED AT 2026-11-29T11:02:41 DUE TO PREEMPTION ***
"""),
    ("segv_01_fatal_python.log", "segfault", """\
Fatal Python error: Segmentation fault

Thread 0x00007f3a1bfff700 (most recent call first):
  File "/usr/lib/python3.12/threading.py", line 355 in wait
Current thread 0x00007f3a5c1d4740 (most recent call first):
  File "/app/tokenize_shards.py", line 77 in encode_batch
Segmentation fault (core dumped)
"""),
    ("segv_02_signal11.log", "segfault", """\
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
============================================================
train.py FAILED
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-11-29_07:12:44
  host      : node-3
  rank      : 0 (local_rank: 0)
  exitcode  : -11 (pid: 8812)
  error_file: <N/A>
  traceback : Signal 11 (SIGSEGV) received by PID 8812
"""),
    ("output_01_missing.log", "output_missing", """\
Training finished in 3h12m.
[postcheck] ERROR: expected artifact model/final/pytorch_model.bin does not exist; job produced no output
"""),
    ("valid_01_pydantic.log", "validation_error", """\
pydantic_core._pydantic_core.ValidationError: 2 validation errors for TrainConfig
optimizer.lr
  Input should be a valid number, unable to parse string as a number [type=float_parsing, input_value='3e-4x', input_type=str]
batch_size
  Input should be greater than 0 [type=greater_than, input_value=0, input_type=int]
"""),
    ("valid_02_hydra.log", "validation_error", """\
Error merging override trainer.max_step=1000
Key 'max_step' not in 'TrainerConfig'
    full_key: trainer.max_step
    object_type=TrainerConfig
Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.
"""),
    ("user_01_shape.log", "user_code_error", """\
Traceback (most recent call last):
  File "/src/model.py", line 140, in forward
    x = self.proj(x)
        ^^^^^^^^^^^^
  File "/usr/lib/python3.12/site-packages/torch/nn/modules/linear.py", line 117, in forward
    return F.linear(input, self.weight, self.bias)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
RuntimeError: mat1 and mat2 shapes cannot be multiplied (32x768 and 1024x4096)
"""),
    ("user_02_keyerror.log", "user_code_error", """\
Traceback (most recent call last):
  File "/app/collate.py", line 22, in collate
    ids = [ex["input_ids"] for ex in batch]
           ~~^^^^^^^^^^^^^
KeyError: 'input_ids'
"""),
    ("user_03_rust_panic.log", "user_code_error", """\
thread '<unnamed>' panicked at src/tokenizer/normalizer.rs:381:21:
called `Option::unwrap()` on a `None` value
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
pyo3_runtime.PanicException: called `Option::unwrap()` on a `None` value
"""),
    ("healthy_01_warnings.log", "healthy", """\
/usr/lib/python3.12/site-packages/torch/utils/checkpoint.py:464: UserWarning: torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly.
Some weights of BertForSequenceClassification were not initialized from the model checkpoint at bert-base-uncased and are newly initialized: ['classifier.bias', 'classifier.weight']
You should probably TRAIN this model on a down-stream task to be able to use it for predictions and inference.
{'eval_loss': 0.311, 'eval_accuracy': 0.912, 'epoch': 3.0}
{'train_runtime': 1822.1, 'train_loss': 0.402, 'epoch': 3.0}
Training completed. Saved to /out/final
"""),
    ("healthy_02_nccl_info.log", "healthy", """\
node-1:311:311 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.4<0>
node-1:311:311 [0] NCCL INFO NET/Plugin: No plugin found (libnccl-net.so), using internal implementation
node-1:311:402 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.
node-1:311:402 [0] NCCL INFO Connected all rings
step 5000/5000 loss=1.212
[rank0] training done, destroying process group
"""),
    ("healthy_03_retry_download.log", "healthy", """\
WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError("HTTPSConnectionPool(host='pypi.org', port=443): Read timed out. (read timeout=15)")': /simple/einops/
Successfully installed einops-0.8.0
epoch 10 acc 0.944
Done. exit code 0
"""),
    ("healthy_04_oom_retry.log", "healthy", """\
[auto_batch] trying per_device_batch_size=64
[auto_batch] CUDA out of memory at batch 64, halving and retrying
[auto_batch] per_device_batch_size=32 fits (peak 71.2 GiB)
step 100/100 loss 0.88
Finished successfully
"""),
    ("healthy_05_tf_noise.log", "healthy", """\
2026-11-29 01:02:03.000001: I tensorflow/core/util/port.cc:113] oneDNN custom operations are on. You may see slightly different numerical results due to floating-point round-off errors from different computation orders.
2026-11-29 01:02:03.901122: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:9261] Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered
2026-11-29 01:02:03.901201: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:607] Unable to register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered
2026-11-29 01:02:04.212: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT
Epoch 20/20 - 41s - loss: 0.1021 - accuracy: 0.9688 - val_loss: 0.1412 - val_accuracy: 0.9570
Model saved to gs://bucket/models/resnet/v3
"""),
    ("healthy_06_grad_scaler.log", "healthy", """\
[DeepSpeed] fp16 dynamic loss scale: OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768
[DeepSpeed] fp16 dynamic loss scale: OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 32768, reducing to 16384
steps: 2000 loss: 1.8812 iter time (s): 0.611 samples/sec: 52.3
[INFO] [engine.py:3120] Saving checkpoint global_step2000 ... done
Training finished successfully.
"""),
    ("healthy_07_tests_mention_errors.log", "healthy", """\
collected 212 items
tests/test_errors.py::test_handles_file_not_found PASSED
tests/test_errors.py::test_permission_denied_message PASSED
tests/test_oom.py::test_reports_cuda_out_of_memory PASSED
tests/test_timeout.py::test_timeout_is_raised PASSED
====================== 212 passed in 48.21s ======================
"""),
    ("healthy_08_slurm_epilog.log", "healthy", """\
+ python train.py --config cfg/base.yaml
Traceback-free run. Final val ppl 11.42
slurmstepd: info: Step 88121.0 completed with exit code 0
JobState=COMPLETED Reason=None ExitCode=0:0
"""),
    ("healthy_09_preempt_resume.log", "healthy", """\
Resuming from checkpoint /ckpt/step_4000 (previous attempt was preempted)
Found existing checkpoint; skipping 4000 steps
step 8000/8000 loss 1.04
Saved final checkpoint /ckpt/final. Exiting with status 0.
"""),
    ("healthy_10_nan_filtered.log", "healthy", """\
[data] dropped 14 rows with NaN labels from validation split
[data] 1 file not found in manifest, skipped: shard-0099.parquet (optional)
epoch 4: train_loss=0.612 val_loss=0.655
Training complete; wrote metrics.json and model.pt
"""),
    ("healthy_11_vllm_batch.log", "healthy", """\
INFO 11-29 09:00:00 config.py:1010] Chunked prefill is enabled with max_num_batched_tokens=512.
WARNING 11-29 09:00:01 arg_utils.py:930] The model has a long context length (131072). This may cause OOM errors during the initial memory profiling phase, or result in low performance due to small KV cache space.
INFO 11-29 09:00:30 gpu_executor.py:122] # GPU blocks: 12021, # CPU blocks: 2048
Processed prompts: 100%|##########| 50000/50000 [22:13<00:00, 37.50it/s]
Wrote 50000 generations to /out/gen.jsonl
"""),
    ("unknown_01_exit_code.log", "unknown", """\
launching job attempt 1
worker exited with code 3
"""),
]


def main() -> None:
    """Rewrite every case file and the labels map; deterministic (fixed list, sorted JSON)."""
    labels: dict[str, str] = {}
    for name, label, text in CASES:
        (HERE / name).write_text(text, encoding="utf-8")
        labels[name] = label
    (HERE / "labels.json").write_text(json.dumps(labels, indent=2, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
