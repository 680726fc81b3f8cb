"""Error-looking lines their emitters document as harmless, after which the run goes on: never failure evidence.

A run that does fail afterwards prints an error of its own (a missing package, a missing file), which a family
reads; these lines only stop a healthy run from being flagged."""

from __future__ import annotations

from runshepherd.diagnosis.formats import Marker

_SLURM_CGROUP = "https://github.com/SchedMD/slurm/blob/master/src/plugins/cgroup/v1/cgroup_v1.c"
# bitsandbytes' record of the native library it could not load (it goes on with a stand-in; the marker below, and
# errorblock, which marks the traceback logged under it as not raised)
BITSANDBYTES_FALLBACK = r"\bCould not load bitsandbytes native library\b"

MARKERS: tuple[Marker, ...] = (
    # slurmstepd's cgroup housekeeping as a step ends (moving the step's pids back to the root cgroup, unlocking or
    # removing the step's cgroup): the node's bookkeeping, after the job's own processes have exited
    Marker(
        "slurmstepd",
        "benign",
        r"^slurmstepd(?:-\S+)?: error: (?:common_file_write_uint32s: write pid \d+ to \S*cgroup\S*"
        r"|Unable to move pid \d+ to init root cgroup|error unlocking cgroup|Unable to remove cgroup|_?rmdir\(\S*cgroup)",
        "slurmstepd: error: Unable to move pid 1234 to init root cgroup",
        _SLURM_CGROUP,
    ),
    # slurmstepd could not enter the job's working directory and ran the job from /tmp instead
    Marker(
        "slurmstepd",
        "benign",
        r"^slurmstepd(?:-\S+)?: error: couldn't chdir to .*: going to /tmp instead",
        "slurmstepd: error: couldn't chdir to `/home/alice/run': No such file or directory: going to /tmp instead",
        "https://github.com/SchedMD/slurm/blob/master/src/slurmd/slurmstepd/mgr.c",
    ),
    # the same directory missing when slurmstepd runs a task prolog or epilog script as the user
    # (mgr.c _run_script_as_user): it logs the failed chdir and runs the script anyway; the epilog's copy comes after
    # the job's own processes have exited, so the job's failure, if any, is printed above it
    Marker(
        "slurmstepd",
        "benign",
        r"^slurmstepd(?:-\S+)?: error: run_script_as_user: couldn't change working dir to ",
        "slurmstepd: error: run_script_as_user: couldn't change working dir to /home/alice/run: No such file or "
        "directory",
        "https://github.com/SchedMD/slurm/blob/master/src/slurmd/slurmstepd/mgr.c",
    ),
    # conda's refusal of ``conda activate`` in a shell ``conda init`` never set up (a batch script): the script goes
    # on in the environment it already has (conda < 23: CommandNotFoundError; conda >= 23: CondaError)
    Marker(
        "conda",
        "benign",
        r"CommandNotFoundError: Your shell has not been properly configured to use 'conda activate'"
        r"|CondaError: Run 'conda init' before 'conda activate'",
        "CondaError: Run 'conda init' before 'conda activate'",
        "https://github.com/conda/conda/blob/main/conda/cli/main_mock_activate.py",
    ),
    # pip's resolver notice after an install that went through: it lists conflicts among what is installed (a run
    # that then breaks on one prints its own ImportError or version error)
    Marker(
        "pip",
        "benign",
        r"^ERROR: pip's dependency resolver does not currently take into account all the packages that are installed",
        "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. "
        "This behaviour is the source of the following dependency conflicts.",
        "https://pip.pypa.io/en/stable/topics/dependency-resolution/",
    ),
    # TensorFlow/XLA at start-up: the CUDA plugins registered twice (error severity, harmless), TF-TRT missing,
    # oneDNN's numerics notice, the CPU-instructions notice
    Marker(
        "tensorflow/xla",
        "benign",
        r"Unable to register cu(?:DNN|FFT|BLAS) factory",
        "E0000 00:00:1717000000.123456   12345 cuda_dnn.cc:8310] Unable to register cuDNN factory: Attempting to "
        "register factory for plugin cuDNN when one has already been registered",
        "https://github.com/openxla/xla/blob/main/xla/stream_executor/cuda/cuda_dnn.cc",
    ),
    Marker(
        "tensorflow",
        "benign",
        r"TF-TRT Warning",
        "W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT",
        "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/compiler/tf2tensorrt/utils/py_utils.cc",
    ),
    Marker(
        "tensorflow",
        "benign",
        r"oneDNN custom operations are on",
        "I tensorflow/core/util/port.cc:113] oneDNN custom operations are on. You may see slightly different numerical "
        "results due to floating-point round-off errors from different computation orders.",
        "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/core/util/port.cc",
    ),
    Marker(
        "tensorflow",
        "benign",
        r"This TensorFlow binary is",
        "This TensorFlow binary is optimized to use available CPU instructions in performance-critical operations.",
        "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/core/platform/cpu_feature_guard.cc",
    ),
    # error-severity (absl ``E0000``) lines XLA, TensorFlow and gRPC print on healthy runs: the slow-operation alarm
    # during compilation, the GPU timer's warm-up notice, gRPC's shutdown timeout at exit, the computation placer's
    # duplicate registration, grappler's optimisers giving up on one node
    Marker(
        "xla",
        "benign",
        r"Constant folding an instruction is taking|^The operation took [\dhms.]+$",
        "Constant folding an instruction is taking > 1s:",
        "https://github.com/openxla/xla/blob/main/xla/service/slow_operation_alarm.cc",
    ),
    Marker(
        "xla",
        "benign",
        r"Delay kernel timed out: measured time has sub-optimal accuracy",
        "Delay kernel timed out: measured time has sub-optimal accuracy. There may be a missing warmup execution, please investigate in Nsight Systems.",
        "https://github.com/openxla/xla/blob/main/xla/stream_executor/gpu/gpu_timer.cc",
    ),
    Marker(
        "grpc",
        "benign",
        r"grpc_wait_for_shutdown_with_timeout\(\) timed out",
        "E0000 00:00:1717000000.123456 12345 init.cc:232] grpc_wait_for_shutdown_with_timeout() timed out.",
        "https://github.com/grpc/grpc/blob/master/src/core/lib/surface/init.cc",
    ),
    Marker(
        "xla",
        "benign",
        r"computation placer already registered",
        "computation placer already registered. Please check linkage and avoid linking the same target more than once.",
        "https://github.com/openxla/xla/blob/main/xla/service/computation_placer.cc",
    ),
    Marker(
        "tensorflow grappler",
        "benign",
        r"meta_optimizer\.cc:\d+\] (?:layout|remapper|arithmetic_optimizer|constant_folding) failed",
        "E tensorflow/core/grappler/optimizers/meta_optimizer.cc:954] layout failed: INVALID_ARGUMENT: Size of values 0 does not match size of permutation 4 @ fanin shape",
        "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/core/grappler/optimizers/meta_optimizer.cc",
    ),
    # NCCL's debug output (NCCL_DEBUG=INFO): informational by definition
    Marker(
        "nccl",
        "benign",
        r"NCCL INFO",
        "node01:1234:1250 [0] NCCL INFO NET/IB : No device found.",
        "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-debug",
    ),
    # huggingface/tokenizers when the process forks after using its thread pool: it disables parallelism and goes on
    Marker(
        "tokenizers",
        "benign",
        r"tokenizers: The current process just got forked",
        "huggingface/tokenizers: The current process just got forked, after parallelism has already been used. Disabling parallelism to avoid deadlocks...",
        "https://github.com/huggingface/tokenizers/blob/main/bindings/python/src/utils/parallelism.rs",
    ),
    # wandb's system monitor when NVML cannot read a GPU counter: the run goes on
    Marker(
        "wandb",
        "benign",
        r"wandb: ERROR Failed to sample metric",
        "wandb: ERROR Failed to sample metric: Not Supported",
        "https://github.com/wandb/wandb/blob/main/wandb/sdk/internal/system/assets/gpu.py",
    ),
    # Ray's optional dashboard UI failing to start: services.py logs it at ERROR and goes on without it
    Marker(
        "ray",
        "benign",
        r"services\.py:\d+ -- (?:Failed to start the dashboard|Error should be written to 'dashboard\.log'"
        r"|Couldn't read dashboard\.log file|Failed to read dashboard\.err file)",
        "2024-01-01 10:00:00,000\tERROR services.py:1329 -- Failed to start the dashboard , return code 1",
        "https://github.com/ray-project/ray/blob/master/python/ray/_private/services.py",
    ),
    # xFormers at import on a machine without Triton (Windows): it names the missing module and carries on
    Marker(
        "xformers",
        "benign",
        r"A matching Triton is not available, some optimizations will not be enabled|Error caught was: No module named 'triton'",
        "A matching Triton is not available, some optimizations will not be enabled",
        "https://github.com/facebookresearch/xformers/blob/main/xformers/__init__.py",
    ),
    # JAX probing the platforms it was built for at start-up: a backend the machine does not have (no TPU, no ROCm)
    # is logged at INFO and skipped; the run goes on on the backends it has (a requested backend that fails is
    # raised, "RuntimeError: Unable to initialize backend 'cuda'", and a failed 'cuda' probe is left to the families)
    Marker(
        "jax",
        "benign",
        r"(?<!Error: )Unable to initialize backend '(?:tpu|tpu_driver|rocm|METAL)':",
        "I0808 20:59:00.964296 139857030612800 xla_bridge.py:328] Unable to initialize backend 'tpu': INTERNAL: "
        "Failed to open libtpu.so: libtpu.so: cannot open shared object file: No such file or directory",
        "https://github.com/jax-ml/jax/blob/main/jax/_src/xla_bridge.py",
    ),
    # an HTTP server's access log line for a request it answered with a client error (uvicorn, gunicorn, werkzeug
    # and nginx's combined format): the client asked for a wrong path or sent a bad body; the server is up and
    # answering (a 5xx, the server's own failure, is not this)
    Marker(
        "http access log",
        "benign",
        r'"(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) /\S* HTTP/\d(?:\.\d)?" 4\d\d\b',
        'INFO:     127.0.0.1:56148 - "GET /v1/models HTTP/1.1" 404 Not Found',
        "https://github.com/encode/uvicorn/blob/master/uvicorn/logging.py",
    ),
    # vLLM's scheduler taking a running request back to recompute (or swap) it later when the KV cache is full: a
    # performance notice of a server under load ("This can affect the end-to-end performance"); the job is not
    # preempted (the preempted family's "preempted by" reads a job's preemption), and every request is still answered
    Marker(
        "vllm",
        "benign",
        r"\bSequence group \S+ is preempted by PreemptionMode\.(?:RECOMPUTE|SWAP) mode because there is not enough KV "
        r"cache space",
        "WARNING 05-01 10:00:00 scheduler.py:1089] Sequence group 12 is preempted by PreemptionMode.RECOMPUTE mode "
        "because there is not enough KV cache space. This can affect the end-to-end performance. Increase "
        "gpu_memory_utilization or tensor_parallel_size to provide more KV cache memory. "
        "total_num_cumulative_preemption=1",
        "https://github.com/vllm-project/vllm/blob/v0.6.0/vllm/core/scheduler.py",
    ),
    # docker run's notice that the image is not in the local store, printed before it pulls it: a failed pull says so
    # in its own words after it (pull access denied, manifest unknown)
    Marker(
        "docker",
        "benign",
        r"^Unable to find image '[^']+' locally$",
        "Unable to find image 'hello-world:latest' locally",
        "https://github.com/docker/cli/blob/master/cli/command/container/create.go",
    ),
    # Snakemake's announcement of a job it schedules gives the reason it must run (dag.py, class Reason): its outputs
    # are not there yet, or its inputs changed; the normal course of a workflow, whatever the job then does
    Marker(
        "snakemake",
        "benign",
        r"^\s*reason: (?:Missing output files|Incomplete output files|Updated input files"
        r"|Input files updated by another job|Forced execution|Code has changed|Params have changed)\b",
        "    reason: Missing output files: results/HG00103_dropHeader.bam",
        "https://github.com/snakemake/snakemake/blob/v7.32.4/snakemake/dag.py",
    ),
    # an interactive bash (bash -i, a login shell) started without a terminal, as a container's entry point or a
    # batch step runs it: it cannot take the terminal for job control and says so, then runs the commands as usual
    # (jobs.c initialize_job_control)
    Marker(
        "bash",
        "benign",
        r"\bbash: (?:cannot set terminal process group \(-?\d+\): Inappropriate ioctl for device"
        r"|no job control in this shell)\b",
        "bash: cannot set terminal process group (-1): Inappropriate ioctl for device",
        "https://git.savannah.gnu.org/cgit/bash.git/tree/jobs.c",
    ),
    # vLLM probing FlashAttention for this GPU (fa_utils.get_flash_attn_version): it logs at ERROR that the version is
    # not supported (an older compute capability), its own assert then fails inside the probe, which returns None, and
    # vLLM picks another attention backend
    Marker(
        "vllm",
        "benign",
        r"\bCannot use FA version \d+ is not supported due to\b",
        "ERROR 08-03 15:21:53 [fa_utils.py:57] Cannot use FA version 2 is not supported due to FA2 is only supported"
        " on devices with compute capability >= 8",
        "https://github.com/vllm-project/vllm/blob/main/vllm/attention/utils/fa_utils.py",
    ),
    # a login shell's start-up file (~/.bashrc, ~/.bash_profile, ~/.profile) failing one of its own lines (sourcing a
    # file that is not there, a command not installed on this node): bash reports it and goes on reading the file,
    # then runs the job script; what the job itself then lacks, it reports in its own error
    Marker(
        "bash",
        "benign",
        r"^\S*/\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv): line \d+: ",
        "/home/u/.bashrc: line 2: /home/u/.cargo/env: No such file or directory",
        "https://www.gnu.org/software/bash/manual/html_node/Bash-Startup-Files.html",
    ),
    # RDKit refusing one molecule it was asked to parse or sanitize (a valence it does not permit, a ring it cannot
    # kekulize, a SMILES it cannot read, an SD record it skips): it logs the molecule's error and returns None for it,
    # and the caller skips that molecule; a caller that then chokes on the None raises its own Python error
    Marker(
        "rdkit",
        "benign",
        r"^(?:RDKit (?:ERROR|WARNING): )?(?:\[\d\d:\d\d:\d\d\] )?(?:ERROR: |WARNING: )?"
        r"(?:Explicit valence for atom # \d+ \w+, \d+, is greater than permitted|Can't kekulize mol\b"
        r"|SMILES Parse Error: |Could not sanitize molecule ending on line \d+)",
        "[09:09:32] Explicit valence for atom # 1 O, 3, is greater than permitted",
        "https://www.rdkit.org/docs/GettingStartedInPython.html",
    ),
    # SageMaker's training toolkit reading hyperparameters: a value that is not JSON is kept as the string it is
    # (environment.py read_hyperparameters logs this at INFO for every plain-string hyperparameter)
    Marker(
        "sagemaker-training-toolkit",
        "benign",
        r"\bFailed to parse hyperparameter \S+ value .* to Json\.|^\W*Returning the value itself\b",
        "2023-02-04 16:52:46,559 sagemaker-training-toolkit INFO     Failed to parse hyperparameter "
        "_tuning_objective_metric value average test loss to Json.",
        "https://github.com/aws/sagemaker-training-toolkit/blob/master/src/sagemaker_training/environment.py",
    ),
    # SageMaker Debugger's hook in a job without checkpointing configured: it notes the absent config file and runs on
    Marker(
        "smdebug",
        "benign",
        r"\bstate_store\.py:\d+\] The checkpoint config file \S+ does not exist\.",
        "[2022-11-13 14:57:12.183 algo-1:27 INFO state_store.py:77] The checkpoint config file "
        "/opt/ml/input/config/checkpointconfig.json does not exist.",
        "https://github.com/awslabs/sagemaker-debugger/blob/master/smdebug/core/state_store.py",
    ),
    # the Azure ML SDK (v1) failing to register an optional run type's entry point at import (a package version
    # clash in the environment): Microsoft's tutorials say these warnings can be ignored
    Marker(
        "azureml",
        "benign",
        r"\bFailure while loading azureml_run_type_providers\. Failed to load entrypoint ",
        "Failure while loading azureml_run_type_providers. Failed to load entrypoint azureml.scriptrun = "
        "azureml.core.script_run:ScriptRun._from_run_dto with exception (packaging 26.2, Requirement.parse(...))",
        "https://learn.microsoft.com/en-us/azure/machine-learning/tutorial-1st-experiment-hello-world",
    ),
    # httpx's INFO record of each request (huggingface_hub >= 1.0 fetches with httpx): the Hub answering 404 to a
    # probe for an optional file (additional_chat_templates, model.safetensors beside pytorch_model.bin); a file the
    # run needs that is missing raises its own error (EntryNotFoundError, OSError "does not appear to have a file")
    Marker(
        "httpx",
        "benign",
        r"\bHTTP Request: (?:GET|HEAD) https://huggingface\.co/\S+ \"HTTP/[\d.]+ 404 Not Found\"",
        "2026-04-13 14:58:30,339 - INFO - HTTP Request: GET https://huggingface.co/api/models/org/m/tree/main/"
        'additional_chat_templates?recursive=false "HTTP/1.1 404 Not Found"',
        "https://github.com/encode/httpx/blob/master/httpx/_client.py",
    ),
    # bitsandbytes (>= 0.43) failing to load its native library at import: cextension.py logs it at ERROR level with the
    # exception (and, on a machine with CUDA, its "CUDA Setup failed despite CUDA being available" advice) and goes on
    # with a stand-in that raises only when a native kernel is called, so a run that never quantises finishes, and one
    # that does fails later with that call's own error. (Before 0.43 bitsandbytes raised instead: "RuntimeError: CUDA
    # Setup failed despite GPU being available" stops the run and stays missing_dependency's.)
    Marker(
        "bitsandbytes",
        "benign",
        BITSANDBYTES_FALLBACK + r"|\bCUDA Setup failed despite CUDA being available\b",
        "[2025-06-20 18:54:22,342] [ERROR] [bitsandbytes.cextension.<module>:88] [PID:4129] Could not load "
        "bitsandbytes native library: .../bitsandbytes/libbitsandbytes_cpu.so: cannot open shared object file",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/blob/main/bitsandbytes/cextension.py",
    ),
)
