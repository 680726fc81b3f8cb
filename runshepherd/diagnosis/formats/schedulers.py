"""Schedulers' and launchers' records of a job that finished well or is running: Slurm, PBS/Torque, LSF, SGE/UGE,
HTCondor, Kubernetes, Ray jobs and Tune, SkyPilot, torchrun, MLflow Projects, Airflow."""

from __future__ import annotations

from runshepherd.diagnosis.formats import Marker

_SACCT = "https://slurm.schedmd.com/sacct.html#SECTION_JOB-STATE-CODES"
_SQUEUE = "https://slurm.schedmd.com/squeue.html#SECTION_JOB-STATE-CODES"
_SCONTROL = "https://slurm.schedmd.com/scontrol.html"
_SEFF = "https://github.com/SchedMD/slurm/blob/master/contribs/seff/seff"
_HTCONDOR = "https://htcondor.readthedocs.io/en/latest/codes-other-values/job-event-log-codes.html"
_K8S_POD = "https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#container-state-terminated"
_K8S_JOB = "https://kubernetes.io/docs/concepts/workloads/controllers/job/#running-an-example-job"
_RAY_JOBS = "https://docs.ray.io/en/latest/cluster/running-applications/job-submission/quickstart.html"
_TUNE_OUTPUT = "https://docs.ray.io/en/latest/tune/tutorials/tune-output.html"
_ELASTIC = "https://github.com/pytorch/pytorch/blob/main/torch/distributed/elastic/agent/server/api.py"
# the footer Kaldi's job wrappers write last when the job's command succeeded (read by the segfault family too)
KALDI_ENDED_WELL = r"^# Ended \(code 0\) at "
_LSF_BJOBS = "https://www.ibm.com/docs/en/SSWRJV_10.1.0/lsf_command_ref/bjobs.1.html"
_TORQUE_QSTAT = "https://linux.die.net/man/1/qstat-torque"

