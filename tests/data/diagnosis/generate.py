"""Generate the labelled diagnosis corpus: failure logs as real stacks print them, plus healthy noisy runs.

Run: python tests/data/diagnosis/generate.py  (deterministic: fixed seed). Writes logs/*.log and labels.json.
Each log = framework preamble with benign warnings + progress lines + a failure snippet (several wordings per
label) + launcher/scheduler noise, rendered with one of several line prefixes (OSMO, torchrun ranks, Slurm, plain).
Tricky variants put a misleading warning before the real error, a misleading error after it, or a trailing warning.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

HERE = Path(__file__).parent
R = random.Random(20260509)

# ------------------------------------------------------------------------------------------- noise
BENIGN = [
    "/usr/local/lib/python3.10/dist-packages/torch/utils/data/dataloader.py:558: UserWarning: This DataLoader will create 16 worker processes in total. Our suggested max number of worker in current system is 8, which is smaller than what this DataLoader is going to create.",
    "  warnings.warn(_create_warning_msg(",
    "Some weights of BertForSequenceClassification were not initialized from the model checkpoint at bert-base-uncased and are newly initialized: ['classifier.bias', 'classifier.weight']",
    "You should probably TRAIN this model on a down-stream task to be able to use it for predictions and inference.",
    "/opt/conda/lib/python3.10/site-packages/transformers/optimization.py:411: FutureWarning: This implementation of AdamW is deprecated and will be removed in a future version. Use the PyTorch implementation torch.optim.AdamW instead",
    "2024-03-11 09:12:01.123456: I tensorflow/core/platform/cpu_feature_guard.cc:182] This TensorFlow binary is optimized to use available CPU instructions in performance-critical operations.",
    "2024-03-11 09:12:02.000100: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT",
    "2024-03-11 09:12:01.551234: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:9261] Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered",
    "[W socket.cpp:464] [c10d] The server socket cannot be initialized on [::]:29500 (errno: 97 - Address family not supported by protocol).",
    "node-3:1234:1290 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.3<0>",
    "node-3:1234:1290 [0] NCCL WARN NET/IB : No device found.",
    "[2024-03-11 09:13:00,101] [WARNING] [stage3.py:1850:step] 4 pytorch allocator cache flushes since last step. this happens when there is high memory pressure",
    "[2024-03-11 09:13:05,000] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768",
    "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0",
    "huggingface/tokenizers: The current process just got forked, after parallelism has already been used. Disabling parallelism to avoid deadlocks...",
    "/usr/local/lib/python3.10/dist-packages/lightning/pytorch/trainer/connectors/data_connector.py:441: PossibleUserWarning: The 'train_dataloader' does not have many workers which may be a bottleneck.",
    "wandb: WARNING Serializing object of type dict that is 2048 bytes",
    "WARNING:torch.distributed.run:Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded.",
    "`use_cache=True` is incompatible with gradient checkpointing. Setting `use_cache=False`.",
    "/usr/lib/python3/dist-packages/torch/utils/checkpoint.py:429: UserWarning: torch.utils.checkpoint: please pass in use_reentrant=True or use_reentrant=False explicitly.",
    "W0311 09:12:04.123456 139912 xla_bridge.py:863] An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.",
    "Token indices sequence length is longer than the specified maximum sequence length for this model (612 > 512). Running this sequence through the model will result in indexing errors",
    "[NeMo W 2024-03-11 09:12:44 nemo_logging:349] /usr/local/lib/python3.10/dist-packages/megatron/core/tensor_parallel/layers.py:278: DeprecationWarning: async_grad_allreduce is deprecated",
    "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='pypi.org', port=443): Read timed out. (read timeout=15)\")': /simple/einops/",
    "[rank0]:[W reducer.cpp:1360] Warning: find_unused_parameters=True was specified in DDP constructor, but did not find any unused parameters in the forward pass.",
    "Detected kernel version 3.10.0, which is below the recommended minimum of 5.5.0; this can cause the process to hang.",
    "The following columns in the training set don't have a corresponding argument in `BertForSequenceClassification.forward` and have been ignored: text.",
    "2024-03-11 09:12:03.512000: I tensorflow/core/util/port.cc:113] oneDNN custom operations are on. You may see slightly different numerical results due to floating-point round-off errors.",
    "[NeMo W 2024-03-11 09:13:10 modelPT:251] You tried to register an artifact under config key=tokenizer.vocab_file but an artifact for it has already been registered.",
]
BANNERS = {
    "pytorch": ["Starting training with torch 2.2.1+cu121", "Using device: cuda:0 (NVIDIA H100 80GB HBM3)", "Loaded 50000 training samples"],
    "hf": ["***** Running training *****", "  Num examples = 25,000", "  Num Epochs = 3", "  Instantaneous batch size per device = 16", "  Total optimization steps = 4,689"],
    "lightning": ["GPU available: True (cuda), used: True", "TPU available: False, using: 0 TPU cores", "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1,2,3]",
                  "  | Name    | Type             | Params", "0 | model   | ResNet           | 23.5 M", "23.5 M    Trainable params"],
    "deepspeed": ["[2024-03-11 09:12:10,000] [INFO] [real_accelerator.py:191:get_accelerator] Setting ds_accelerator to cuda (auto detect)",
                  "[2024-03-11 09:12:12,310] [INFO] [config.py:984:print] DeepSpeedEngine configuration:", "[2024-03-11 09:12:12,311] [INFO] [config.py:988:print]   zero_optimization.stage ..... 3"],
    "jax": ["I0311 09:12:00.000000 140 train.py:88] JAX devices: [cuda(id=0), cuda(id=1), cuda(id=2), cuda(id=3)]", "I0311 09:12:01.000000 140 train.py:92] Global batch size 256"],
    "tf": ["Epoch 1/10", "2024-03-11 09:12:05.123000: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1929] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 79078 MB memory"],
    "nemo": ["[NeMo I 2024-03-11 09:12:00 exp_manager:396] Experiments will be logged at /results/megatron_gpt", "[NeMo I 2024-03-11 09:12:05 megatron_init:263] Rank 0 has data parallel group : [0, 1, 2, 3]"],
    "megatron": ["using world size: 8, data-parallel size: 2, tensor-model-parallel size: 4, pipeline-model-parallel size: 1", "> building GPT2BPETokenizer tokenizer ...", "> initializing torch distributed ..."],
}


def progress(fw: str, n: int, nan_at: int | None = None) -> list[str]:
    out = []
    loss = R.uniform(2.0, 7.0)
    for i in range(1, n + 1):
        loss *= R.uniform(0.9, 0.99)
        val = "nan" if nan_at is not None and i >= nan_at else f"{loss:.4f}"
        step = i * R.choice([10, 50, 100])
        out.append(R.choice({
            "pytorch": [f"Epoch 1 | step {step} | loss {val} | lr 3.0e-04", f"[step {step}] train_loss={val} grad_norm=1.2{i}"],
            "hf": [f"{{'loss': {val}, 'grad_norm': 1.{i}3, 'learning_rate': 4.9e-05, 'epoch': 0.{i}}}"],
            "lightning": [f"Epoch 0:  {i*10}%|████      | {step}/1000 [00:{i:02d}<01:10, 12.3it/s, v_num=3, train_loss={val}]"],
            "deepspeed": [f"[2024-03-11 09:14:{i:02d},000] [INFO] [logging.py:96:log_dist] [Rank 0] step={step}, skipped=0, lr=[0.0001], loss={val}"],
            "jax": [f"I0311 09:14:{i:02d}.000000 140 train.py:210] step {step}: loss={val}, throughput=1234.5 ex/s"],
            "tf": [f"{step}/1563 [==============>...............] - ETA: 1:0{i} - loss: {val} - accuracy: 0.{50+i}"],
            "nemo": [f"Epoch 0: : {step}it [01:{i:02d}, 1.5it/s, loss={val}, lr=0.0002, global_step={step}]"],
            "megatron": [f" iteration      {step}/  500000 | consumed samples: {step*256} | elapsed time per iteration (ms): 812.3 | learning rate: 1.5E-04 | lm loss: {val if val=='nan' else f'{float(val):.6E}'} | loss scale: 65536.0 |"],
        }[fw]))
    return out


def traceback(frames: int, final: list[str], user_file: str = "train.py") -> list[str]:
    out = ["Traceback (most recent call last):"]
    files = [(f"/workspace/{user_file}", "<module>", "main()"), (f"/workspace/{user_file}", "main", "trainer.fit(model, dm)"),
             ("/usr/local/lib/python3.10/dist-packages/torch/nn/modules/module.py", "_call_impl", "return forward_call(*args, **kwargs)"),
             ("/workspace/model.py", "forward", "x = self.block(x)"), ("/workspace/data.py", "__getitem__", "sample = self.load(idx)"),
             ("/usr/local/lib/python3.10/dist-packages/transformers/trainer.py", "train", "return inner_training_loop("),
             ("/usr/local/lib/python3.10/dist-packages/lightning/pytorch/trainer/call.py", "_call_and_handle_interrupt", "return trainer_fn(*args, **kwargs)")]
    for i in range(frames):
        f, fn, code = files[i % len(files)]
        out.append(f'  File "{f}", line {R.randint(20, 900)}, in {fn}')
        out.append(f"    {code}")
    return out + final


# ------------------------------------------------------------------------------------------- failure snippets
def snip_gpu_oom() -> list[str]:
    gib = R.choice(["2.00", "1.50", "786.00 MiB", "4.88"])
    return R.choice([
        lambda: traceback(R.randint(2, 6), [f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {gib} GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.2 GiB is free. Including non-PyTorch memory, this process has 77.9 GiB memory in use. Of the allocated memory 74.1 GiB is allocated by PyTorch, and 2.3 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation."]),
        lambda: traceback(R.randint(2, 5), ["RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 3; 39.59 GiB total capacity; 37.80 GiB already allocated; 301.19 MiB free; 38.10 GiB reserved in total by PyTorch)"]),
        lambda: ["jax.errors.SimplifiedTraceback: For simplicity, JAX has removed its internal frames from the traceback of the following exception.", *traceback(2, ["jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes."])],
        lambda: ["2024-03-11 09:20:01.000001: W tensorflow/core/common_runtime/bfc_allocator.cc:485] Allocator (GPU_0_bfc) ran out of memory trying to allocate 4.00GiB (rounded to 4294967296)requested by op MatMul",
                 *traceback(3, ["tensorflow.python.framework.errors_impl.ResourceExhaustedError: Graph execution error:", "OOM when allocating tensor with shape[256,1024,4096] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc"])],
        lambda: traceback(3, ["RuntimeError: CUDA error: out of memory", "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect."]),
        lambda: traceback(4, ["torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 1 has a total capacty of 23.65 GiB of which 3.06 MiB is free."]),
    ])()


def snip_host_oom() -> list[str]:
    return R.choice([
        lambda: ["Killed", "srun: error: node-12: task 0: Out Of Memory", "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=48213.batch. Some of your processes may have been killed by the cgroup out-of-memory handler."],
        lambda: ["slurmstepd-gpu-a17: error: Detected 3 oom_kill events in StepId=99120.0. Some of the step tasks have been OOM Killed.", "48213|train|OUT_OF_MEMORY|0:125"],
        lambda: ["Container terminated: OOMKilled (exit code 137)"],
        lambda: ["2024-03-11T09:40:00Z  Warning  OOMKilling  Memory cgroup out of memory: Killed process 4123 (python) total-vm:82345672kB, anon-rss:62914560kB", "2024-03-11T09:40:01Z  Normal   Killing     Stopping container train"],
        lambda: traceback(3, ["RuntimeError: DataLoader worker (pid 2831) is killed by signal: Killed. "]),
        lambda: traceback(2, ["MemoryError: Unable to allocate 37.3 GiB for an array with shape (50000, 100000) and data type float64"]),
        lambda: ["terminate called after throwing an instance of 'std::bad_alloc'", "  what():  std::bad_alloc", "Aborted (core dumped)"],
        lambda: ["[kernel] Out of memory: Killed process 7781 (python3) total-vm:98123456kB, anon-rss:65011712kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:130000kB oom_score_adj:0", "/tmp/entry.sh: line 9:  7781 Killed                  python3 preprocess.py --shards 256"],
    ])()


def snip_nccl() -> list[str]:
    return R.choice([
        lambda: ["[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4821, OpType=ALLREDUCE, NumelIn=262144, NumelOut=262144, Timeout(ms)=600000) ran for 600036 milliseconds before timing out.",
                 "[rank3]:[E ProcessGroupNCCL.cpp:1537] [PG 0 Rank 3] Timeout at NCCL work: 4821, last enqueued NCCL work: 4821, last completed NCCL work: 4820.",
                 "[rank3]:[E ProcessGroupNCCL.cpp:577] [Rank 3] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data."],
        lambda: traceback(3, ["torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3",
                              "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.", "Last error:", "socketStartConnect: Connect to 10.0.3.17<49517> failed : Software caused connection abort"]),
        lambda: ["node-7:31:201 [2] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.0.0.9<52133> with error 12, opcode 0, len 0, vendor err 129 (Send) localGid ::ffff:10.0.0.7",
                 "node-7:31:201 [2] NCCL INFO transport/net.cc:1134 -> 6", *traceback(2, ["RuntimeError: NCCL Error 6: remote process exited or there was a network error"])],
        lambda: traceback(4, ["torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError"]),
        lambda: traceback(3, ["torch.distributed.DistNetworkError: The client socket has timed out after 1800s while trying to connect to (10.2.0.4, 29500)."]),
        lambda: ["E0311 09:30:00.000000 12 coordination_service_agent.cc:332] Coordination agent is in ERROR: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: PjRT_Client_Connect", *traceback(2, ["jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: PjRT_Client_Connect"])],
        lambda: traceback(2, ["RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [10.0.1.5]:6123"]) + ["[gloo] Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error"],
    ])()


MODULES = ["cv2", "sklearn", "einops", "flash_attn", "PIL", "yaml", "wandb", "timm", "deepspeed", "apex", "sentencepiece", "hydra"]


def snip_missing_dep() -> list[str]:
    mod = R.choice(MODULES)
    return R.choice([
        lambda: traceback(R.randint(1, 4), [f"ModuleNotFoundError: No module named '{mod}'"]),
        lambda: traceback(2, [f"ImportError: No module named {mod}"]),
        lambda: [f"/tmp/entry.sh: line {R.randint(3, 20)}: {R.choice(['jq', 'aws', 'gsutil', 'git-lfs', 'rsync', 'wget'])}: command not found"],
        lambda: ["/bin/sh: 1: nvidia-smi: not found", "exit code 127"],
        lambda: traceback(3, ["ImportError: libGL.so.1: cannot open shared object file: No such file or directory"]),
        lambda: traceback(3, ["ImportError: ", "LlamaTokenizer requires the SentencePiece library but it was not found in your environment. Checkout the instructions on the", "installation page of its repo: https://github.com/google/sentencepiece#installation and follow the ones", "that match your environment. Please note that you may need to restart your runtime after installation."]),
        lambda: ['Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "torchrun": executable file not found in $PATH: unknown'],
    ])()


def snip_file_not_found() -> list[str]:
    path = R.choice(["/data/imagenet/train/manifest.csv", "/osmo/input/0/shards/shard-00017.tar", "checkpoints/last.ckpt", "/workspace/configs/train_large.yaml"])
    return R.choice([
        lambda: traceback(R.randint(2, 5), [f"FileNotFoundError: [Errno 2] No such file or directory: '{path}'"]),
        lambda: [f"python: can't open file '/workspace/{R.choice(['trian.py', 'scripts/finetune.py'])}': [Errno 2] No such file or directory"],
        lambda: traceback(3, ["OSError: /models/llama-7b does not appear to have a file named config.json. Checkout 'https://huggingface.co//models/llama-7b/tree/None' for available files."]),
        lambda: traceback(2, ["tensorflow.python.framework.errors_impl.NotFoundError: /data/tfrecords/train-*.tfrecord; No such file or directory"]),
        lambda: traceback(4, [f"FileNotFoundError: Checkpoint at {path} not found. Aborting training."]),
        lambda: ["bash: /workspace/run_pretrain.sh: No such file or directory"],
    ])()


def snip_nan(fw: str) -> list[str]:
    return R.choice([
        lambda: progress(fw, 3, nan_at=2) + traceback(2, ["RuntimeError: Loss is NaN at step 1200, stopping training."]),
        lambda: progress(fw, 4, nan_at=3) + ["ValueError: loss is nan, aborting"],
        lambda: ["Batch 4120: Invalid loss, terminating training", "4120/6250 [==================>...........] - ETA: 1:02 - loss: nan - accuracy: 0.1000"],
        lambda: ["[2024-03-11 09:44:00,000] [INFO] [loss_scaler.py:190:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 2, reducing to 1",
                 *traceback(2, ["Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run."])],
        lambda: traceback(3, ["FloatingPointError: invalid value (nan) encountered in jit(train_step)"]),
        lambda: traceback(3, ["RuntimeError: Function 'LogSoftmaxBackward0' returned nan values in its 0th output."]),
        lambda: progress(fw, 2) + ["Detected NaN loss at step 850; terminating.", "lightning.fabric.utilities.exceptions.MisconfigurationException: Stopping: train_loss is not finite"],
    ])()


def snip_image_pull() -> list[str]:
    img = R.choice(["nvcr.io/nvidia/pytorch:24.03-py3x", "ghcr.io/acme/trainer:v2.1.0-rc", "docker.io/library/pytorch:lates", "nvcr.io/nvidia/nemo:24.05"])
    return R.choice([
        lambda: [f"2024-03-11T10:00:25Z  Normal   Pulling   Pulling image \"{img}\"", f"2024-03-11T10:00:40Z  Warning  Failed    Failed to pull image \"{img}\": rpc error: code = NotFound desc = failed to pull and unpack image \"{img}\": failed to resolve reference \"{img}\": {img}: not found",
                 "2024-03-11T10:00:40Z  Warning  Failed    Error: ErrImagePull", f"2024-03-11T10:01:10Z  Normal   BackOff   Back-off pulling image \"{img}\""],
        lambda: [f"2024/03/11 10:00:40 [train] Failed: Failed to pull image \"{img}\": unauthorized: authentication required", "2024/03/11 10:01:10 [train] Failed: Error: ImagePullBackOff"],
        lambda: [f"pyxis: importing docker image: {img}", "pyxis: failed to import docker image", f"pyxis: printing enroot log file:", f"pyxis:     [ERROR] URL https://nvcr.io/proxy_auth?scope=repository returned error code: 401 Unauthorized", "srun: error: gpu-node-4: task 0: Exited with exit code 1"],
        lambda: ["Status: FAILED_IMAGE_PULL", f"task 'train' failed: Error response from daemon: manifest for {img} not found: manifest unknown: manifest unknown"],
    ])()


def snip_unschedulable() -> list[str]:
    return R.choice([
        lambda: ["2024-03-11T17:01:05Z  Warning  FailedScheduling  0/12 nodes are available: 4 Insufficient nvidia.com/gpu, 8 node(s) didn't match Pod's node affinity/selector. preemption: 0/12 nodes are available: 12 Preemption is not helpful for scheduling."],
        lambda: ["2024/03/11 17:01:05 [train] PodScheduled: False, Reason: Unschedulable, Message: 0/6 nodes are available: 6 Insufficient memory. preemption: 0/6 nodes are available: 6 No preemption victims found for incoming pod."],
        lambda: ["JobId=88123 JobName=pretrain UserId=alice(1001) JobState=PENDING Reason=QOSMaxGRESPerUser Dependency=(null)", "   88123     gpu  pretrain    alice  PENDING       0:00      4 (QOSMaxGRESPerUser)"],
        lambda: ["   JOBID PARTITION     NAME     USER    STATE       TIME  NODES NODELIST(REASON)", "   51234       a100  finetune    bob  PENDING       0:00      1 (ReqNodeNotAvail, UnavailableNodes:node-[01-04])"],
        lambda: ["JobId=7 JobName=wrap JobState=PENDING Reason=PartitionConfig Dependency=(null) Requeue=1 Restarts=0"],
        lambda: ["2024-03-11T17:05:00Z  Warning  FailedScheduling  0/3 nodes are available: 3 node(s) had untolerated taint {nvidia.com/gpu: present}. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
                 "Status: FAILED_QUEUE_TIMEOUT"],
        lambda: ["2024-03-11T17:05:00Z  Warning  FailedScheduling  0/8 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/8 nodes are available: 8 Preemption is not helpful for scheduling."],
    ])()


def snip_timeout() -> list[str]:
    jid = R.randint(1000, 99999)
    return R.choice([
        lambda: [f"slurmstepd: error: *** JOB {jid} ON gpu-node-{R.randint(1,40)} CANCELLED AT 2024-03-12T09:00:01 DUE TO TIME LIMIT ***"],
        lambda: [f"slurmstepd-dgx-{R.randint(1,9)}: error: *** STEP {jid}.0 ON dgx-3 CANCELLED AT 2024-03-12T09:00:01 DUE TO TIME LIMIT ***", f"srun: Job step aborted: Waiting up to 32 seconds for job step to finish.", f"{jid}|pretrain|TIMEOUT|0:15|2024-03-11T09:00:00|2024-03-12T09:00:01"],
        lambda: ["Status: FAILED_EXEC_TIMEOUT", "task 'train' was terminated: exceeded exec_timeout of 4h"],
        lambda: ["Warning  DeadlineExceeded  Job was active longer than specified deadline"],
        lambda: [f"JobId={jid} JobName=train JobState=TIMEOUT Reason=TimeLimit Dependency=(null) ExitCode=0:15 RunTime=04:00:12 TimeLimit=04:00:00"],
    ])()


def snip_disk_full() -> list[str]:
    return R.choice([
        lambda: traceback(3, ["OSError: [Errno 28] No space left on device: '/workspace/checkpoints/step_12000/model.safetensors'"]),
        lambda: traceback(2, ["RuntimeError: [enforce fail at inline_container.cc:595] . unexpected pos 1073741952 vs 1073741844", "OSError: [Errno 28] No space left on device"]),
        lambda: ["2024-03-11T11:00:00Z  Warning  Evicted  The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 2Gi. Container train was using 180Gi, request is 0, has larger consumption of ephemeral-storage."],
        lambda: ["tar: shards/shard-0042.tar: Wrote only 4096 of 10240 bytes", "tar: Exiting with failure status due to previous errors", "cp: error writing '/scratch/cache/model.bin': Disk quota exceeded"],
        lambda: traceback(2, ["sqlite3.OperationalError: database or disk is full"]),
    ])()


def snip_cuda_driver() -> list[str]:
    return R.choice([
        lambda: traceback(3, ["RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver."]),
        lambda: traceback(2, ["RuntimeError: CUDA error: no kernel image is available for execution on the device", "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."]),
        lambda: ["nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown"],
        lambda: traceback(2, ["RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx"]),
        lambda: ["[  123.456] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.", *traceback(1, ["RuntimeError: CUDA error: unknown error"])],
        lambda: traceback(2, ["jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU devices."]),
        lambda: traceback(3, ["RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu."]),
    ])()


def snip_device_assert() -> list[str]:
    return R.choice([
        lambda: ["../aten/src/ATen/native/cuda/Loss.cu:250: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed.",
                 *traceback(3, ["RuntimeError: CUDA error: device-side assert triggered", "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect."])],
        lambda: ["../aten/src/ATen/native/cuda/Indexing.cu:1290: indexSelectLargeIndex: block: [12,0,0], thread: [64,0,0] Assertion `srcIndex < srcSelectDimSize` failed.", *traceback(2, ["RuntimeError: CUDA error: device-side assert triggered"])],
        lambda: traceback(4, ["RuntimeError: CUDA error: an illegal memory access was encountered", "For debugging consider passing CUDA_LAUNCH_BLOCKING=1."]),
    ])()


def snip_auth() -> list[str]:
    return R.choice([
        lambda: traceback(3, ["huggingface_hub.errors.GatedRepoError: 403 Client Error. (Request ID: Root=1-65ef)", "Cannot access gated repo for url https://huggingface.co/meta-llama/Llama-2-7b-hf/resolve/main/config.json.", "Access to model meta-llama/Llama-2-7b-hf is restricted. You must be authenticated to access it."]),
        lambda: traceback(3, ["botocore.exceptions.NoCredentialsError: Unable to locate credentials"]),
        lambda: traceback(2, ["botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the GetObject operation: Access Denied"]),
        lambda: traceback(2, ["PermissionError: [Errno 13] Permission denied: '/results/run-12/metrics.json'"]),
        lambda: ["wandb: ERROR api_key not configured (no-tty). call wandb.login(key=[your_api_key])", *traceback(1, ["wandb.errors.UsageError: api_key not configured (no-tty). call wandb.login(key=[your_api_key])"])],
        lambda: ["bash: ./launch.sh: Permission denied"],
        lambda: traceback(3, ["google.auth.exceptions.DefaultCredentialsError: Your default credentials were not found. To set up Application Default Credentials, see https://cloud.google.com/docs/authentication/external/set-up-adc for more information."]),
    ])()


def snip_network() -> list[str]:
    return R.choice([
        lambda: traceback(4, ["OSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files and it looks like bert-base-uncased is not the path to a directory containing a file named config.json."]),
        lambda: traceback(3, ["requests.exceptions.ConnectionError: HTTPSConnectionPool(host='storage.googleapis.com', port=443): Max retries exceeded with url: /datasets/c4/en/c4-train.00001-of-01024.json.gz (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution'))"]),
        lambda: traceback(2, ["urllib.error.URLError: <urlopen error [Errno 110] Connection timed out>"]),
        lambda: ["curl: (6) Could not resolve host: download.pytorch.org"],
        lambda: traceback(3, ["requests.exceptions.HTTPError: 503 Server Error: Service Unavailable for url: https://cdn-lfs.huggingface.co/repos/ab/cd/model.safetensors"]),
        lambda: traceback(2, ["requests.exceptions.ChunkedEncodingError: ('Connection broken: IncompleteRead(1048576 bytes read, 3145728 more expected)', IncompleteRead(1048576 bytes read, 3145728 more expected))"]),
    ])()


def snip_preempted() -> list[str]:
    jid = R.randint(1000, 99999)
    return R.choice([
        lambda: [f"slurmstepd: error: *** JOB {jid} ON node-22 CANCELLED AT 2024-03-11T13:00:00 DUE TO PREEMPTION ***"],
        lambda: ["Status: FAILED_PREEMPTED", "task 'train' was preempted by a higher priority workflow"],
        lambda: [f"{jid}|train|NODE_FAIL|0:0|2024-03-11T10:00:00|2024-03-11T12:13:14", f"slurmstepd: error: *** JOB {jid} ON node-5 CANCELLED AT 2024-03-11T12:13:14 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***"],
        lambda: ["2024-03-11T13:00:00Z  Warning  NodeNotReady  Node is not ready", "2024-03-11T13:00:30Z  Normal   Killing       Stopping container train", "The pod was preempted: spot instance interruption notice received"],
        lambda: ["Epoch 3:  41%|████      | 410/1000", "[rank: 0] Received SIGTERM: 15", "Bypassing SIGTERM: 15", "Your job was preempted; requeueing"],
    ])()


def snip_segfault() -> list[str]:
    return R.choice([
        lambda: ["Fatal Python error: Segmentation fault", "", "Thread 0x00007f3a (most recent call first):", '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/data/_utils/worker.py", line 302 in _worker_loop', "Segmentation fault (core dumped)"],
        lambda: traceback(3, ["RuntimeError: DataLoader worker (pid 1931) is killed by signal: Segmentation fault. "]),
        lambda: ["*** SIGSEGV (@0x0) received by PID 412 (TID 0x7f1c) from PID 0; stack trace: ***", "    @     0x7f1c3a2b4420 (unknown)", "    @     0x7f1b9c0e12aa c10::cuda::CUDACachingAllocator::raw_alloc()", "/tmp/entry.sh: line 7:   412 Segmentation fault      (core dumped) python train.py"],
        lambda: ["double free or corruption (!prev)", "Aborted (core dumped)", "srun: error: node-3: task 2: Aborted (core dumped)"],
        lambda: ["torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -11) local_rank: 0 (pid: 812) of binary: /usr/bin/python", "Signal 11 (SIGSEGV) received by PID 812"],
    ])()


def snip_output_missing() -> list[str]:
    return R.choice([
        lambda: ["Saving 1000 images to {{outputs}}/images", "Generation complete", "[osmo] Uploading outputs from /osmo/output: 0 files uploaded"],
        lambda: ["Writing checkpoint to {{outputs}}/model.pt", "Done."],
        lambda: ["Training complete; final model saved to ./model", "[osmo] No files found to upload in output directory"],
    ])()


def snip_validation() -> list[str]:
    return R.choice([
        lambda: ["ERROR: Workflow submission failed capacity validation.", "", "The requested resources exceed what any single node in pool 'a100-west' can provide.", "",
                 "Task: train", "  Resource   Requested   Node capacity", "  --------   ---------   -------------", "  gpu        8           8", "  cpu        256         128", "  memory     4000Gi      1024Gi"],
        lambda: ["sbatch: error: Memory specification can not be satisfied", "sbatch: error: Batch job submission failed: Requested node configuration is not available"],
        lambda: ["sbatch: error: Batch job submission failed: Invalid partition name specified"],
        lambda: ['Error from server (Forbidden): error when creating "job.yaml": admission webhook "validate.kyverno.svc" denied the request: resource limits are required'],
    ])()


def snip_user_code() -> list[str]:
    return R.choice([
        lambda: traceback(R.randint(2, 6), ["KeyError: 'input_ids'"]),
        lambda: traceback(3, ["RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x512 and 768x10)"]),
        lambda: traceback(3, ["AttributeError: 'NoneType' object has no attribute 'shape'"]),
        lambda: traceback(2, ["TypeError: forward() got an unexpected keyword argument 'labels'"]),
        lambda: traceback(4, ["ValueError: Expected input batch_size (32) to match target batch_size (31)."]),
        lambda: traceback(2, ['  File "/workspace/train.py", line 88', "    for epoch in range(epochs)", "                              ^", "SyntaxError: expected ':'"]),
        lambda: traceback(3, ["RuntimeError: Error(s) in loading state_dict for ResNet:", "\tsize mismatch for fc.weight: copying a param with shape torch.Size([1000, 2048]) from checkpoint, the shape in current model is torch.Size([10, 2048])."]),
        lambda: traceback(2, ["AssertionError: num_heads must divide hidden_size"]),
        lambda: traceback(3, ["ZeroDivisionError: division by zero"]),
        lambda: ["Error executing job with overrides: ['trainer.max_epochs=10']", *traceback(2, ["omegaconf.errors.ConfigAttributeError: Key 'optimizer' is not in struct", "    full_key: model.optimizer", "    object_type=dict"])],
    ])()


def snip_unknown() -> list[str]:
    return R.choice([
        lambda: ["Process exited with code 3", "srun: error: node-9: task 0: Exited with exit code 3"],
        lambda: ["torch.distributed.elastic.multiprocessing.errors.ChildFailedError:", "============================================================", "train.py FAILED", "Root Cause (first observed failure):", "[0]:", "  exitcode  : 1 (pid: 4412)", "  error_file: <N/A>", "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"],
        lambda: ["48213|train|FAILED|2:0|2024-03-11T10:00:00|2024-03-11T10:05:00"],
        lambda: ["Workflow terminated abnormally, view task status at: https://osmo.example.com/workflows/x-12"],
    ])()


SNIPS = {
    "gpu_oom": lambda fw: snip_gpu_oom(), "host_oom": lambda fw: snip_host_oom(), "nccl_or_distributed": lambda fw: snip_nccl(),
    "missing_dependency": lambda fw: snip_missing_dep(), "file_not_found": lambda fw: snip_file_not_found(), "nan_loss": snip_nan,
    "image_pull": lambda fw: snip_image_pull(), "unschedulable": lambda fw: snip_unschedulable(), "timeout": lambda fw: snip_timeout(),
    "disk_full": lambda fw: snip_disk_full(), "cuda_driver": lambda fw: snip_cuda_driver(), "device_assert": lambda fw: snip_device_assert(),
    "permission_or_auth": lambda fw: snip_auth(), "network_download": lambda fw: snip_network(), "preempted": lambda fw: snip_preempted(),
    "segfault": lambda fw: snip_segfault(), "output_missing": lambda fw: snip_output_missing(), "validation_error": lambda fw: snip_validation(),
    "user_code_error": lambda fw: snip_user_code(), "unknown": lambda fw: snip_unknown(),
}
# labels whose logs have no training phase (the task never ran, or it is a submit/queue message)
NO_TRAINING = {"image_pull", "unschedulable", "validation_error"}

# misleading text: before the real error (warnings that mention other failure classes) and after it
MISLEAD_BEFORE = [
    "UserWarning: CUDA out of memory warning threshold reached; consider reducing batch size",
    "node-1:77:90 [0] NCCL WARN Connect to 10.0.0.2<43127> failed : Connection refused, retrying",
    "WARNING: Could not find a version that satisfies the requirement nvidia-dali-cuda110 (optional)",
    "wandb: WARNING Network error (ConnectionError), entering retry loop.",
    "[W CUDAAllocatorConfig.h:28] Warning: expandable_segments not supported on this platform",
    "FutureWarning: `resume_download` is deprecated and will be removed in version 1.0.0.",
]
MISLEAD_AFTER = [  # noise other ranks/launchers print once the root error happened
    "[rank1]:[E ProcessGroupNCCL.cpp:1182] [Rank 1] NCCL communicator was aborted on rank 1.",
    "torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) local_rank: 0 (pid: 1931) of binary: /usr/bin/python3",
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
    "srun: error: gpu-node-3: task 0: Exited with exit code 1",
    "wandb: WARNING Network error (ReadTimeout), entering retry loop.",
    "[2024-03-11 09:50:00,000] [WARNING] [launch.py:322:sigkill_handler] Killing subprocess 1931",
    "Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ at 0x7f>",
]
# a second, *later* real-looking error that is a consequence (misleading final error)
MISLEAD_FINAL = {
    "gpu_oom": ["[rank0]:[E ProcessGroupNCCL.cpp:563] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=91, OpType=ALLREDUCE) ran for 1800000 milliseconds before timing out."],
    "missing_dependency": ["RuntimeError: Worker exited unexpectedly"],
    "file_not_found": ["torch.distributed.DistBackendError: [2] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Connection reset by peer"],
    "user_code_error": ["RuntimeError: NCCL communicator was aborted on rank 2."],
    "nan_loss": ["RuntimeError: stopping because of previous errors"],
}

PREFIXES = {
    "plain": lambda i, l: l,
    "osmo": lambda i, l: f"2024/03/11 09:{12 + i // 60:02d}:{i % 60:02d} [train] {l}",
    "rank": lambda i, l: f"[rank{R.choice([0, 0, 1, 3])}]: {l}" if l and not l.startswith(("[rank", "20")) else l,
    "srun": lambda i, l: f"{R.choice([0, 1])}: {l}" if l else l,
    "bracket_ts": lambda i, l: f"[2024-03-11 09:{12 + i // 60:02d}:{i % 60:02d}] {l}",
}


def render(lines: list[str], style: str) -> str:
    fn = PREFIXES[style]
    return "\n".join(fn(i, ln) for i, ln in enumerate(lines)) + "\n"


def failure_log(label: str, k: int) -> str:
    fw = R.choice(list(BANNERS))
    lines: list[str] = []
    tricky = k % 4  # 0 plain, 1 misleading warning before, 2 misleading final error, 3 trailing warning
    if label not in NO_TRAINING:
        lines += BANNERS[fw][: R.randint(1, len(BANNERS[fw]))]
        lines += R.sample(BENIGN, R.randint(1, 5))
        lines += progress(fw, R.randint(0, 6))
    if tricky == 1 or (label in NO_TRAINING and R.random() < 0.3):
        lines.append(R.choice(MISLEAD_BEFORE))
        lines += progress(fw, R.randint(1, 3)) if label not in NO_TRAINING else []
    lines += SNIPS[label](fw)
    if tricky == 2 and label in MISLEAD_FINAL:
        lines += ["", *traceback(2, MISLEAD_FINAL[label])] if not MISLEAD_FINAL[label][0].startswith("[") else MISLEAD_FINAL[label]
    if tricky in (2, 3) and label not in NO_TRAINING | {"output_missing"}:
        lines += R.sample(MISLEAD_AFTER, R.randint(1, 3))
    if tricky == 3:
        lines.append(R.choice(BENIGN))
    style = "plain" if label in NO_TRAINING and R.random() < 0.6 else R.choice(list(PREFIXES))
    return render(lines, style)


def healthy_log(k: int) -> str:
    fw = list(BANNERS)[k % len(BANNERS)]
    lines = BANNERS[fw] + R.sample(BENIGN, R.randint(4, 10)) + progress(fw, R.randint(5, 20))
    lines += R.sample(BENIGN, R.randint(1, 4)) + progress(fw, R.randint(2, 6))
    lines += R.choice([["Training complete.", "Saved final model to /osmo/output/model"], ["`Trainer.fit` stopped: `max_epochs=3` reached."],
                       ["***** train metrics *****", "  epoch = 3.0", "  train_loss = 0.3121"], [" [after training is done] datetime: 2024-03-11 18:00:00"],
                       ["48213|train|COMPLETED|0:0|2024-03-11T09:00:00|2024-03-11T18:00:00"], ["Process exited with code 0"]])
    return render(lines, R.choice(list(PREFIXES)))


def main() -> None:
    out = HERE / "logs"
    out.mkdir(exist_ok=True)
    for old in out.glob("*.log"):
        old.unlink()
    labels: dict[str, str] = {}
    per_label = {lab: 8 for lab in SNIPS}
    per_label["unknown"] = 4
    per_label["user_code_error"] = 10
    for label, n in per_label.items():
        for k in range(n):
            name = f"{label}_{k:02d}.log"
            (out / name).write_text(failure_log(label, k))
            labels[name] = label
    for k in range(25):
        name = f"healthy_{k:02d}.log"
        (out / name).write_text(healthy_log(k))
        labels[name] = "healthy"
    (HERE / "labels.json").write_text(json.dumps(labels, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(labels)} logs ({sum(v != 'healthy' for v in labels.values())} failures)")


if __name__ == "__main__":
    main()
