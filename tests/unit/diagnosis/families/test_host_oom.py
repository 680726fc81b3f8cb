"""The host_oom family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import assert_read_as, diagnose_dev, read_by_rules, root_line_cases

TB = 'Traceback (most recent call last):\n  File "train.py", line 10, in <module>\n    main()\n'


@pytest.mark.parametrize("case_id", ["a-0188", "a-0089", "a-0093"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "host_oom"


def test_ray_and_lsf_memory_kills() -> None:
    ray = (
        "(raylet) [2025-04-02 15:02:00,117 E 135782 135782] (raylet) node_manager.cc:3069: 1 Workers (tasks / "
        "actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node\n"
    )
    assert diagnose_log_text(ray).label == "host_oom"
    assert diagnose_log_text("TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.\n").label == "host_oom"


def test_exit_137_alone_is_only_probably_memory() -> None:
    d = diagnose_log_text("srun: error: node1: task 0: Exited with exit code 137\n")
    assert d.label == "host_oom" and d.confidence <= 0.6 and d.what_would_confirm


@pytest.mark.parametrize(
    "log",
    [
        # SIGKILL with no other cue, in the launchers' and runtimes' words; the kernel's and the schedulers' kills
        "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 4321) of "
        "binary: /usr/bin/python\n",
        "  rank      : 0 (local_rank: 0)\n  exitcode  : -9 (pid: 4321)\n  error_file: <N/A>\n"
        "  traceback : Signal 9 (SIGKILL) received by PID 4321\n",
        "subprocess.CalledProcessError: Command '['python', 'train.py']' died with <Signals.SIGKILL: 9>.\n",
        "srun: error: node01: task 0: Killed\n",
        "**Killed**\n",
        "Command exited with non-zero status 137\n",
        "abc123   trainer   Exited (137) 2 minutes ago\n",
        "[12345.678] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),task=python,pid=1,uid=1\n",
        "=>> PBS: job killed: mem 33554432kb exceeded limit 16777216kb\n",
        "Job ID: 5678\nState: OUT_OF_MEMORY (exit code 0)\nMemory Efficiency: 99.7% of 32.00 GB\n",
        "    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n",
        "Warning  Evicted  3m  kubelet  The node had condition: [MemoryPressure].\n",
        "Container [pid=1,containerID=c_1] is running beyond physical memory limits. Killing container.\n",
        # a site's memory watcher, and the job's allowance named other ways
        "ERROR:smemwatch:This job has exceeded its memory quota and will be terminated\n",
        "slurmstepd: error: Job 4242 exceeded the job's memory allocation, killing it\n",
    ],
)
def test_memory_kills_in_every_wording(log: str) -> None:
    assert diagnose_log_text(log).label == "host_oom", log


def test_too_much_at_once_is_reduced_not_given_more_memory() -> None:
    """Ray's memory monitor and killed data-loader workers: the threads run less at once (the spec's memory is
    not doubled); a container over its limit gets more memory."""
    ray = "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n"
    loader = "RuntimeError: DataLoader worker (pid 19597) is killed by signal: Killed.\n"
    for log in (ray, loader):
        d = diagnose_log_text(log)
        assert (d.label, d.fix.kind) == ("host_oom", "reduce_memory"), log
    limit = diagnose_log_text(
        "    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n"
    )
    assert limit.fix.kind == "increase_memory"


def test_a_reduce_verdict_never_patches_the_memory_up() -> None:
    from runshepherd.diagnosis.fixes import propose_fix

    d = diagnose_log_text("ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n")
    spec = "workflow:\n  name: w\n  tasks:\n  - name: t\n    image: python:3.11\n    command: [python]\n    resources:\n      memory: 8Gi\n"
    fix = propose_fix(d, spec)
    assert fix.kind == "reduce_memory" and fix.patch is None


def test_htcondor_holds_a_job_for_its_memory() -> None:
    log = "1050981.0   dbrown  11/7 23:48 Job in status 2 put on hold by SYSTEM_PERIODIC_HOLD due to memory usage 3000000.\n"
    assert diagnose_log_text(log).label == "host_oom"


def test_the_kernels_global_oom_killer_means_the_machine_ran_out() -> None:
    """No memory limit was set for the job (constraint=CONSTRAINT_NONE): there is no request to raise."""
    glob = (
        "[441280.83] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,"
        "task_memcg=/user.slice,task=python,pid=698405,uid=1000\n"
    )
    limit = "[12345.678] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),task=python,pid=1,uid=1\n"
    assert diagnose_log_text(glob).fix.kind == "reduce_memory"
    assert diagnose_log_text(limit).fix.kind == "increase_memory"


@pytest.mark.parametrize(
    "log",
    [
        # HTCondor starter ("Job has gone over cgroup memory limit of %lld megabytes. …")
        "012 (123.000.000) 11/07 23:48:12 Job was held.\n\tJob has gone over cgroup memory limit of 2048 megabytes. "
        "Last measured usage: 2100 megabytes.  Consider resubmitting with a higher request_memory.\n",
        # ECS / AWS Batch statusReason
        "statusReason: OutOfMemoryError: Container killed due to memory usage\n",
        # Grid Engine execd ("exceeds job hard limit … - sending SIGKILL")
        'job 123 exceeds job hard limit "h_vmem" of queue "all.q@node1" (4294967296.00000 > limit:4294967296.00000) '
        "- sending SIGKILL\n",
        # Dask's nanny (a WARNING line)
        "distributed.nanny - WARNING - Worker tcp://127.0.0.1:4000 (pid=123) exceeded 95% memory budget. "
        "Restarting...\n",
    ],
)
def test_memory_kills_by_other_schedulers(log: str) -> None:
    d = diagnose_log_text(log)
    assert d.label == "host_oom", log


def test_srun_reports_several_tasks_killed_by_the_oom_handler() -> None:
    # Slurm src/srun/launch.c: error("%s: %s %s: Out Of Memory", hosts, task_str, tasks)
    assert diagnose_log_text("srun: error: node3: tasks 0-7: Out Of Memory\n").label == "host_oom"


@pytest.mark.parametrize(
    "log",
    [
        # PyTorch c10/core/impl/alloc_cpu.cpp (POSIX and Windows wordings)
        "RuntimeError: [enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can't allocate memory: you "
        "tried to allocate 5368709120 bytes. Error code 12 (Cannot allocate memory)\n",
        "RuntimeError: [enforce fail at ..\\c10\\core\\impl\\alloc_cpu.cpp:72] data. DefaultCPUAllocator: not enough "
        "memory: you tried to allocate 1073741824 bytes.\n",
        # TensorFlow's BFC/CPU allocator naming the CPU device; XLA's CPU client
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with "
        "shape[64,512,512] and type float on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu\n",
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory allocating 123456 bytes on TFRT_CPU_0\n",
    ],
)
def test_a_runtime_out_of_memory_on_the_cpu_device_is_host_ram(log: str) -> None:
    d = diagnose_log_text(log)
    # no limit killed it: the machine's RAM ran out, so the batch/model has to shrink
    assert (d.label, d.fix.kind) == ("host_oom", "reduce_memory"), log


def test_the_same_runtime_out_of_memory_on_a_gpu_stays_gpu_oom() -> None:
    log = (
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with "
        "shape[64,512,512] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
    )
    assert diagnose_log_text(log).label == "gpu_oom"


def test_lsf_swap_limit_kill() -> None:
    # LSF termination reason TERM_SWAP (bjobs -l / the job report)
    assert diagnose_log_text("TERM_SWAP: job killed after reaching LSF swap usage limit.\n").label == "host_oom"


@pytest.mark.parametrize("case_id", ["l-0001", "l-0028"])
def test_a_sigkill_reported_by_go_or_by_the_shells_job_table(case_id: str) -> None:
    """ollama's runner dies with Go's ``signal: killed``; zsh's job table says ``[1]    2843557 killed``."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "host_oom" and d.confidence <= 0.75


