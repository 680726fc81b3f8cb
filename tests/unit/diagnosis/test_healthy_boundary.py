"""Where "healthy" ends on a bare log: what counts as the run's progress, and what the program went on past."""

from __future__ import annotations

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.errorblock import prepare
from runshepherd.diagnosis.positive import is_progress, mark_counters, says_finished


def test_a_traceback_frames_source_line_is_not_progress() -> None:
    # the call quoted under a frame names an epoch, but it is source the traceback prints, not a step the run took
    log = (
        "| reading 812 pairs from corpus/dev.src\n"
        "Traceback (most recent call last):\n"
        '  File "run.py", line 46, in main\n'
        '    pipeline.read_split("dev", epoch=0)\n'
        '  File "pipe/pairs.py", line 96, in read_split\n'
        "    return PairSet(\n"
    )
    lines = prepare(log.splitlines()).lines
    assert lines[3].code and not is_progress(lines[3])
    assert diagnose_log_text(log).label != "healthy"


def test_a_program_that_skips_an_optional_feature_for_a_missing_module_is_not_missing_a_dependency() -> None:
    # the program's own sentence quotes the import error it caught and carries on with its work
    log = (
        "epoch 1 loss 0.91\n"
        "  [report] histogram plot skipped: No module named 'seaborn'\n"
        "epoch 2 loss 0.72\n"
        "Run complete.\n"
    )
    assert diagnose_log_text(log).label == "healthy"
    # the error raised, as Python prints it, is still the run's missing dependency
    raised = "epoch 1 loss 0.91\nModuleNotFoundError: No module named 'seaborn'\n"
    assert diagnose_log_text(raised).label == "missing_dependency"


def test_a_counter_line_of_the_programs_own_wording_is_progress() -> None:
    # no vocabulary names these fields: the template repeats, its leading counter grows and a measured value changes
    log = (
        "Disabling upload: No module named 'boto3' (results stay local)\n"
        "round 0    imgs 2048.0   wall 1m 10s   gpu 7.91\n"
        "round 1    imgs 2052.0   wall 2m 21s   gpu 8.02\n"
        "round 2    imgs 2056.0   wall 3m 33s   gpu 7.98\n"
        "round 3    imgs 2060.0   wall 4m 40s   gpu 8.10\n"
    )
    lines = mark_counters(prepare(log.splitlines()).lines)
    assert [ln.progress for ln in lines[1:]] == [True] * 4
    assert diagnose_log_text(log).label == "healthy"


def test_a_repeated_notice_with_a_rising_clock_or_a_listing_is_not_progress() -> None:
    waiting = [f"[2024-05-01 10:0{i}:00] Waiting for worker 3 to join (attempts left: 5)" for i in range(5)]
    ranks = [f"  host      : node{i}  rank : {i} (local_rank: {i})" for i in range(4)]
    listing = [f"root {4100 + i} 87.{i} 4.4 1750 2352 ? Rl 00:36 217:52 python" for i in range(4)]
    for block in (waiting, ranks, listing):
        lines = mark_counters(prepare(block).lines)
        assert not any(ln.progress for ln in lines), block[0]


def test_a_test_loops_counter_and_a_platforms_success_report_are_documented_health() -> None:
    # mmengine's record of a test loop's batches: a run working through its evaluation, not a bare notice
    test_loop = (
        "07/11 09:14:02 - mmengine - INFO - Load checkpoint from runs/seg_r50/iter_16000.pth\n"
        "07/11 09:14:31 - mmengine - INFO - Epoch(test) [ 400/2000]    eta: 0:02:11  time: 0.0821  data_time: 0.0012\n"
        "07/11 09:15:04 - mmengine - INFO - Epoch(test) [ 800/2000]    eta: 0:01:38  time: 0.0818  data_time: 0.0011\n"
        "saved mask 0801.png\n"
    )
    lines = prepare(test_loop.splitlines()).lines
    assert is_progress(lines[1]) and is_progress(lines[2])
    d = diagnose_log_text(test_loop)
    assert d.label == "healthy" and d.confidence == 0.8 and "Epoch(test)" in d.evidence[0]
    # SageMaker's training toolkit once the entry point returned 0; its FAILURE report is no such thing
    sagemaker = (
        "Invoking script with the following command:\n"
        "/opt/conda/bin/python3 fit.py --trees 200\n"
        "2023-03-02 11:40:09,101 sagemaker-training-toolkit INFO     Reporting training SUCCESS\n"
        "Training seconds: 93\n"
    )
    d = diagnose_log_text(sagemaker)
    assert d.label == "healthy" and d.confidence == 0.9 and "Reporting training SUCCESS" in d.explanation
    failed = sagemaker.replace("INFO     Reporting training SUCCESS", "ERROR    Reporting training FAILURE")
    assert diagnose_log_text(failed).label != "healthy"


def test_the_run_said_finished_in_another_language_is_a_finish() -> None:
    finished = [
        "[2025-03-04 10:02:11][INFO] 推理任务已全部完成。",  # zh: the inference task(s) all completed
        "2025-03-04 10:02:11 - INFO - 学習が正常に完了しました",  # ja: the training completed normally
        "2025-03-04 10:02:11 - INFO - 학습이 성공적으로 완료되었습니다.",  # ko: the training completed successfully
        "2025-03-04 10:02:11 - INFO - Обучение успешно завершено",  # ru: the training finished successfully
    ]
    for last in finished:
        log = "载入数据 / loading data shards\n" + last + "\n"
        d = diagnose_log_text(log)
        assert d.label == "healthy" and d.confidence == 0.9 and last in d.evidence[0], last
    # a set-up step done and one epoch done are not the run finishing
    for line in ("配置完成，开始训练...", "第3轮训练完成", "数据预处理完成率 40%"):
        assert not says_finished(prepare([line]).lines[0]), line