MARKERS: tuple[Marker, ...] = (
    # ---------------------------------------------------------------------------------------------- finished
    # Slurm's COMPLETED: "Job has terminated all processes on all nodes with an exit code of zero" (the .extern step,
    # Slurm's own container for the job's processes, completes whatever the job did)
    Marker(
        "slurm sacct",
        "finished",
        r"^(?!\s*\S+\.extern\s).*\sCOMPLETED\s+0:0\b",
        "12345          train        gpu    default          8  COMPLETED      0:0",
        _SACCT,
    ),
    Marker(
        "slurm sacct --parsable",
        "finished",
        r"^(?!\S+\.extern\|).*\|COMPLETED\|0:0(?:\||$)",
        "12345|train|gpu|default|8|COMPLETED|0:0|",
        _SACCT,
    ),
    Marker(
        "slurm scontrol",
        "finished",
        r"\bJobState=COMPLETED\b",
        "   JobState=COMPLETED Reason=None Dependency=(null)",
        _SCONTROL,
    ),
    Marker("slurm seff", "finished", r"^State: COMPLETED\b", "State: COMPLETED (exit code 0)", _SEFF),
    Marker(
        "slurm squeue",
        "finished",
        r"^\s*\d+(?:_\d+)?\s+\S+\s+\S+\s+\S+\s+CD\s+(?:\d+-)?(?:\d+:)?\d+:\d+\s+\d+\s",
        "  1234       gpu    train    alice CD       5:02      1 node01",
        _SQUEUE,
    ),
    # the mail slurmctld sends at the end of a job (--mail-type=END): its subject line
    Marker(
        "slurm mail",
        "finished",
        r"\bSlurm Job_id=\d+ Name=.* Ended, Run time [\d:-]+, COMPLETED, ExitCode 0\b",
        "Slurm Job_id=1006 Name=serial_job_test Ended, Run time 00:01:12, COMPLETED, ExitCode 0",
        "https://github.com/SchedMD/slurm/blob/master/src/slurmctld/agent.c",
    ),
    # PBS Pro (Exit_status) and Torque (exit_status) in qstat -f / tracejob of a finished job
    Marker("pbs/torque qstat -f", "finished", r"\bExit_status\s*=\s*0\b", "    Exit_status = 0", _TORQUE_QSTAT),
    # LSF: the job report appended to the output file, and bjobs -l / bhist -l of a DONE job
    Marker(
        "lsf job report",
        "finished",
        r"^Successfully completed\.\s*$",
        "Successfully completed.",
        "https://www.ibm.com/docs/en/SSWRJV_10.1.0/lsf_command_ref/bsub.o.1.html",
    ),
    Marker(
        "lsf bjobs -l",
        "finished",
        r"\bDone successfully\. The CPU time used is\b",
        "Thu Oct  7 11:25:07: Done successfully. The CPU time used is 9.7 seconds.",
        _LSF_BJOBS,
    ),
    Marker(
        "lsf bjobs -l",
        "finished",
        r"\bStatus <DONE>",
        "Job <981431>, Job Name <openmpi_test>, User <pdavila>, Project <default>, Status <DONE>",
        _LSF_BJOBS,
    ),
    # SGE/UGE qacct -j: the job script's exit status
    Marker(
        "sge qacct",
        "finished",
        r"^\s*exit_status\s+0\s*$",
        "exit_status  0",
        "https://arc.liv.ac.uk/SGE/htmlman/htmlman5/accounting.html",
    ),
    # HTCondor's job event log: event 005 "Job terminated." then the return value
    Marker(
        "htcondor user log",
        "finished",
        r"\(1\) Normal termination \(return value 0\)",
        "	(1) Normal termination (return value 0)",
        _HTCONDOR,
    ),
    # Kubernetes: a pod's phase and a terminated container's state, a Job's completions and its event
    Marker(
        "kubectl get pods",
        "finished",
        r"^\S+\s+\d+/\d+\s+Completed\s+\d+\s",
        "pi-bqtf4   0/1     Completed   0          2m",
        _K8S_JOB,
    ),
    Marker(
        "kubernetes status",
        "finished",
        r"^\s*\S+\s+Succeeded\b|\b(?:phase|status|state):\s*Succeeded\b",
        "Status:           Succeeded",
        _K8S_POD,
    ),
    Marker(
        "kubectl describe job",
        "finished",
        r"\bPods Statuses:\s+0 (?:Active|Running)(?: \(\d+ Ready\))? / [1-9]\d* Succeeded / 0 Failed",
        "Pods Statuses:    0 Active (0 Ready) / 1 Succeeded / 0 Failed",
        _K8S_JOB,
    ),
    Marker(
        "kubectl get jobs",
        "finished",
        r"^\S+\s+Complete\s+(?P<k8s_done>\d+)/(?P=k8s_done)\s+\w+\s+\w+\s*$",
        "pi     Complete   1/1           62s        73s",
        _K8S_JOB,
    ),
    Marker(
        "kubernetes job event",
        "finished",
        r"^\s*Normal\s+Completed\s+.*\bJob completed\b",
        "  Normal  Completed         8s    job-controller  Job completed",
        _K8S_JOB,
    ),
    # Ray jobs: ray job submit's last line, ray job status
    Marker(
        "ray job submit",
        "finished",
        r"\bJob \S+ (?:has )?succeeded\b",
        "Job 'raysubmit_inB2ViQuE29aZRJ5' succeeded",
        _RAY_JOBS,
    ),
    Marker(
        "ray job status",
        "finished",
        r"\bStatus for job '[^']+': SUCCEEDED\b",
        "Status for job 'raysubmit_tUAuCKubPAEXh6CW': SUCCEEDED",
        _RAY_JOBS,
    ),
    # Ray Tune: trials that ended normally (TERMINATED; a failed trial is ERROR) in the status table and its header
    Marker(
        "ray tune",
        "finished",
        r"\(\d+ TERMINATED\)|\b\w+_[0-9a-f]{5}_\d{5}\s*[│|]?\s+TERMINATED\b"
        # older Ray Tune: the trial counts as a dict, trial ids of eight hex digits
        r"|\bNumber of trials: \d+ \(\{[^}]*'TERMINATED': [1-9]|\b\S+_[0-9a-f]{8}\s*[│|]\s*TERMINATED\s*[│|]"
        r"|^Trial status: \d+ TERMINATED\s*$",
        "Trial status: 4 TERMINATED",
        _TUNE_OUTPUT,
    ),
    # SkyPilot's launcher, once the task's job ended
    Marker(
        "skypilot",
        "finished",
        r"\bJob finished \(status: SUCCEEDED\)",
        "✓ Job finished (status: SUCCEEDED).",
        "https://docs.skypilot.co/en/latest/getting-started/quickstart.html",
    ),
    # torchrun's agent once every worker of its group exited 0
    Marker(
        "torchrun",
        "finished",
        r"worker group successfully finished",
        "[default] worker group successfully finished. Waiting 300 seconds for other agents to finish.",
        _ELASTIC,
    ),
    Marker(
        "torchrun",
        "finished",
        r"\bLocal worker group finished \((?:WorkerState\.)?SUCCEEDED\)",
        "Local worker group finished (WorkerState.SUCCEEDED). Waiting 300 seconds for other agents to finish",
        _ELASTIC,
    ),
    # MLflow Projects (mlflow run) once the run's entry point returned 0
    Marker(
        "mlflow run",
        "finished",
        r"=== Run \(ID '\w+'\) succeeded ===",
        "=== Run (ID '8f3c2b1a9d7e4f60a1b2c3d4e5f60718') succeeded ===",
        "https://github.com/mlflow/mlflow/blob/master/mlflow/projects/__init__.py",
    ),
    # SageMaker: the training toolkit inside the container once the entry point returned 0 (a non-zero return is
    # "Reporting training FAILURE"), and the SDK's status line for the job once it is Completed
    Marker(
        "sagemaker training toolkit",
        "finished",
        r"\bReporting training SUCCESS\b",
        "2022-09-21 13:21:05,188 sagemaker-training-toolkit INFO     Reporting training SUCCESS",
        "https://github.com/aws/sagemaker-training-toolkit/blob/master/src/sagemaker_training/trainer.py",
    ),
    Marker(
        "sagemaker python sdk",
        "finished",
        r"\bCompleted - Training job completed\b",
        "2024-01-10 09:06:38 Completed - Training job completed",
        "https://github.com/aws/sagemaker-python-sdk/blob/master/src/sagemaker/session.py",
    ),
    # Airflow's task runner: the task's process exited 0 and the task instance was marked SUCCESS
    Marker(
        "airflow",
        "finished",
        r"\bTask exited with return code 0\b|\bMarking task as SUCCESS\b",
        "Marking task as SUCCESS. dag_id=train, task_id=fit, execution_date=20240101T000000, start_date=, end_date=",
        "https://github.com/apache/airflow/blob/main/airflow/models/taskinstance.py",
    ),
    # Kaldi's job wrappers (utils/parallel/run.pl, queue.pl, slurm.pl) end each job's log with the command's exit
    # status, code 0 when it succeeded (like any finish, it does not clear an error read above it)
    Marker(
        "kaldi run.pl",
        "finished",
        KALDI_ENDED_WELL,
        "# Ended (code 0) at Fri Apr 14 06:15:38 CDT 2023, elapsed time 0 seconds",
        "https://github.com/kaldi-asr/kaldi/blob/master/egs/wsj/s5/utils/parallel/run.pl",
    ),
    # ----------------------------------------------------------------------------------------------- started
    # a job the scheduler shows running (squeue's ST column R, scontrol's JobState=RUNNING, seff/jobstats of a job
    # still running, kubectl's Running pod), or one it granted resources to
    Marker(
        "slurm squeue",
        "started",
        r"^\s*\d+(?:_\[?[\d\-,]+\]?)?\s+\S+\s+\S+\s+\S+\s+R\s+(?:\d+-)?(?:\d+:)?\d+:\d+\s+\d+\s",
        "  1234       gpu    train    alice  R       5:02      1 node01",
        _SQUEUE,
    ),
    Marker(
        "slurm scontrol",
        "started",
        r"\bJobState=RUNNING\b",
        "   JobState=RUNNING Reason=None Dependency=(null)",
        _SCONTROL,
    ),
    Marker(
        "slurm seff",
        "started",
        r"^\s*State: RUNNING\s*$|^\s*Run Time: [\d:-]+ \(in progress\)",
        "State: RUNNING",
        _SEFF,
    ),
    Marker(
        "slurm sbatch",
        "started",
        r"^Submitted batch job \d+",
        "Submitted batch job 65541",
        "https://slurm.schedmd.com/sbatch.html",
    ),
    Marker(
        "slurm salloc/srun",
        "started",
        r"\b(?:salloc|srun): (?:Granted job allocation \d+|job \d+ has been allocated resources)",
        "salloc: Granted job allocation 65537",
        "https://slurm.schedmd.com/salloc.html#SECTION_EXAMPLES",
    ),
    Marker(
        "pbs/torque qstat",
        "started",
        r"^\s*job_state = R\s*$|^\d+(?:\[\d*\])?\.\S+\s+\S+\s+\S+\s+[\d:]+\s+R\s+\S+\s*$",
        "    job_state = R",
        _TORQUE_QSTAT,
    ),
    Marker(
        "lsf bjobs",
        "started",
        r"\bStatus <RUN>|^\d+\s+\S+\s+RUN\s+\S+\s+\S+\s+\S+",
        "1234    alice   RUN   normal     hostA       hostB       train      Oct  1 10:00",
        _LSF_BJOBS,
    ),
    Marker(
        "sge qstat",
        "started",
        r"^\s*\d+\s+\d\.\d+\s+\S+\s+\S+\s+r\s+\d\d/\d\d/\d{4} [\d:]+\s+\S+@\S+",
        "    118 0.55500 train      alice        r     10/01/2024 10:00:00 all.q@node01.cluster              1",
        "https://arc.liv.ac.uk/SGE/htmlman/htmlman1/qstat.html",
    ),
    Marker(
        "htcondor user log",
        "started",
        r"^001 \(\d+\.\d+\.\d+\) .*\bJob executing on host:",
        "001 (123.000.000) 2024-01-01 10:00:05 Job executing on host: <10.0.0.2:9618?addrs=10.0.0.2-9618>",
        _HTCONDOR,
    ),
    Marker(
        "kubectl get pods",
        "started",
        r"^\S+\s+\d+/\d+\s+Running\s+\d+",
        "train-7d9f8-x2x9q   1/1     Running   0          5m",
        _K8S_POD,
    ),
    Marker(
        "ray job status",
        "started",
        r"\bStatus for job '[^']+': RUNNING\b",
        "Status for job 'raysubmit_tUAuCKubPAEXh6CW': RUNNING",
        _RAY_JOBS,
    ),
    Marker(
        "ray job submit",
        "started",
        r"\bJob '?\S+'? submitted successfully|Started a local Ray instance|Ray runtime started",
        "Job 'raysubmit_inB2ViQuE29aZRJ5' submitted successfully",
        _RAY_JOBS,
    ),
    # torchrun, as it starts the workers
    Marker(
        "torchrun",
        "started",
        r"Setting OMP_NUM_THREADS environment variable for each process|\bStarting worker group\b"
        r"|starting workers for entrypoint",
        "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being "
        "overloaded, please further tune the variable for optimal performance in your application as needed.",
        "https://github.com/pytorch/pytorch/blob/main/torch/distributed/run.py",
    ),
    # ------------------------------------------------------------------------------------------------ failed
    # the same emitters' records of a job that ended badly: error evidence at any level, so that no progress or
    # start-up line before them makes the run "healthy" (a family that knows the cause still names it)
    Marker("ray job submit", "failed", r"\bJob '[^']+' failed\b", "Job 'raysubmit_inB2ViQuE29aZRJ5' failed", _RAY_JOBS),
    # Kaldi's job wrappers' footer with a failed command's exit status
    Marker(
        "kaldi run.pl",
        "failed",
        r"^# Ended \(code [1-9]\d*\) at ",
        "# Ended (code 255) at Wed May  1 17:17:26 UTC 2019, elapsed time 53 seconds",
        "https://github.com/kaldi-asr/kaldi/blob/master/egs/wsj/s5/utils/parallel/run.pl",
    ),
    Marker(
        "ray job status",
        "failed",
        r"\bStatus for job '[^']+': (?:FAILED|STOPPED)\b",
        "Status for job 'raysubmit_tUAuCKubPAEXh6CW': FAILED",
        _RAY_JOBS,
    ),
    Marker(
        "htcondor user log",
        "failed",
        r"\(1\) Normal termination \(return value [1-9]\d*\)|\(0\) Abnormal termination \(signal \d+\)"
        r"|^0(?:09|12) \(\d+\.\d+\.\d+\) .*\bJob was (?:aborted|held)\b",
        "\t(0) Abnormal termination (signal 9)",
        _HTCONDOR,
    ),
    Marker(
        "lsf bjobs -l",
        "failed",
        r"\bStatus <EXIT>",  # its "Exited with exit code N." is an exit code the families read
        "Job <981432>, Job Name <train>, User <alice>, Project <default>, Status <EXIT>",
        _LSF_BJOBS,
    ),
    Marker(
        "sge qacct",
        "failed",
        r"^\s*exit_status\s+[1-9]\d*\b|^\s*failed\s+[1-9]\d*\s*:",
        "failed       100 : assumedly after job",
        "https://arc.liv.ac.uk/SGE/htmlman/htmlman5/accounting.html",
    ),
    Marker(
        "pbs/torque qstat -f",
        "failed",
        r"\bExit_status\s*=\s*(?:-\d+|[1-9]\d*)\b",
        "    exit_status = 271",
        _TORQUE_QSTAT,
    ),
    Marker(
        "kubectl describe job",
        "failed",
        r"\bPods Statuses:.* / [1-9]\d* Failed\b",
        "Pods Statuses:    0 Active (0 Ready) / 0 Succeeded / 1 Failed",
        _K8S_JOB,
    ),
    Marker(
        "slurm mail",
        "failed",
        r"\bSlurm Job_id=\d+ Name=.* (?:Ended|Failed), Run time [\d:-]+, (?:FAILED|TIMEOUT|OUT_OF_MEMORY|NODE_FAIL|CANCELLED|PREEMPTED|DEADLINE)\b",
        "Slurm Job_id=1006 Name=train Failed, Run time 00:01:12, FAILED, ExitCode 1",
        "https://github.com/SchedMD/slurm/blob/master/src/slurmctld/agent.c",
    ),
    Marker(
        "skypilot",
        "failed",
        r"\bJob finished \(status: (?:FAILED\w*|CANCELLED)\)",
        "✗ Job finished (status: FAILED).",
        "https://docs.skypilot.co/en/latest/getting-started/quickstart.html",
    ),
    Marker(
        "mlflow run",
        "failed",
        r"=== Run \(ID '\w+'\) failed ===",
        "=== Run (ID '8f3c2b1a9d7e4f60a1b2c3d4e5f60718') failed ===",
        "https://github.com/mlflow/mlflow/blob/master/mlflow/projects/__init__.py",
    ),
    # Metaflow's local runtime: a step's task that failed, then the run ("Workflow failed."), in its own layout
    Marker(
        "metaflow",
        "failed",
        r"\[[\w-]+/\w+/\d+ \(pid \d+\)\] Task failed\.|^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} Workflow failed\.",
        "2020-08-24 06:17:41.069 [1598264257255545/segfault/2 (pid 19077)] Task failed.",
        "https://github.com/Netflix/metaflow/blob/master/metaflow/runtime.py",
    ),
    Marker(
        "airflow",
        "failed",
        r"\bTask exited with return code (?:-\d+|[1-9]\d*)\b|\bMarking task as (?:FAILED|UP_FOR_RETRY)\b",
        "Marking task as FAILED. dag_id=train, task_id=fit, execution_date=20240101T000000, start_date=, end_date=",
        "https://github.com/apache/airflow/blob/main/airflow/models/taskinstance.py",
    ),
)