@pytest.mark.parametrize(
    "log",
    [
        "[1]+  Killed                  python train.py\n",  # bash's job table
        "zsh: killed     python train.py\n",
        "Killed: 9\n",  # macOS bash: BSD strsignal plus the signal number
        "torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with signal SIGKILL\n",
    ],
)
def test_sigkill_in_each_shells_and_runtimes_words(log: str) -> None:
    d = diagnose_log_text(log)
    assert d.label == "host_oom" and d.confidence <= 0.75, log


def test_notebook_hosts_and_windows_say_the_ram_ran_out_in_their_own_words() -> None:
    colab = "Your session crashed after using all available RAM.\n"
    kaggle = "Your notebook tried to allocate more memory than is available. It has restarted.\n"
    for log in (colab, kaggle):
        assert diagnose_log_text(log).label == "host_oom", log
    # ERROR_COMMIT_LIMIT while data-loader workers load torch's DLLs: fewer workers (or a larger paging file)
    win = (
        "OSError: [WinError 1455] The paging file is too small for this operation to complete. Error loading "
        '"C:\\Users\\me\\miniconda3\\lib\\site-packages\\torch\\lib\\cudnn_adv_infer64_8.dll" or one of its dependencies.\n'
    )
    d = diagnose_log_text(win)
    assert (d.label, d.fix.kind) == ("host_oom", "reduce_memory")