def test_all_of_a_set_up_step_done_in_another_language_is_not_a_finish() -> None:
    # all data loaded, all files downloaded, preprocessing done (ja, ko), all downloads done: then the run starts
    for line in (
        "所有数据加载完成",
        "所有文件下载完成",
        "データの前処理が完了しました",
        "데이터 전처리 작업이 완료되었습니다",
        "모든 다운로드가 완료되었습니다",
    ):
        d = diagnose_log_text(line + "\n开始训练 / starting\n")
        assert not (d.label == "healthy" and d.confidence == 0.9), (line, d.explanation)
    # all of the tasks, all of the training done: the run finished
    for line in ("所有任务已完成", "모든 학습이 완료되었습니다"):
        assert says_finished(prepare([line]).lines[0]), line


def test_a_log_that_is_mostly_a_table_of_numeric_results_produced_them() -> None:
    matrix = (
        "scoring fold 2 of the held-out split\n"
        "per-class confusion (rows: truth)\n"
        "[[412.   9.   3.   0.]\n"
        " [ 11. 380.  22.   4.]\n"
        " [  2.  17. 401.   6.]\n"
        " [  0.   5.   9. 433.]]\n"
        "macro summary\n"
    )
    d = diagnose_log_text(matrix)
    assert d.label == "healthy" and d.confidence == 0.6 and "[[412." in d.evidence[0]
    assert "[[412." in d.explanation  # the verdict quotes the line it rests on
    timings = "kernel,threads,t1,t2,t3\n" + "".join(f"blur,{n},0.{n}41,0.{n}38,0.{n}44\n" for n in (1, 2, 4, 8))
    assert diagnose_log_text(timings).label == "healthy"
    # numbers that are not results: a process listing, a whole-number table, a memory report, a job listing, and a
    # tensor printed once amid a longer log that then stops
    not_results = [
        "".join(f"user {4100 + i} 97.{i} 4.4 1750 2352 ? Rl 00:36 217:52 python train.py\n" for i in range(4)),
        "".join(f"{i} 0 0 {81234 - i * 40} 2212 40112 0 0 12 {30 + i} 990 2100 12 3 85 0 0\n" for i in range(4)),
        "Process RSS: 96377.68 MB\nProcess VMS: 311149.66 MB\nSystem available: 1326.06 MB\nSwap used: 2493.55 MB\n",
        "".join(f"  {88120 + i}  gpu  sweep_{i}  alice PD  0:00  1  (Priority)\n" for i in range(4)),
        "building the encoder\nloading shards from /data/web\nshard list ready\nmask weights:\n"
        "tensor([[0.1252, 0.3312, 0.9021],\n        [0.4410, 0.0131, 0.5551],\n        [0.7114, 0.2270, 0.3001]])\n"
        "wiring the optimizer\ncompiling the graph\nwarm-up pass\nreading the eval split\nsharding the cache\n",
    ]
    for log in not_results:
        assert diagnose_log_text(log).label != "healthy", log.splitlines()[0]


