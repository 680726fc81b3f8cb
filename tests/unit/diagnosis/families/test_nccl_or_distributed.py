"""The nccl_or_distributed family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import assert_read_as, diagnose_dev, root_line_cases, rules_dev

TB = 'Traceback (most recent call last):\n  File "train.py", line 10, in <module>\n    main()\n'


@pytest.mark.parametrize("case_id", ["a-0072"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "nccl_or_distributed"


def test_a_rendezvous_store_that_never_answers() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/lib/python3.9/site-packages/torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py", '
        "line 155, in _create_tcp_store\n"
        "    store = TCPStore(\n"
        "RuntimeError: connect() timed out. Original timeout was 60000 ms.\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.origin, d.fix.kind) == ("nccl_or_distributed", "infra", "retry")


@pytest.mark.parametrize(
    ("log", "kind"),
    [
        (
            "torch.distributed.DistBackendError: NCCL error in: ../ProcessGroupNCCL.cpp:1691, invalid usage (run "
            "with NCCL_DEBUG=WARN for details), NCCL version 2.19.3\n",
            "fix_code",
        ),
        ("host:1:2 [0] NCCL INFO init.cc:903 -> 5\nRuntimeError: NCCL error: invalid usage\n", "fix_code"),
        (
            "host:1:2 [0] NCCL INFO transport/shm.cc:551 -> 2\ntorch.distributed.DistBackendError: NCCL error in: "
            "NCCLUtils.hpp:268, unhandled system error, NCCL version 2.21.5\n",
            "change_resources_or_wait",
        ),
        (
            "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, "
            "Timeout(ms)=600000) ran for 600042 milliseconds before timing out.\n",
            "retry",
        ),
    ],
)
def test_the_nccl_result_says_whose_fix_it_is(log: str, kind: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("nccl_or_distributed", kind)


def test_a_rendezvous_port_another_process_holds_is_a_settings_fix() -> None:
    log = (
        "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. "
        "The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("nccl_or_distributed", "fix_code") and "port" in d.fix.description


@pytest.mark.parametrize(
    "log",
    [
        # pytorch/pytorch torch/csrc/distributed/c10d/socket.cpp: a rank cannot reach the TCPStore on the master,
        # wrapped in whatever exception type the version raises (RuntimeError, DistNetworkError, TimeoutError)
        "RuntimeError: The client socket has timed out after 1800s while trying to connect to (10.0.0.1, 29500).\n",
        "RuntimeError: The client socket has failed to connect to any network address of (master-0, 23456).\n",
        "[W728 15:01:59.562622567 TCPStore.cpp:340] [c10d] TCP client failed to connect/validate to host "
        "127.0.0.1:48315 - retrying (try=0, timeout=600000ms, delay=33924ms)\n"
        "RuntimeError: Socket Timeout\n",
        # ProcessGroupNCCL.cpp: the heartbeat monitor finds the watchdog stuck on a collective that never completes
        "[rank1]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 1] Heartbeat monitor timed out! Process will be terminated "
        "after dumping debug info. workMetaList_.size()=1\n",
        "RuntimeError: ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring "
        "enqueued collectives.\n",
        # torch.distributed.elastic.rendezvous.api
        "torch.distributed.elastic.rendezvous.api.RendezvousStateError: The rendezvous state could not be read.\n",
        # openxla/xla coordination service: the coordinator lost another task
        "E0101 00:00:00.000000 1 coordination_service_agent.cc:332] Terminating process because the coordinator "
        "detected missing heartbeats. This most likely indicates that another task died; see the other task logs for "
        "more details.\n",
        # Horovod and Open MPI
        "horovod.common.exceptions.HorovodInternalError: ncclAllReduce failed: unhandled system error\n",
        "ORTE has lost communication with a remote daemon.\n",
    ],
)
def test_c10d_sockets_watchdogs_and_other_launchers(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.origin) == ("nccl_or_distributed", "infra"), log


def test_a_socket_interface_that_is_not_there_is_a_settings_fix() -> None:
    # NCCL's bootstrap found no address on the NCCL_SOCKET_IFNAME it was given (misc/socket.cc)
    log = (
        "host:1958:1958 [3] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth2\n"
        "host:1958:1958 [3] ncclSocketInit: connecting to address  with family 59936 is neither AF_INET(2) nor "
        "AF_INET6(10)\n"
        "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1691, internal error, NCCL version "
        "2.19.3\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("nccl_or_distributed", "fix_code")


@pytest.mark.parametrize(
    ("log", "kind"),
    [
        # NCCL's InfiniBand transport: a work completion with an error status (a link or peer problem)
        (
            "node1:123:456 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<39874> "
            "with error 12, opcode 32753, len 0, vendor err 129\n",
            "retry",
        ),
        # ranks that disagree about a collective's size
        ("node1:123:456 [0] NCCL WARN Message truncated : received 1024 bytes instead of 256\n", "fix_code"),
    ],
)
def test_nccl_transport_warnings(log: str, kind: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("nccl_or_distributed", kind), log


def test_nccl_warn_in_the_pre_2_4_prefix_without_the_word_nccl() -> None:
    """NCCL 2 before 2.4 printed "host:pid:tid [dev] file:line WARN …" and "[dev] INFO file:line -> 2"."""
    d, _, record = diagnose_dev("i-0021")
    assert d.label == record["label"] == "nccl_or_distributed"
    assert diagnose_log_text("myhost:12:34 [0] INFO misc/utils.cc:52 -> 0\n").label != "nccl_or_distributed"


@pytest.mark.parametrize(
    "log",
    [
        # torch/distributed/distributed_c10d.py on a build without NCCL (Windows and macOS wheels)
        "RuntimeError: Distributed package doesn't have NCCL built in\n",
        # torch 2.4+ on Windows, whose TCPStore asks for libuv unless USE_LIBUV=0
        "RuntimeError: use_libuv was requested but PyTorch was build without libuv support\n",
        "RuntimeError: Address already in use\n",
    ],
)
def test_a_backend_or_port_the_machine_does_not_offer_is_a_settings_fix(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("nccl_or_distributed", "fix_code"), log


def test_a_socket_connect_that_failed_for_good_is_read_at_warning_level() -> None:
    log = (
        "node1:2345:2400 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.0.1<45678> failed : "
        "Software caused connection abort\n"
    )
    assert diagnose_log_text(log).label == "nccl_or_distributed"


def test_a_stack_dump_of_a_rank_waiting_in_a_collective_is_a_hang() -> None:
    """TRAIN o-0018: py-spy dumps of a hung accelerate/DeepSpeed job, every rank's main thread in
    torch.distributed's barrier. Python's faulthandler dump (innermost frame first) reads the same; a dump whose
    innermost frame is elsewhere (a data loader) is no collective hang."""
    d, _, record = diagnose_dev("o-0018")
    assert d.label == record["label"] == "nccl_or_distributed"
    fault = (
        "Thread 0x00007f3c2a7fc700 (most recent call first):\n"
        '  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 1700 in all_reduce\n'
        '  File "/work/train.py", line 88 in step\n'
    )
    d = diagnose_log_text(fault)
    assert d.label == "nccl_or_distributed" and "all_reduce" in d.explanation
    loader = 'Thread 12 (idle): "MainThread"\n    _poll (multiprocessing/connection.py:424)\n'
    assert diagnose_log_text(loader).label != "nccl_or_distributed"


def test_a_thrown_gloo_or_c10d_exception_names_the_communication_library_not_a_native_crash() -> None:
    # u-0017 (dev) in other words: the exception's namespace is the library that failed, the abort its consequence
    log = (
        "terminate called after throwing an instance of 'c10d::DistBackendError'\n"
        "  what():  [Rank 1] peer closed the connection\n"
        "Aborted (core dumped)\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.origin) == ("nccl_or_distributed", "infra")
    assert diagnose_dev("u-0017")[0].label == "nccl_or_distributed"


def test_nccl_result_strings_quoted_by_other_runtimes() -> None:
    # ncclGetErrorString's strings (https://github.com/NVIDIA/nccl/blob/master/src/init.cc) after XLA's failed call
    line = (
        "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:297: "
        "NCCL operation ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled cuda error"
    )
    assert diagnose_log_text(TB + line + "\n").label == "nccl_or_distributed"


def test_rendezvous_port_in_use_errno_98() -> None:
    # EADDRINUSE is errno 98 on Linux (https://docs.python.org/3/library/errno.html)
    d = diagnose_log_text(TB + "OSError: [Errno 98] Address already in use\n")
    assert d.label == "nccl_or_distributed"
    assert d.confidence < 0.8


def test_master_addr_this_host_does_not_have_errno_99() -> None:
    # EADDRNOTAVAIL is errno 99 on Linux (https://docs.python.org/3/library/errno.html)
    d = diagnose_log_text(TB + "OSError: [Errno 99] Cannot assign requested address\n")
    assert d.label == "nccl_or_distributed" and d.confidence < 0.8


@root_line_cases(
    ("a-0014", "Watchdog caught collective operation timeout"), ("g-0037", "RuntimeError: Address already in use")
)
def test_root_line_vocabulary_reads_nccl_or_distributed(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "nccl_or_distributed", quoted)


def test_infiniband_completion_errors_and_mpi_signal_reports() -> None:
    # rdma-core ibv_wc_status_str(IBV_WC_RETRY_EXC_ERR), as UCX/NCCL quote it
    ib = "[n1:1234:0:1234] ib_mlx5_log.c:171  Transport retry count exceeded on mlx5_0:1/IB (synd 0x15 vend 0x81 hw_synd 0/0)\n"
    assert diagnose_log_text(ib).label == "nccl_or_distributed"
    # PRRTE/Open MPI's help-prun.txt [proc-aborted-strsignal]: the signal decides, not the launcher's name
    mpi = "mpirun noticed that process rank 3 with PID 0 on node n2 exited on signal 11 (Segmentation fault).\n"
    assert diagnose_log_text(mpi).label == "segfault"


def test_a_master_address_that_does_not_resolve_in_the_rendezvous_is_distributed_not_a_download() -> None:
    # a PyTorchJob worker up before its master: TCPStore in torch/distributed/rendezvous.py cannot resolve the host
    d, _, record = diagnose_dev("zf-0006")
    assert (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("nccl_or_distributed", "retry")
    # the same resolver error raised by a download client stays a download
    log = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/site-packages/urllib3/connection.py", line 174, in _new_conn\n'
        "socket.gaierror: [Errno -2] Name or service not known\n"
    )
    assert diagnose_log_text(log).label == "network_download"


def test_a_traceback_cut_off_inside_an_nccl_call_is_the_communicator() -> None:
    site = "/usr/local/lib/python3.12/dist-packages/vllm/distributed/device_communicators"
    log = (
        "Traceback (most recent call last):\n"
        f'  File "{site}/pynccl.py", line 99, in __init__\n'
        "    self.comm: ncclComm_t = self.nccl.ncclCommInitRank(\n"
        f'  File "{site}/pynccl_wrapper.py", line 277, in ncclCommInitRank\n'
        '    self.NCCL_CHECK(self._funcs["ncclCommInitRank"](ctypes.byref(comm),\n'
    )
    assert diagnose_log_text(log).label == "nccl_or_distributed"
    # a function of the project's own that only names NCCL in lower case is not NCCL's API
    own = log.replace("in ncclCommInitRank", "in nccl_setup")
    assert diagnose_log_text(own).label != "nccl_or_distributed"


def test_nccl_tests_reporting_a_failed_nccl_call_is_the_communicator() -> None:
    log = (
        "# nThread 1 nGpus 4 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 validation: 1\n"
        "#   Rank  0 Pid   1688 on    fastmoe device  0 [0x18] GeForce RTX 2080 Ti\n"
        "fastmoe: Test NCCL failure common.cu:777 'unhandled system error'\n"
    )
    assert diagnose_log_text(log).label == "nccl_or_distributed"


def test_an_older_nccls_socket_connect_failing_is_the_communicator_but_a_retry_notice_is_not() -> None:
    failed = (
        "voicec105:90736:91655 [0] NCCL INFO Channel 00 : 1[89000] -> 2[b1000] [send] via NET/Socket/0\n"
        "voicec105:90736:91655 [0] include/socket.h:403 NCCL WARN Connect to fe80::c4eb:49ff:fe04:e32d%6<57335>"
        " failed : Network is unreachable\n"
    )
    assert diagnose_log_text(failed).label == "nccl_or_distributed"
    retrying = failed.replace("Network is unreachable", "Connection refused, retrying 1/3")
    assert diagnose_log_text(retrying + "epoch 1/2 loss 0.9\nepoch 2/2 loss 0.8\n").label != "nccl_or_distributed"


@pytest.mark.parametrize("var", ["LOCAL_RANK", "RANK", "WORLD_SIZE", "MASTER_ADDR"])
def test_a_launcher_variable_missing_from_the_environment_is_a_launch_without_the_launcher(var: str) -> None:
    log = (
        'Traceback (most recent call last):\n  File "train.py", line 20, in <module>\n'
        f"    local_rank = int(os.environ['{var}'])\n"
        '  File "/usr/lib/python3.8/os.py", line 675, in __getitem__\n    raise KeyError(key) from None\n'
        f"KeyError: '{var}'\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "nccl_or_distributed" and d.fix.kind == "fix_code"
    # any other missing key is the program's own
    assert diagnose_log_text(log.replace(var, "batch_size")).label != "nccl_or_distributed"


def test_ddp_parameters_without_gradients_are_the_wrappers_check() -> None:
    d, record = rules_dev("zzzzzx-0207")
    assert (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("nccl_or_distributed", "fix_code")
    assert "find_unused_parameters=True" in d.fix.description


@pytest.mark.parametrize("case_id", ["zzzzzd-0107", "zzzzzx-0213"])
def test_more_ranks_than_gpus_is_the_launch(case_id: str) -> None:
    d, record = rules_dev(case_id)
    assert (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("nccl_or_distributed", "fix_code")


def test_one_process_asking_for_a_missing_gpu_is_not_the_launch() -> None:
    d, record = rules_dev("zzzzzc-0413")  # CUDA_VISIBLE_DEVICES=5 and --gpu 5, no distributed launch
    assert d.label == record["label"] == "user_code_error"