def test_a_macos_bus_error_is_a_native_crash_not_shared_memory() -> None:
    assert diagnose_log_text("Bus error: 10\n").label == "segfault"
    assert diagnose_log_text("Bus error (core dumped)\n").label == "host_oom"


@pytest.mark.parametrize("case_id", ["l-0029", "f-0046", "i-0047"])
def test_an_allocation_refused_in_process_is_answered_by_using_less(case_id: str) -> None:
    """MemoryError, NumPy's array allocator, fork's ENOMEM: the program holds too much at once (the threads stream
    or batch it), not a scheduler limit to raise."""
    d, _, record = diagnose_dev(case_id)
    assert (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("host_oom", "reduce_memory")


def test_other_runtimes_heaps_and_a_vanished_data_loader_worker() -> None:
    assert diagnose_log_text("java.lang.OutOfMemoryError: Java heap space\n").label == "host_oom"
    assert diagnose_log_text("fatal error: runtime: out of memory\n").label == "host_oom"
    # torch/utils/data/dataloader.py: a worker that died without raising; weak, and answered with fewer workers
    d = diagnose_log_text("RuntimeError: DataLoader worker (pid(s) 12345, 12346) exited unexpectedly\n")
    assert (d.label, d.fix.kind) == ("host_oom", "reduce_memory") and d.confidence < 0.8


def test_deepspeeds_launcher_and_a_bus_error_signal() -> None:
    # DeepSpeed launch.py sigkill_handler: "<cmd> exits with return code = -9" (a child killed by SIGKILL)
    ds = (
        "[2023-11-28 10:00:34,590] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', 'train.py', "
        "'--local_rank=0'] exits with return code = -9\n"
    )
    d = diagnose_log_text(ds)
    assert d.label == "host_oom" and d.confidence <= 0.6
    # torchrun's error summary for a rank that died of SIGBUS: /dev/shm, not proven by the signal alone
    bus = "  exitcode  : -7 (pid: 1234)\n  error_file: <N/A>\n  traceback : Signal 7 (SIGBUS) received by PID 1234\n"
    d = diagnose_log_text(bus)
    assert d.label == "host_oom" and d.confidence <= 0.6 and "/dev/shm" in d.fix.description


def test_an_exit_code_in_parentheses() -> None:
    """w-0028 (Flyte): "[…-n0-0] terminated with exit code (137). Reason [Error]." was unknown: the exit code in
    parentheses was not read, so the kill by SIGKILL (137) was not seen."""
    d, _, record = diagnose_dev("w-0028")
    assert d.label == record["label"] == "host_oom"


def test_sacct_truncated_out_of_memory_state() -> None:
    # sacct's default State column is 10 characters wide and marks a cut value with '+' (https://slurm.schedmd.com/sacct.html)
    log = (
        "JobID           JobName  Partition    Account  AllocCPUS      State ExitCode\n"
        "------------ ---------- ---------- ---------- ---------- ---------- --------\n"
        "3764934.bat+      batch              rc_admin          1 OUT_OF_ME+    0:125\n"
    )
    assert diagnose_log_text(log).label == "host_oom"


def test_ray_object_store_and_memory_monitor_errors() -> None:
    # ray.exceptions (https://docs.ray.io/en/latest/ray-core/api/exceptions.html)
    for line in (
        "ray.exceptions.ObjectStoreFullError: Failed to put object ffffffffffffffffffffffffffffffffffffffff0100000001000000 in object store because it is full. Object size is 1048576 bytes.",
        "ray.exceptions.RayOutOfMemoryError: More than 95% of the memory on node ip-10-0-0-1 is used (30.1 / 31.3 GB).",
    ):
        assert diagnose_log_text(TB + line + "\n").label == "host_oom"


@root_line_cases(
    ("a-0008", "srun: error: Orion-01-01: task 4: Out Of Memory"),
    ("f-0017", "TERM_MEMLIMIT: job killed after reaching LSF memory usage limit"),
    ("f-0043", "instance of 'std::bad_alloc'"),
    ("a-0090", "已杀死"),
)
def test_root_line_vocabulary_reads_host_oom(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "host_oom", quoted)


def test_the_machines_memory_named_ram_is_host_memory() -> None:
    log = 'Traceback (most recent call last):\n  File "run.py", line 9, in <module>\n    load()\nValueError: Not enough RAM to load the dataset\n'
    assert diagnose_log_text(log).label == "host_oom"


def test_a_need_for_more_system_memory_than_the_machine_has_is_host_memory() -> None:
    log = "loading weights\nError: the model needs more system memory (96.0 GiB) than is available (31.2 GiB)\n"
    d = diagnose_log_text(log)
    assert d.label == "host_oom" and d.confidence < 0.8


def test_a_job_scripts_missing_module_command_the_program_ran_past_is_not_why_it_was_killed() -> None:
    # the shell goes on to the next line of the script: the program ran, logged, and was killed at the memory limit
    log = (
        "/var/tmp/slurmd_spool/job4242/slurm_script: line 13: module: command not found\n"
        "2025-01-09 20:05:21,949 - INFO - Testing model: gpt2\n"
        "2025-01-09 20:09:31,115 - DEBUG - Loaded model and tokenizer for gpt2\n"
        "2025-01-09 20:09:31,115 - INFO - Running layer identification experiment for model: gpt2\n"
        "2025-01-09 20:21:01,212 - DEBUG - Loaded and prepared dataset: wic, split: train\n"
        "2025-01-09 20:21:01,245 - DEBUG - Processing layer 0\n"
        "/var/tmp/slurmd_spool/job4242/slurm_script: line 23: 12219 Killed                  python run.py\n"
        "slurmstepd: error: Detected 1 oom_kill event in StepId=4242.batch. Some of the step tasks have been OOM Killed.\n"
    )
    assert diagnose_log_text(log).label == "host_oom"
    # the same missing command with nothing after it is what the log shows
    assert diagnose_log_text(log.splitlines(keepends=True)[0]).label == "missing_dependency"


def test_the_shells_killed_glued_to_a_keras_progress_line() -> None:
    # Keras' bar leaves no newline, so bash's "Killed" ends the bar's line (zzzn-0006)
    log = "Epoch 1/1\n165376/296960 [===============>..............] - ETA: 365s - loss: 2.1371Killed\n"
    assert diagnose_log_text(log).label == "host_oom"
    assert (
        diagnose_log_text("Epoch 1/1\n100/200 [====>.....] - ETA: 3s - loss: 0.5 - NotKilled ok\n").label != "host_oom"
    )


def test_windows_paging_file_exhausted_in_a_dataloader_worker_is_host_memory() -> None:
    # PyTorch on Windows reports ERROR_COMMITMENT_LIMIT as a code (zzzs-0125, zzi-0010)
    log = (
        "Traceback (most recent call last):\n"
        "RuntimeError: Caught RuntimeError in DataLoader worker process 1.\n"
        "RuntimeError: Couldn't open shared file mapping: <torch_262480_1726441913_4>, error code: <1455>\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("host_oom", "increase_memory")
    assert read_by_rules(log.replace("<1455>", "<5>")).label != "host_oom"


def test_old_torch_cpu_allocator_failing_with_enomem_is_host_memory() -> None:
    """torch <= 1.0's CPUAllocator check "posix_memalign(&data, gAlignment, nbytes) == 0. 12 vs 0" (12 is ENOMEM) is
    the host's RAM running out (retired blind v27's miss, zzzzu-0111); another errno is not."""
    log = (
        "Traceback (most recent call last):\n"
        "RuntimeError: [enforce fail at CPUAllocator.cpp:56] posix_memalign(&data, gAlignment, nbytes) == 0. 12 vs 0\n"
    )
    assert diagnose_log_text(log).label == "host_oom"
    assert read_by_rules(log.replace("12 vs 0", "22 vs 0")).label != "host_oom"


def test_a_metric_named_after_a_class_is_not_a_bus_error() -> None:
    # nuScenes' evaluation table names its error metrics per class ("bus error@trans"); a finished run prints it
    table = (
        "2023-02-25 05:23:21,506   INFO  *************** Performance of EPOCH 25 *****************\n"
        "***bus error@trans, scale, orient, vel, attr | AP@0.5, 1.0, 2.0, 4.0\n"
        "0.2954, 0.1834, 0.0577, 0.6094, 0.2361 | 63.41, 82.73, 87.54, 88.93\n"
        "2023-02-25 05:32:39,610   INFO  ****************Evaluation done.*****************\n"
    )
    assert diagnose_log_text(table).label == "healthy"
    # the signal's own words still read as a shared-memory bus error
    assert diagnose_log_text("Bus error (core dumped)\n").label == "host_oom"


RAY_WORKER_DIED = (
    "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
    "        class_name: create_colocated_worker_cls.<locals>.WorkerDict\n"
    "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: "
    "Worker unexpectedly exits with a connection error code 2. End of file. There are some potential root causes. "
    "(1) The process is killed by SIGKILL by OOM killer due to high memory usage. (2) ray stop --force is called. "
    "(3) The worker is crashed unexpectedly due to SIGSEGV or other unexpected errors.\n"
)


def test_a_ray_worker_that_died_without_a_reason_is_likeliest_the_oom_killer_not_a_segfault() -> None:
    """Ray lists the possible causes of a worker's death (OOM killer first, SIGSEGV third): a weak host-memory
    reading, never a segfault at 0.9, and the ActorDiedError above it is no bug in the code (dev zzzzzo-0008)."""
    d = diagnose_log_text(RAY_WORKER_DIED)
    assert d.label == "host_oom" and 0.5 <= d.confidence < 0.8
    assert "not proven" in d.explanation and d.fix.kind == "increase_memory"
    assert diagnose_dev("zzzzzo-0008")[0].label == "host_oom"
    # a worker Ray saw segfault, in its own words, stays a native crash
    crashed = "Fatal Python error: Segmentation fault\n" + RAY_WORKER_DIED
    assert diagnose_log_text(crashed).label == "segfault"


def test_out_of_host_memory_in_the_native_apis_words_is_host_memory_not_the_abort_after_it() -> None:
    """Blind v41 zzzzzzzq-0501 (ThunderSVM): "FATAL [default] out of host memory", then "Aborted (core dumped)", was
    read as a native crash (0.7). OpenCL and Vulkan name the same condition CL_OUT_OF_HOST_MEMORY and
    VK_ERROR_OUT_OF_HOST_MEMORY."""
    assert diagnose_dev("zzzzzzzq-0501")[0].label == "host_oom"
    for line in (
        "clEnqueueNDRangeKernel failed: CL_OUT_OF_HOST_MEMORY",
        "vkAllocateMemory: VK_ERROR_OUT_OF_HOST_MEMORY",
    ):
        assert diagnose_log_text(line + "\nAborted (core dumped)\n").label == "host_oom", line
    assert diagnose_log_text("VK_ERROR_OUT_OF_DEVICE_MEMORY\nAborted (core dumped)\n").label != "host_oom"