def test_python_loggings_default_format_with_a_lower_case_logger_is_an_info_notice() -> None:
    # "%(asctime)s - %(name)s - %(levelname)s - %(message)s": the logger's name sits between the stamp and the level
    log = (
        "2022-06-14 08:12:40,311 - segkit - INFO - Scoring the val split...\n"
        "/opt/segkit/eval/metrics.py:88: UserWarning: the ignore index is deprecated since v0.4\n"
        "  warnings.warn(\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and d.confidence == 0.5 and "Scoring the val split" in d.evidence[0]
    # an error record in the same format is not a notice
    assert diagnose_log_text(log.replace(" - INFO - ", " - ERROR - ")).label != "healthy"


def test_a_server_stopped_by_a_signal_after_serving_is_healthy_and_its_shutdown_is_not_the_failure() -> None:
    # vLLM V1 logs the stop signal its engine core received, then tears down; a traceback printed while it shuts
    # down (the API server's output handler finding the engine gone) is the shutdown, not what stopped it
    serving = "".join(
        f"(APIServer pid=7) INFO 08-01 21:34:{s} [loggers.py:273] Engine 000: Avg prompt throughput: {t} tokens/s, "
        "Avg generation throughput: 40.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 1.0%\n"
        for s, t in (("19", "1868.2"), ("29", "1843.9"))
    )
    stop = (
        "(EngineCore pid=9) INFO 08-01 21:34:51 [core.py:1214] [shutdown] EngineCore: trigger received signal=SIGTERM\n"
    )
    teardown = (
        "(APIServer pid=7) ERROR 08-01 21:34:51 [async_llm.py:704] AsyncLLM output_handler failed.\n"
        "(APIServer pid=7) ERROR 08-01 21:34:51 [async_llm.py:704] Traceback (most recent call last):\n"
        '(APIServer pid=7) ERROR 08-01 21:34:51 [async_llm.py:704]   File "/venv/lib/python3.12/site-packages/vllm/'
        'v1/engine/async_llm.py", line 660, in output_handler\n'
        "(APIServer pid=7) ERROR 08-01 21:34:51 [async_llm.py:704] vllm.v1.engine.exceptions.EngineDeadError: "
        "EngineCore encountered an issue. See stack trace (above) for the root cause.\n"
    )
    d = diagnose_log_text(serving + stop + teardown)
    assert d.label == "healthy" and "stopped from outside" in d.explanation
    # the same stop with no sign of serving before it is not excused: a job told to stop is not known to be healthy
    assert diagnose_log_text(stop + teardown).label != "healthy"
    # an error between the serving and the stop is what stopped the server
    crash = "(APIServer pid=7) ERROR 08-01 21:34:40 [core.py:9] RuntimeError: CUDA error: an illegal memory access\n"
    assert diagnose_log_text(serving + crash + stop + teardown).label != "healthy"
    # a parent sending the signal to its children is not the server being told to stop
    sent = "(APIServer pid=7) INFO 08-01 21:34:51 [utils.py:612] [shutdown] Process manager: send sigterm to process EngineCore\n"
    assert diagnose_log_text(serving + sent + teardown).label != "healthy"


def test_a_traceback_of_a_successful_exit_is_not_a_failure() -> None:
    # sys.exit(0) raises SystemExit; a launcher that prints its traceback ends it "SystemExit: 0" (exit status 0)
    steps = "".join(f"step {i} loss {1 / (i + 1):.4f}\n" for i in range(1, 5))
    tb = 'Traceback (most recent call last):\n  File "run.py", line 74, in <module>\n    sys.exit(main())\n'
    for ok in ("SystemExit: 0", "SystemExit: None", "SystemExit"):
        assert diagnose_log_text(steps + tb + ok + "\n").label == "healthy", ok
    for bad in ("SystemExit: 1", "SystemExit: training failed"):
        assert diagnose_log_text(steps + tb + bad + "\n").label != "healthy", bad


def test_a_count_of_work_is_progress_when_a_retry_counter_is_a_field_of_its_own() -> None:
    # an evaluation display: steps done out of the total, with the client's separate HTTP retry counter on the line
    rows = [
        f"Steps: {n:3d}/200  {n // 2}% | Samples: {n - 1:3d}/200 | mean: 0.75 | HTTP retries: {n // 40}"
        for n in (8, 40, 95, 160, 200)
    ]
    d = diagnose_log_text("\n".join(["eval_run (200 samples): provider/model-x", *rows]))
    assert d.label == "healthy", d.explanation
    # a count of the tries themselves is still not work done
    tries = [f"Connecting to the store, attempt {n}/20" for n in range(1, 6)]
    assert diagnose_log_text("\n".join(tries)).label == "unknown"
    tries_after = [f"Waiting on the lock ({n}/20 retries)" for n in range(1, 6)]
    assert diagnose_log_text("\n".join(tries_after)).label == "unknown"


def test_a_line_that_says_the_work_did_not_happen_is_not_progress() -> None:
    # a platform's run record: its error message names training "completed" only to say none did
    log = (
        "RunId: AutoML_5c1e_parent\n"
        "Execution Summary\n"
        "=================\n"
        "{'runId': 'AutoML_5c1e_parent',\n"
        " 'status': 'Failed',\n"
        "  'message': 'Run timed out. No model completed training in the specified time. Possible solutions: ',\n"
        " 'logFiles': {}}\n"
    )
    lines = prepare(log.splitlines()).lines
    assert not is_progress(lines[5])
    assert diagnose_log_text(log).label != "healthy"
    # the same words as a trainer's own notice are still its progress
    assert is_progress(prepare(["Epoch 3: completed training in 41.2 s"]).lines[0])


def test_a_clean_log_that_ends_in_named_measured_values_ran_to_a_result() -> None:
    # no step, no finished status: the run's last lines report what it measured, then a scheduler's end banner
    log = (
        "loading registration net from ckpt/reg_best.pt\n"
        "pair 48: scan_0112 -> scan_0207 | overlap = 0.6123\n"
        "pair 49: scan_0091 -> scan_0033 | overlap = 0.5871\n"
        "----------------------------------------\n"
        "Mean overlap: 0.5934\n"
        "Holdout error is 0.1187\n"
        "==============================\n"
        "Job ended at Tue Mar 3 10:12:09 2026\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and d.confidence < 0.8
    assert "ends in reported results" in d.explanation and "Holdout error is 0.1187" in d.explanation
    # the same run cut before it measured anything ends mid-stream: no evidence either way
    assert diagnose_log_text(log.splitlines()[0] + "\nbuilding 120 pairs from the holdout list\n").label == "unknown"
    # a count not yet at its total in the last lines: the run stopped mid-way
    assert diagnose_log_text(log.replace("pair 49:", "[49/120] pair 49:")).label == "unknown"
    # values with a unit of size or time are what the run used, not what it computed (a memory report)
    used = (
        "== memory ==\nHost RSS: 91377.68 MB\nHost available: 1326.06 MB\nHost used pct: 98.7%\nSwap used: 2411.5 MB\n"
    )
    assert diagnose_log_text(used).label == "unknown"


def test_a_clean_log_that_ends_in_a_table_of_measured_values_ran_to_a_result() -> None:
    # the table closes a longer log (a table that is most of the log is already read as results)
    fitting = "".join(f"fitting {m} on 5 folds with grid of 12 settings\n" for m in ("ridge", "knn", "forest", "svm"))
    log = fitting + (
        "selected best setting per model\n"
        "+-----------+--------------------+--------------------+--------------------+\n"
        "|   model   |      accuracy      |         f1         |       roc_auc      |\n"
        "+-----------+--------------------+--------------------+--------------------+\n"
        "|   ridge   | 0.8132999852876269 | 0.7863125149557311 | 0.8973238667394866 |\n"
        "|    knn    | 0.8898043254376931 | 0.8750897343862168 | 0.9415550978372812 |\n"
        "|   forest  | 0.9062821833161689 | 0.9004546542234985 | 0.9445281124497992 |\n"
        "+-----------+--------------------+--------------------+--------------------+\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and "ends in reported results" in d.explanation


def test_a_clean_log_that_ends_saying_its_work_was_done_ran_to_a_result() -> None:
    for end in (
        'Done generating neighbour graph features\nSaved graph list to "graphs_2.pkl"\n',
        "2026-01-02T04:05:34 (run.sh:1301:main) Successfully finished. [elapsed=73s]\n",
        "12:00:01 - INFO - ActivityCompleted: Activity=GetOutput, HowEnded=Success, Duration=191.2[ms]\n",
        "#14 naming to docker.io/library/trainer:latest done\n#14 DONE 2.3s\n",
    ):
        log = "Item mp-1342 has no structure, skipped\nprocessing 2210 items\n" + end
        d = diagnose_log_text(log)
        assert d.label == "healthy" and "ends in reported results" in d.explanation, end
    # a set-up step done is the start-up, not the work: image layers pulled, then nothing
    pulled = "".join(f"{i:04x}a1ec79da: Pull complete\n{i:04x}b0759b5c: Download complete\n" for i in range(4))
    assert diagnose_log_text(pulled).label == "unknown"
    # the work said done, then a warning that what should follow it cannot run: that ends the run's report
    warned = (
        "inference done. Now waiting for the export to finish...\n"
        "WARNING! Cannot run postprocessing because the plans file is missing.\n"
        "Run the consolidation step in the output folder first.\n"
    )
    assert diagnose_log_text(warned).label == "unknown"


def test_a_clean_log_whose_last_lines_say_the_work_ended_anywhere_on_the_line_ran_to_a_result() -> None:
    # the run names its work, then says it ended, at the end of a line that opens on its own tag or a marker
    for end in (
        "[segrun] volume 03: inference done\n",
        "◆ completed target fit_models [41.2 minutes]\n◆ ended pipeline [3.118 hours]\n",
        "2026-03-02 10:41:07 | evaluation finished in 2.7 hours\n",
    ):
        log = "[segrun] device=cuda\n[segrun] weights ready\n[segrun] volume 03: 512 slices\n" + end
        d = diagnose_log_text(log)
        assert d.label == "healthy" and 0.7 <= d.confidence < 0.8, end
        assert "ends in reported results" in d.explanation and end.splitlines()[-1].strip()[-12:] in d.explanation
    # the same run cut before it: it started its work and said nothing more
    assert diagnose_log_text("[segrun] device=cuda\n[segrun] volume 03: inference start\n").label == "unknown"
    # not the run's work: a set-up step, a shutdown, a library's words that only hold the verb
    for end in (
        "[segrun] weights loading complete\n",
        "[segrun] init complete\n",
        "[segrun] multi-modal warmup completed in 4.82s\n",
        "INFO:     Application shutdown complete.\n",
        "Set HYDRA_FULL_ERROR=1 for a complete stack trace.\n",
        "Window cleanup might not have completed.\n",
    ):
        assert diagnose_log_text("[segrun] device=cuda\n[segrun] volume 03: 512 slices\n" + end).label == "unknown", end
    # said done, then more to do: the line goes on past the statement
    assert diagnose_log_text("[segrun] device=cuda\n[segrun] inference done, exporting masks now\n").label == "unknown"


def test_a_clean_log_that_ends_in_a_row_of_values_under_a_header_naming_them_ran_to_a_result() -> None:
    # an evaluation prints one small table per subset: a header of metric names, a rule, one row of values
    subset = (
        "n_refs:812, n_preds=812\n"
        "ref[0]: x_{{i}}+y_{{i}}=z\n"
        "pred[0]: x_{{i}}+y_{{i}}=z\n"
        "Subset: {name}\n"
        "Decode time: 812.4s\n"
        "  chrf ⬆    exact ⬆     dist ⬇\n"
        "--------  ---------  ---------\n"
        "{row}\n"
        "==========================================\n"
    )
    log = subset.format(name="printed", row="0.871204   0.640117  0.0811932") + subset.format(
        name="handwritten", row="0.790533   0.522871  0.1402277"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and 0.7 <= d.confidence < 0.8
    assert "ends in reported results" in d.explanation and "0.790533" in d.explanation
    # the same shape, the header a listing's (a number in it) or a resource's: what the run used, not what it measured
    for header in ("  gpu0   gpu1   gpu2\n", "  cpu    memory    swap\n"):
        used = "Subset: printed\n" + header + "--------  ---------  ---------\n0.87   0.64  0.08\n"
        assert diagnose_log_text(used).label == "unknown", header
    # a row of values with no header over it is a bare number line: no evidence
    assert diagnose_log_text("Subset: printed\nscoring 812 items\n0.871204   0.640117  0.0811932\n").label == "unknown"


def test_a_last_word_done_behind_a_timestamp_and_a_check_mark_is_the_run_ending() -> None:
    # an inference job's per-item lines, then its own last word behind a mark; a cross is not that word
    items = "".join(
        f"[2025-06-21 04:47:{i:02d}] OCR:        line {i} of the page\n[2025-06-21 04:47:{i:02d}] Correction: line {i}\n"
        for i in range(5)
    )
    d = diagnose_log_text(items + "\n[2025-06-21 04:47:23] ✅ Done!\n")
    assert d.label == "healthy", d
    assert diagnose_log_text(items + "\n[2025-06-21 04:47:23] ❌ Done!\n").label == "unknown"


def test_a_job_script_that_echoes_when_it_ended_reached_its_end() -> None:
    # shapes of zzzb-0018 and zzzd-0019 (dev): a results table, then the script's `echo "End: $(date)"`; a step said
    # finished with the time it took. Before: unknown 0.3, "neither an error nor a sign of health"
    ended = (
        "task_name,target,score,runtime_seconds,notes\n"
        "sample_a,none,56.13,80,success\n"
        "sample_b,6D0L,68.67,305,success\n"
        "\n"
        "End: Sun Jan 11 11:43:49 AM CST 2026\n"
    )
    d = diagnose_log_text(ended)
    assert d.label == "healthy" and d.evidence == ["End: Sun Jan 11 11:43:49 AM CST 2026"]
    timed = (
        "2024-04-03 21:10:21,542;INFO;Start train Triplet_EN_500\n"
        "2024-04-04 00:16:38,124;INFO;Finish train Triplet_EN_500 in 11176.58 seconds\n"
        "2024-04-04 00:16:40,001;INFO;Start train Triplet_EN_900\n"
        "2024-04-04 03:02:11,210;INFO;Finish train Triplet_EN_900 in 9931.20 seconds\n"
    )
    assert diagnose_log_text(timed).label == "healthy"


def test_an_end_echoed_after_a_failure_is_not_a_finish() -> None:
    # the script's echo runs whatever the program did: the error above it is read, and an end said badly is no end
    crashed = (
        "epoch 1 loss 0.91\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
        "End: Sun Jan 11 11:43:49 AM CST 2026\n"
    )
    assert diagnose_log_text(crashed).label == "gpu_oom"
    badly = "loading weights\nmodel ready, 3 shards\nJob ended with errors at 2024-03-02 10:11\n"
    assert diagnose_log_text(badly).label != "healthy"


def test_a_run_said_complete_before_the_schedulers_epilogue_finished() -> None:
    # shape of zzzb-0003 (dev): the program's "Run complete!", then PBS's epilogue table. Before: unknown 0.3
    log = (
        "epoch 40/40 done\n"
        "Run complete!\n"
        "Begin Epilogue Wed Jan 27 16:53:20 EST 2021\n"
        "Node               limit      max    limit  current\n"
        "r3i3n34            30.08    35.49   118.00     3.90\n"
        "End Epilogue v2.5.3 Wed Jan 27 16:53:21 EST 2021\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and d.evidence == ["Run complete!"]
    assert not says_finished(prepare(["run complete: 3 errors"]).lines[0])
    assert not says_finished(prepare(["job completed with exit code 1"]).lines[0])


def test_a_job_scripts_shell_trace_does_not_hide_its_last_word() -> None:
    # shape of zzg-0002 (dev): an MLPerf job script under `set -x` behind srun's task labels; the shell's trace of
    # its commands follows the script's "ENDING TIMING RUN AT …". Before: unknown 0.3
    log = (
        '278: :::MLL 1593108840.201 run_stop: {"status": "success"}\n'
        "278: + END=1593108845\n"
        "278: ENDING TIMING RUN AT 2020-06-25 11:14:05 AM\n"
        "278: + echo 'ENDING TIMING RUN AT 2020-06-25 11:14:05 AM'\n"
        "278: + RESULT=286\n"
        "278: + RESULT_NAME=bert\n"
        "278: RESULT,bert,24797,286,root,2020-06-25 11:09:19 AM\n"
        "278: + echo 'RESULT,bert,24797,286,root,2020-06-25 11:09:19 AM'\n"
        "278: + set +x\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and d.evidence == ["278: ENDING TIMING RUN AT 2020-06-25 11:14:05 AM"]
    # the trace alone is what the script ran, not what it printed: no evidence
    traced = "+ cd /workspace\n+ python train.py --epochs 3\n+ echo 'ENDING TIMING RUN AT 2020-06-25 11:14:05 AM'\n"
    assert diagnose_log_text(traced).label == "unknown"


def test_a_count_of_finished_work_at_the_logs_end_is_a_result() -> None:
    # shape of zzy-0004 (dev): a batch prediction's class counts, then its last word. Before: unknown 0.3
    log = (
        "Loading models from models/\n"
        "Computing features for 26050 rows with 8 workers\n"
        "Distribution:\n"
        "No risk      21961\n"
        "Extreme       3579\n"
        "\n"
        "Updating risk levels in DB...\n"
        "  Updated 26182 rows.\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and d.evidence == ["  Updated 26182 rows."] and d.confidence < 0.8
    # a count still short of its total, or a download, is not work finished
    for end in (
        "Processed 45 images of 100\n",
        "Downloaded 3 files\n",
        "Processed 12 shards, 88 to go and then the rest\n",
    ):
        assert diagnose_log_text("Loading models from models/\n" + end).label == "unknown", end


def test_a_benchmarks_timing_statistics_are_its_result_but_a_steps_duration_is_not() -> None:
    # shape of zzzk-0043 (dev): a latency benchmark's summary. Before: unknown 0.3
    log = (
        "Warming up both models (5 runs)\n"
        "Sparse LLaMA CUDA Results:\n"
        "Average time: 0.021s\n"
        "Min time: 0.020s\n"
        "Max time: 0.021s\n"
        "Standard LLaMA CUDA Results:\n"
        "Average time: 0.018s\n"
        "Min time: 0.018s\n"
        "Max time: 0.018s\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and "ends in reported results" in d.explanation
    # what a step cost, with no statistic: a start-up cut off after compiling, not a result
    cut = "Loading weights took 95.63 s\nDynamo bytecode transform time: 5.66 s\ntorch.compile took 30.61 s in total\n"
    assert diagnose_log_text(cut).label == "unknown"


def test_a_reports_section_title_over_the_items_that_failed_is_not_an_error() -> None:
    # shape of zzzi-0106 (blind v19): an evaluation's per-episode report, its section titles between rules
    rows = "".join(f"PASS\teval_index={i}\tepisode_id={1000 + i}\n" for i in range(4))
    log = (
        "==== FAILED EPISODES ====\n"
        "FAIL\teval_index=11\tepisode_id=5123\n"
        "==== PASSED EPISODES ====\n" + rows + "Saved episode manifest to /scratch/pusht_results_episodes.tsv\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy", d
    # the same word on a line of its own is still an error line
    assert diagnose_log_text("==== FAILED ====\ntrainer exited\n").label != "healthy"


def test_a_readiness_poll_that_got_its_server_and_a_wrappers_zero_status_are_a_finish() -> None:
    # shape of zzj-0030 (dev): a watchdog polls a llama.cpp server (503 while it loads), the server comes up, the
    # request completes, the watchdog records the command's status 0. Before: network_download 0.82 on the 503 poll
    log = (
        "[2026-02-15T16:39:28Z] Container started id=6a36eeb1e539\n"
        "[2026-02-15T16:39:53Z] Waiting for server readiness on port=8113 attempt=6/180 http=503\n"
        "[2026-02-15T16:40:24Z] Waiting for server readiness on port=8113 attempt=12/180 http=503\n"
        "[2026-02-15T16:40:34Z] Server ready on port=8113; submitting chat request\n"
        "[2026-02-15T16:41:04Z] Chat request completed successfully\n"
        "[2026-02-15T16:41:27Z] watchdog finished cmd_status=0\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and "went on past it" in d.explanation
    # the poll that never got its server: the 503s are the reading
    never = log.split("[2026-02-15T16:40:34Z]")[0]
    assert diagnose_log_text(never).label == "network_download"
    # a status that is not zero, and a request that did not complete, are no finish
    assert not says_finished(prepare(["watchdog finished cmd_status=1"]).lines[0])
    assert diagnose_log_text("warming up\nChat request completed successfully, retrying the rest\n").label != "healthy"


def test_records_that_print_a_diff_and_a_report_mapping_with_empty_failure_fields_are_routine() -> None:
    # an evaluation harness logs the patch it applied (a unified diff under a record) and a report whose failure
    # keys are empty or false: neither is a plain line nor a statement that something failed
    rec = "2026-08-18 19:04:56,227 - INFO - "
    log = (
        f"{rec}Creating container for task-12...\n"
        f"{rec}Container for task-12 started: 71c716a7\n"
        f"{rec}Git diff before:\n"
        "diff --git a/pkg/sep.py b/pkg/sep.py\n"
        "index a308e2729..45bea3608 100755\n"
        "--- a/pkg/sep.py\n"
        "+++ b/pkg/sep.py\n"
        "@@ -242,7 +242,7 @@ def _cstack(left, right):\n"
        "-        cright[-n:, -m:] = 1\n"
        "+        cright[-n:, -m:] = right\n"
        f"{rec}Test runtime: 157.21 seconds\n"
        f"{rec}report: {{'task-12': {{'resolved': True, 'infra_failure': False, "
        "'FAIL_TO_PASS': {'success': ['t1'], 'failure': []}}}\n"
        f"{rec}Container for task-12 stopped successfully.\n"
        f"{rec}Container for task-12 removed successfully.\n"
    )
    assert diagnose_log_text(log).label == "healthy"
    # a failure key with a message as its value states a failure
    failed = log.replace("'failure': []", "'failure': ['t2 failed: AssertionError']")
    assert diagnose_log_text(failed).label != "healthy"


def test_a_platforms_documented_start_up_notices_are_not_failures() -> None:
    # a SageMaker training container's start-up (toolkit, debugger hook, bash without a terminal), then training
    log = (
        "bash: cannot set terminal process group (-1): Inappropriate ioctl for device\n"
        "bash: no job control in this shell\n"
        "2023-02-04 16:52:46,559 sagemaker-training-toolkit INFO     Failed to parse hyperparameter"
        " _tuning_objective_metric value average test loss to Json.\n"
        "Returning the value itself\n"
        "[2022-11-13 14:57:12.183 algo-1:27 INFO state_store.py:77] The checkpoint config file"
        " /opt/ml/input/config/checkpointconfig.json does not exist.\n"
        "Failure while loading azureml_run_type_providers. Failed to load entrypoint azureml.scriptrun ="
        " azureml.core.script_run:ScriptRun._from_run_dto with exception (packaging 26.2)\n"
        "2026-04-13 14:58:30,339 - INFO - HTTP Request: GET https://huggingface.co/api/models/org/m/tree/main/"
        'additional_chat_templates?recursive=false "HTTP/1.1 404 Not Found"\n'
        "epoch 1/3 loss 0.91\nepoch 2/3 loss 0.72\nepoch 3/3 loss 0.64\n"
    )
    assert diagnose_log_text(log).label == "healthy"


def test_advice_about_what_to_do_if_memory_runs_out_is_not_running_out() -> None:
    advice = (
        "INFO 03-19 06:35:51 model_runner.py:1399] CUDA graphs can take additional 1~3 GiB memory per GPU. If you are"
        " running out of memory, consider decreasing `gpu_memory_utilization` or enforcing eager mode.\n"
    )
    log = advice + "INFO 03-19 06:36:20 launcher.py:27] Route: /v1/completions, Methods: POST\n"
    assert diagnose_log_text(log).label != "gpu_oom"
    assert diagnose_log_text("RuntimeError: CUDA error: out of memory\n").label == "gpu_oom"


def test_an_error_rate_in_percent_is_a_measurement() -> None:
    log = "".join(f"epoch {e}, minibatch 120/120, validation error {5.8 - e / 100:.6f} %\n" for e in range(250, 260))
    assert diagnose_log_text(log).label != "validation_error"


def test_vllm_probing_flash_attention_at_error_level_then_choosing_another_backend_is_not_a_failure() -> None:
    log = (
        "INFO 08-03 15:21:34 [__init__.py:216] Automatically detected platform cuda.\n"
        "ERROR 08-03 15:21:53 [fa_utils.py:57] Cannot use FA version 2 is not supported due to FA2 is only supported"
        " on devices with compute capability >= 8\n"
        "INFO 08-03 15:21:53 [cuda.py:420] Using FlexAttention backend.\n"
        "INFO 08-03 15:22:10 [gpu_model_runner.py:1953] Model loading took 7.16 GiB and 12.3 seconds\n"
        "INFO 08-03 15:22:40 [api_server.py:1818] Starting vLLM API server 0 on http://0.0.0.0:8000\n"
    )
    assert diagnose_log_text(log).label == "healthy"


def test_a_debug_record_of_a_probe_that_found_nothing_is_not_a_failure() -> None:
    probe = (
        "(APIServer pid=229492) [DEBUG] model_hosting_container_standards - handler_resolver.py:71: No customer"
        " script custom_sagemaker_ping_handler function found: HandlerFileNotFoundError\n"
    )
    serving = "".join(
        f"(APIServer pid=229492) INFO 03-19 06:36:2{i} [loggers.py:123] Engine 000: Avg prompt throughput:"
        f" {100 + i}.0 tokens/s, Running: 1 reqs\n"
        for i in range(4)
    )
    assert diagnose_log_text(probe + serving).label != "file_not_found"
    # the same words at error level are a failure
    loud = probe.replace("[DEBUG]", "[ERROR]")
    assert diagnose_log_text(loud).label == "file_not_found"


def test_a_login_shells_start_up_file_failing_a_line_is_not_the_jobs_failure() -> None:
    head = "/home/u/.bashrc: line 2: /home/u/.cargo/env: No such file or directory\n"
    assert diagnose_log_text(head + "epoch 1/2 loss 0.9\n").label != "file_not_found"
    # the job's own missing file still is
    own = head + "python: can't open file '/home/u/train.py': [Errno 2] No such file or directory\n"
    assert diagnose_log_text(own).label == "file_not_found"


def test_a_traceback_torch_logged_under_a_glog_warning_header_was_caught() -> None:
    w = "W0530 14:48:43.150000 2622492 site-packages/torch/_dynamo/convert_frame.py:1233] "
    warned = (
        f'{w}  File "/env/lib/python3.11/site-packages/torch/_inductor/graph.py", line 2027, in compile_to_module\n'
        f"{w}    compiled_fn = graph.compile_to_module().call\n"
        f"{w}torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
        f"{w}SystemError: PY_SSIZE_T_CLEAN macro must be defined for '#' formats\n"
        f'{w}Set TORCH_LOGS="+dynamo" and TORCHDYNAMO_VERBOSE=1 for more information\n'
    )
    assert diagnose_log_text(warned).label != "user_code_error"
    # the same traceback raised (no warning header) stops the program
    raised = warned.replace(w, "")
    assert diagnose_log_text("Traceback (most recent call last):\n" + raised).label != "healthy"


def test_warnings_that_a_system_call_failed_are_not_routine_talk() -> None:
    failed = "[W socket.cpp:426] [c10d] The server socket has failed to bind to [::]:38429 (errno: 98 - Address already in use).\n"
    assert diagnose_log_text(failed * 4).label != "healthy"
    # the common IPv6 probe warning stays routine
    probe = (
        "[W socket.cpp:663] [c10d] The server socket cannot be initialized on [::]:29500 (errno: 97 - Address family"
        " not supported by protocol).\n"
    )
    assert diagnose_log_text(probe * 3).label == "healthy"


def test_a_counter_printed_in_a_python2_tuple_is_progress() -> None:
    log = "".join(
        f"('Epoch ', {e}, ' Training Accuracy: ', 0.99{e}, ' Training Loss: ', 0.55{e})\n" for e in range(4983, 4987)
    )
    lines = prepare(log.splitlines()).lines
    assert is_progress(lines[0])
    assert diagnose_log_text(log).label == "healthy"


def test_an_exception_the_program_logged_itself_then_went_on_from_is_not_what_stopped_it() -> None:
    # (the program's own record of an exception it caught; bitsandbytes' native-library record, which this test
    # quoted first, is now known as a logged fallback: formats/noise.py)
    logged = (
        "Could not score the prompt: 'NoneType' object has no attribute 'split'\n"
        "Traceback (most recent call last):\n"
        '  File "/app/score.py", line 24, in score_prompt\n'
        '    major, minor = map(int, answer.split("."))\n'
        "AttributeError: 'NoneType' object has no attribute 'split'\n"
        "Device set to use cuda:0\n"
        "Setting `pad_token_id` to `eos_token_id`:128001 for open-end generation.\n"
        "Generated 16 answers.\n"
    )
    assert diagnose_log_text(logged).label != "user_code_error"
    # the same exception logged for item after item is the run failing at each
    item = logged.replace("Device set to use cuda:0\n", "").replace("Generated 16 answers.\n", "")
    assert diagnose_log_text(item * 3 + "Generated 0 answers.\n").label == "user_code_error"


def test_pytests_quiet_summary_with_nothing_failed_is_a_finish() -> None:
    lines = prepare(["5 passed, 7 deselected in 23.60s"]).lines
    assert says_finished(lines[0])
    assert not says_finished(prepare(["3 failed, 5 passed in 23.60s"]).lines[0])


def test_julias_time_report_of_a_call_that_returned_is_progress() -> None:
    line = prepare(["15108.471510 seconds (295.12 M allocations: 36.261 GiB, 0.04% gc time)"]).lines[0]
    assert is_progress(line)


def test_a_cmake_builds_progress_and_lightgbms_start_of_boosting_are_the_run_going() -> None:
    build = prepare(["#20 504.8 [ 95%] Linking CXX executable ../../bin/llama-mtmd-cli"]).lines[0]
    assert is_progress(build)
    log = "[LightGBM] [Info] Total Bins 3060\nTraining until validation scores don't improve for 50 rounds\n"
    assert diagnose_log_text(log).label == "healthy"


def test_items_of_work_reported_done_with_their_duration_are_progress() -> None:
    assert is_progress(prepare(["[timing] sample processed in 283.23s"]).lines[0])
    assert not is_progress(prepare(["[timing] sample failed in 283.23s"]).lines[0])


_TRITON_UP = (
    "I0522 15:59:57.741854 1181901 tritonserver.cc:2176]\n"
    "I0522 15:59:57.747960 1181901 grpc_server.cc:4608] Started GRPCInferenceService at 0.0.0.0:9001\n"
    "I0522 15:59:57.749631 1181901 http_server.cc:3312] Started HTTPService at 0.0.0.0:9000\n"
    "I0522 15:59:57.809011 1181901 http_server.cc:178] Started Metrics Service at 0.0.0.0:9002\n"
)
_TRITON_START = (
    "W0522 15:59:52.379950 1181901 pinned_memory_manager.cc:236] Unable to allocate pinned system memory, pinned "
    "memory pool will not be available: CUDA driver version is insufficient for CUDA runtime version\n"
    "I0522 15:59:52.380130 1181901 cuda_memory_manager.cc:115] CUDA memory pool disabled\n"
    "I0522 15:59:57.732600 1181901 server.cc:629]\n"
    "+----------------------+---------+--------+\n"
    "| Model                | Version | Status |\n"
    "+----------------------+---------+--------+\n"
)


def test_a_server_that_came_up_after_its_start_up_complaints_is_serving() -> None:
    # Triton on a CPU instance: the GPU it could not use is logged while starting, then it serves (zze-0005)
    log = (
        _TRITON_START
        + "| photonObjectCombined | 1       | READY  |\n"
        + "Error: Failed to initialize NVML\n"
        + _TRITON_UP
    )
    assert diagnose_log_text(log).label == "healthy"


def test_a_server_up_without_its_model_or_failing_after_it_came_up_is_not_healthy() -> None:
    unavailable = "| photonObjectCombined | 1       | UNAVAILABLE: Internal: unable to load model |\n"
    assert diagnose_log_text(_TRITON_START + unavailable + _TRITON_UP).label != "healthy"
    after = (
        "E0522 16:00:03.100000 1181901 pinned_memory_manager.cc:236] CUDA driver version is insufficient for CUDA "
        "runtime version\n"
    )
    assert diagnose_log_text(_TRITON_START + "| m | 1 | READY |\n" + _TRITON_UP + after).label == "cuda_driver"


def test_a_numbered_native_backtrace_is_a_crash_stack_not_a_growing_counter() -> None:
    # darknet's cfg check, then glibc's backtrace_symbols() numbered "1/10: …" (zzzm-0117): not a run going on
    frames = "".join(
        f"{i}/6: ./darknet/darknet({fn}+0x{i}8) [0x5c6c92b5a1f{i}]\n"
        for i, fn in enumerate(("log_backtrace", "error", "parse_yolo", "train_detector", "run_detector", "main"), 1)
    )
    log = (
        "Darknet error location: ./src/parser.c, parse_yolo(), line #458\n"
        "Error: l.outputs == params.inputs, filters= in the [convolutional]-layer doesn't correspond to classes= or "
        "mask= in [yolo]-layer: Success\n"
        "backtrace (6 entries)\n" + frames
    )
    lines = prepare(log.splitlines()).lines
    assert all(ln.code for ln in lines[3:])
    assert diagnose_log_text(log).label != "healthy"


def test_a_bar_that_stands_at_zero_is_not_progress() -> None:
    # vLLM's generation bar drawn before any prompt finished: a hang shows only this (zzzm-0012)
    zero = (
        "Processed prompts:   0%|          | 0/16 [00:00<?, ?it/s, est. speed input: 0.00 toks/s, output: 0.00 toks/s]"
    )
    moving = "Processed prompts:  50%|█████     | 8/16 [00:03<00:03, 2.41it/s, est. speed input: 0.00 toks/s]"
    glued = "Epoch 1:   0%|          | 0/10 [00:00<?, ?it/s]\rEpoch 1:  10%|█         | 1/10 [00:01<00:09, 1.0it/s]"
    assert not is_progress(prepare([zero]).lines[0])
    assert is_progress(prepare([moving]).lines[0])
    assert is_progress(prepare([glued]).lines[0])


def test_a_metric_reported_as_a_list_of_values_is_a_result() -> None:
    # a k-fold Keras job printing each fold's accuracies after TF's CPU-only cuInit error (zzzl-0004)
    log = (
        "2019-12-08 12:01:50.285561: E tensorflow/stream_executor/cuda/cuda_driver.cc:397] failed call to cuInit: "
        "CUDA_ERROR_NO_DEVICE\n"
        "Training\n"
        "Train accuracy: [0.9735375, 0.990575, 0.9940875, 0.99345]\n"
        "Test Accuracy: [0.99075, 0.9925, 0.9927, 0.9821]\n"
        "Training\n"
        "Train accuracy: [0.9874375, 0.9961, 0.9964, 0.9948]\n"
        "Test Accuracy: [0.9956, 0.99605, 0.98945, 0.99335]\n"
    )
    assert is_progress(prepare(["Test Accuracy: [0.99075, 0.9925, 0.9927]"]).lines[0])
    assert not is_progress(prepare(["accuracy: [n/a]"]).lines[0])
    assert diagnose_log_text(log).label == "healthy"


def test_steps_printed_after_a_traceback_do_not_undo_it_when_the_run_ends_quoting_its_message() -> None:
    # stderr's traceback flushed before stdout's steps; the program's last words quote the KeyError (zzzp-0019)
    log = (
        "Traceback (most recent call last):\n"
        '  File "run_stage1.py", line 130, in train_baseline_models\n'
        "    image_size = tuple(config['data']['image_size'])\n"
        "KeyError: 'image_size'\n"
        "[Step 1] Creating data loaders...\n"
        "[Step 2] Setting up field conversion...\n"
        "[Step 3] Training hybrid Transformer-GNN model...\n"
        "  ✗ Failed to train hybrid model: 'image_size'\n"
        "[Step 4] Training baseline models...\n"
        "  ✗ Failed to train baseline models: 'image_size'\n"
        "✗ No models available for evaluation\n"
    )
    assert diagnose_log_text(log).label not in ("healthy", "unknown")


def test_metrics_named_before_their_values_with_a_space_only_are_a_result() -> None:
    # a script that prints each model's scores as "<model> accuracy <value> <model> MCC <value>" ran to a result
    log = (
        "wandb: Logged confusion matrix.\n"
        "wandb: Logged roc curve.\n"
        "gmm accuracy 0.7521344717182498 km accuracy 0.6595517609391676\n"
        "svc accuracy 0.7353333333333333 svc MCC 0.4728652081280937\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and "ends in reported results" in d.explanation
    # a setting or a row label before a number is not a metric: no evidence either way
    assert diagnose_log_text("wandb: Logged roc curve.\nlr 0.0013 warmup 0.25\nLSTM 0.7323\n").label == "unknown"


def test_rows_of_a_label_and_its_values_under_a_header_naming_them_are_a_result() -> None:
    # a data frame printed without its index at the end of a run: model names, then their scores
    log = (
        "Best single model : BiLSTM\n"
        "[WARN] Models below the threshold:\n"
        "      Model     R2\n"
        "       LSTM 0.7323\n"
        "        GRU 0.4777\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and "0.4777" in d.explanation
    # the same rows under a listing's header (a number that is no metric's name) are not named measured values
    listing = log.replace("      Model     R2\n", "      host     gpu0\n")
    assert diagnose_log_text(listing).label == "unknown"
