"""Training frameworks' progress and end-of-training lines, as their sources print them."""

from __future__ import annotations

from runshepherd.diagnosis.formats import Marker

_HF_TRAINER = "https://github.com/huggingface/transformers/blob/main/src/transformers/trainer.py"
_LIGHTNING = "https://github.com/Lightning-AI/pytorch-lightning/blob/master/src/lightning/pytorch/loops/fit_loop.py"
_MEGATRON = "https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/training/training.py"
_DEEPSPEED = "https://github.com/microsoft/DeepSpeed/blob/master/deepspeed/runtime/engine.py"
_ESPNET = "https://github.com/espnet/espnet/blob/master/espnet2/train/trainer.py"
_ULTRALYTICS = "https://github.com/ultralytics/ultralytics/blob/main/ultralytics/engine/trainer.py"
_DETECTRON2_EVENTS = "https://github.com/facebookresearch/detectron2/blob/main/detectron2/utils/events.py"
_DETECTRON2_HOOKS = "https://github.com/facebookresearch/detectron2/blob/main/detectron2/engine/hooks.py"
_TF_HOOKS = "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/training/basic_session_run_hooks.py"
_IGNITE = "https://github.com/pytorch/ignite/blob/master/ignite/engine/engine.py"
_FASTAI = "https://docs.fast.ai/tutorial.vision.html"
_MMENGINE = "https://github.com/open-mmlab/mmengine/blob/main/mmengine/runner/log_processor.py"

MARKERS: tuple[Marker, ...] = (
    # ---------------------------------------------------------------------------------------------- finished
    Marker(
        "lightning",
        "finished",
        r"`Trainer\.fit` stopped: `max_(?:epochs|steps)",
        "`Trainer.fit` stopped: `max_epochs=10` reached.",
        _LIGHTNING,
    ),
    # the HF Trainer's summary once train() returned: its log dict, Trainer.log_metrics' table, wandb's run summary
    Marker(
        "hf trainer",
        "finished",
        r"\{'train_runtime': [\d.]+|^\*{5} train metrics \*{5}|^\s*(?:wandb:\s+)?train_runtime\s*=?\s*\d[\d:.]*\s*$",
        "{'train_runtime': 125.4, 'train_samples_per_second': 47.8, 'train_steps_per_second': 3.0, 'train_loss': 0.41, 'epoch': 3.0}",
        _HF_TRAINER,
    ),
    Marker(
        "megatron-lm",
        "finished",
        r"\[after training is done\]",
        "[after training is done] datetime: 2024-01-01 10:00:00 ",
        _MEGATRON,
    ),
    Marker(
        "espnet",
        "finished",
        r"\bThe training was finished at \d+ epochs\b",
        "The training was finished at 100 epochs ",
        _ESPNET,
    ),
    # ultralytics and YOLOv5 once the last epoch ended (an early stop prints the same line)
    Marker(
        "ultralytics",
        "finished",
        r"^\d+ epochs completed in [\d.]+ hours\.",
        "3 epochs completed in 0.004 hours.",
        _ULTRALYTICS,
    ),
    # TF Estimator.train() returning
    Marker(
        "tf estimator",
        "finished",
        r"\bLoss for final step: -?[\d.]+",
        "INFO:tensorflow:Loss for final step: 0.3017.",
        "https://github.com/tensorflow/estimator/blob/master/tensorflow_estimator/python/estimator/estimator.py",
    ),
    Marker(
        "fairseq",
        "finished",
        r"\bdone training in [\d.]+ seconds\b",
        "done training in 3550.4 seconds",
        "https://github.com/facebookresearch/fairseq/blob/main/fairseq_cli/train.py",
    ),
    # early stopping is a normal end: Keras' EarlyStopping callback, Lightning's (a monitored metric that stopped
    # improving; its "is not finite" stop is a diverging run and is not this), AllenNLP's trainer out of patience, spaCy's train loop saving the pipeline
    Marker(
        "keras",
        "finished",
        r"^Epoch \d+: early stopping\s*$",
        "Epoch 15: early stopping",
        "https://github.com/keras-team/keras/blob/master/keras/src/callbacks/early_stopping.py",
    ),
    Marker(
        "lightning",
        "finished",
        r"\bdid not improve in the last \d+ records\. Best score: -?[\d.]+\. Signaling Trainer to stop\.",
        "Monitored metric val_loss did not improve in the last 3 records. Best score: 0.123. Signaling Trainer to stop.",
        "https://github.com/Lightning-AI/pytorch-lightning/blob/master/src/lightning/pytorch/callbacks/early_stopping.py",
    ),
    Marker(
        "allennlp",
        "finished",
        r"\bRan out of patience\. +Stopping training\.",
        "allennlp.training.trainer - Ran out of patience.  Stopping training.",
        "https://github.com/allenai/allennlp/blob/main/allennlp/training/gradient_descent_trainer.py",
    ),
    Marker(
        "spacy",
        "finished",
        r"^(?:✔|\[\+\]) Saved pipeline to output directory",
        "✔ Saved pipeline to output directory",
        "https://github.com/explosion/spaCy/blob/master/spacy/training/loop.py",
    ),
    # fairseq-generate's score line, once the whole test set was generated
    Marker(
        "fairseq",
        "finished",
        r"\bGenerate \w+ with beam=\d+: BLEU\d? = [\d.]+",
        "Generate test with beam=5: BLEU4 = 34.28, 67.3/42.4/28.9/20.1 (BP=1.000, ratio=1.012, syslen=131156, reflen=129625)",
        "https://github.com/facebookresearch/fairseq/blob/main/fairseq_cli/generate.py",
    ),
    # Prefect: a flow run ending Completed (a task run ending Completed is progress; Failed/Crashed is a failure record)
    Marker(
        "prefect",
        "finished",
        r"\bFlow run '[^']+' - Finished in state Completed\(",
        "10:00:05.123 | INFO    | Flow run 'fantastic-starling' - Finished in state Completed()",
        "https://docs.prefect.io/v3/get-started/quickstart",
    ),
    # ---------------------------------------------------------------------------------------------- progress
    # Lightning's ModelCheckpoint after a validation: the monitored metric and whether it saved
    Marker(
        "lightning",
        "progress",
        r"\bEpoch \d+, global step \d+: '[^']+' (?:reached -?[\d.]+|was not in top \d+)",
        "Epoch 0, global step 100: 'val_loss' reached 0.12345 (best 0.12345), saving model to "
        "'/ckpt/epoch=0-step=100.ckpt' as top 1",
        "https://github.com/Lightning-AI/pytorch-lightning/blob/master/src/lightning/pytorch/callbacks/model_checkpoint.py",
    ),
    Marker(
        "prefect",
        "progress",
        r"\bTask run '[^']+' - Finished in state Completed\(",
        "09:43:26.144 | INFO    | Task run 'fetch-b4598a4a-0' - Finished in state Completed()",
        "https://docs.prefect.io/v3/get-started/quickstart",
    ),
    Marker(
        "hf trainer",
        "progress",
        r"^\{'loss': -?[\d.]+(?:e[-+]?\d+)?, (?:'grad_norm': [^,]+, )?'learning_rate': ",
        "{'loss': 0.6931, 'grad_norm': 1.234, 'learning_rate': 4.5e-05, 'epoch': 0.3}",
        _HF_TRAINER,
    ),
    Marker(
        "megatron-lm",
        "progress",
        r"\biteration\s+\d+/\s*\d+ \|",
        " iteration      100/  500000 | consumed samples:        12800 | elapsed time per iteration (ms): 512.3 | "
        "learning rate: 1.500E-04 | global batch size:   128 | lm loss: 7.913580E+00 | loss scale: 65536.0 |",
        _MEGATRON,
    ),
    Marker(
        "deepspeed",
        "progress",
        r"\bstep=\d+, skipped=\d+, lr=\[",
        "[Rank 0] step=10, skipped=0, lr=[2e-05], mom=[(0.9, 0.999)]",
        _DEEPSPEED,
    ),
    Marker(
        "deepspeed",
        "progress",
        r"\bepoch=\d+/micro_step=\d+/global_step=\d+",
        "epoch=0/micro_step=20/global_step=10, RunningAvgSamplesPerSec=95.1, CurrSamplesPerSec=96.3, MemAllocated=1.2GB",
        _DEEPSPEED,
    ),
    Marker(
        "mmengine",
        "progress",
        r"\bEpoch\(train\)\s*\[\d+\]\s*\[\s*\d+/\d+\]|\bIter\(train\)\s*\[\s*\d+/\d+\]",
        "Epoch(train)  [1][  50/1000]  lr: 2.0000e-02  eta: 0:12:03  time: 0.0732  data_time: 0.0036  memory: 1234  loss: 0.5432",
        _MMENGINE,
    ),
    # the same processor's record of a validation or test loop's batches: get_log_after_iter writes
    # "Epoch(val) [E][i/N]" by epoch, "Epoch(test) [i/N]" for a test loop, "Iter(val|test) [i/N]" by iteration
    Marker(
        "mmengine",
        "progress",
        r"\b(?:Epoch|Iter)\((?:val|test)\)\s*(?:\[\d+\]\s*)?\[\s*\d+/\d+\]",
        "Epoch(test) [ 50/500]    eta: 0:01:10  time: 0.1534  data_time: 0.0021  memory: 1560",
        _MMENGINE,
    ),
    Marker(
        "detectron2",
        "progress",
        r"\beta: [\d:]+\s+iter: \d+\s",
        " eta: 0:12:34  iter: 19  total_loss: 2.134  loss_cls: 0.712  time: 0.3520  data_time: 0.0120  lr: 0.000400  max_mem: 2345M",
        _DETECTRON2_EVENTS,
    ),
    # printed by IterationTimer.after_train, which runs in a ``finally``: after a crash too, so never "finished"
    Marker(
        "detectron2",
        "summary",
        r"\bOverall training speed: \d+ iterations in\b|\bTotal training time: \d",
        "Overall training speed: 298 iterations in 0:01:36 (0.3216 s / it)",
        _DETECTRON2_HOOKS,
    ),
    Marker(
        "keras",
        "progress",
        r"^\s*\d+/\d+ (?:\[[=>.]*\]|[━─]+) .*- loss: -?\d",
        "1875/1875 [==============================] - 3s 2ms/step - loss: 0.2961 - accuracy: 0.9139",
        "https://keras.io/guides/training_with_built_in_methods/",
    ),
    Marker(
        "tf estimator",
        "progress",
        r"\bloss = -?[\d.]+(?:e[-+]?\d+)?, step = \d+",
        "INFO:tensorflow:loss = 2.3012, step = 1",
        _TF_HOOKS,
    ),
    Marker(
        "tf estimator", "progress", r"\bglobal_step/sec: [\d.]+", "INFO:tensorflow:global_step/sec: 150.3", _TF_HOOKS
    ),
    Marker(
        "tf estimator",
        "progress",
        r"\bSaving checkpoints for \d+ into\b",
        "INFO:tensorflow:Saving checkpoints for 1000 into /tmp/model/model.ckpt.",
        _TF_HOOKS,
    ),
    # TensorFlow 1.x's GPU pool allocator growing its pool as the session's steps keep allocating ("After N get
    # requests"): the graph is being run again and again
    Marker(
        "tensorflow",
        "progress",
        r"\bPoolAllocator: After \d+ get requests, put_count=\d+",
        "I tensorflow/core/common_runtime/gpu/pool_allocator.cc:247] PoolAllocator: After 14140 get requests, "
        "put_count=14101 evicted_count=1000 eviction_rate=0.070917 and unsatisfied allocation rate=0.0805516",
        "https://github.com/tensorflow/tensorflow/blob/r1.15/tensorflow/core/common_runtime/gpu/pool_allocator.cc",
    ),
    # boosting libraries' evaluation lines: XGBoost "[10]\tvalidation_0-rmse:0.31", LightGBM "[100]\tvalid_0's auc: 0.91"
    # (the iteration in brackets reads like a task tag, which the line preparation strips)
    Marker(
        "xgboost/lightgbm",
        "progress",
        r"^(?:\[\d+\]\s+)?\w+(?:-[\w@.]+:|'s [\w@]+: )-?\d+\.\d+(?:\s|$)",
        "[10]\ttrain-rmse:0.31422\teval-rmse:0.33351",
        "https://xgboost.readthedocs.io/en/stable/python/python_intro.html#training",
    ),
    Marker(
        "catboost",
        "progress",
        r"(?:^|\s)learn: -?[\d.]+\s.*\btotal: [\d.]+m?s\s+remaining: ",
        "0:\tlearn: 0.6854377\ttest: 0.6851032\tbest: 0.6851032 (0)\ttotal: 56.4ms\tremaining: 5.58s",
        "https://catboost.ai/en/docs/concepts/output-data_training-log",
    ),
    Marker(
        "scikit-learn",
        "progress",
        r"^\[CV(?: \d+/\d+)?\] END\b.*\btotal time=\s*[\d.]+s",
        "[CV 1/5] END ....................C=1, gamma=0.1;, score=0.957 total time=   0.0s",
        "https://github.com/scikit-learn/scikit-learn/blob/main/sklearn/model_selection/_validation.py",
    ),
    Marker(
        "joblib",
        "progress",
        r"\[Parallel\(n_jobs=-?\d+\)\]: Done\s+\d+ (?:out of\s+\d+|tasks)\s+\| elapsed:",
        "[Parallel(n_jobs=4)]: Done  50 out of  50 | elapsed:    1.2s finished",
        "https://github.com/joblib/joblib/blob/main/joblib/parallel.py",
    ),
    Marker(
        "fastai",
        "progress",
        r"^\s*\d+\s+-?\d+\.\d+\s+-?\d+\.\d+(?:\s+-?\d+\.\d+)*\s+\d{2}:\d{2}\s*$",
        "0       0.169526    0.021375    0.006766    00:14",
        _FASTAI,
    ),
    # a trial (Ray Tune), an epoch or an evaluation engine (Ignite) completing: a unit of the run, not the run
    Marker(
        "ray tune",
        "progress",
        r"\bTrial \S+ (?:completed after \d+ iterations|finished iteration \d+) at\b",
        "Trial train_fn_3e5b1_00000 completed after 10 iterations at 2023-06-21 14:28:31. Total running time: 4s",
        "https://docs.ray.io/en/latest/tune/tutorials/tune-output.html",
    ),
    Marker(
        "ignite",
        "progress",
        r"\bEpoch\[\d+\] Complete\. Time taken:|\bEngine run complete\. Time taken:?\s*\d",
        "Engine run complete. Time taken: 00:00:10.512",
        _IGNITE,
    ),
    Marker(
        "mindspore",
        "progress",
        r"\bepoch: \d+ step: \d+, loss is -?[\d.]+",
        "epoch: 1 step: 1875, loss is 0.2963",
        "https://www.mindspore.cn/docs/en/master/api_python/train/mindspore.train.LossMonitor.html",
    ),
    Marker(
        "paddle hapi",
        "progress",
        r"^step\s+\d+/\d+ - loss: ",
        "step 100/938 - loss: 0.2836 - acc: 0.8906 - 12ms/step",
        "https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/Model_en.html",
    ),
    Marker(
        "composer",
        "progress",
        r"\[epoch=\d+\]\[batch=\d+/\d+\]",
        "[epoch=1][batch=16/625]: Train loss/train/total: 2.3013",
        "https://github.com/mosaicml/composer/blob/dev/composer/loggers/console_logger.py",
    ),
    Marker(
        "torchtune",
        "progress",
        r"^\d+\|\d+\|Loss: -?[\d.]+",
        "1|25|Loss: 1.2341: 100%|██████████| 25/25 [00:31<00:00,  1.25s/it]",
        "https://github.com/pytorch/torchtune/blob/main/recipes/full_finetune_single_device.py",
    ),
    Marker(
        "marian",
        "progress",
        r"\bEp\. \d+ : Up\. \d+ : Sen\. [\d,]+ : Cost -?[\d.]+",
        "Ep. 1 : Up. 1000 : Sen. 512,000 : Cost 5.21493340 * 1,234,567 @ 7,890 after 12,345,678 : Time 123.45s : "
        "12345.67 words/s : gNorm 0.5678 : L.r. 3.0000e-04",
        "https://marian-nmt.github.io/docs/",
    ),
    Marker(
        "espnet",
        "progress",
        r"^\d+epoch results: \[train\]",
        "1epoch results: [train] iter_time=0.105, forward_time=0.212, loss=100.1",
        _ESPNET,
    ),
    Marker(
        "speechbrain",
        "progress",
        r"\bepoch: \d+, lr: [\d.e+-]+ - train loss: -?[\d.]+",
        "epoch: 1, lr: 1.00e+00 - train loss: 2.54 - valid loss: 1.99, valid CER: 35.2, valid WER: 70.5",
        "https://github.com/speechbrain/speechbrain/blob/develop/speechbrain/utils/train_logger.py",
    ),
    Marker(
        "maxtext",
        "progress",
        r"\bcompleted step: \d+, seconds: [\d.]+",
        "completed step: 9, seconds: 0.395, TFLOP/s/device: 117.345, Tokens/s/device: 2074.7, total_weights: 32768, loss: 10.879",
        "https://github.com/google/maxtext/blob/main/MaxText/train.py",
    ),
    # evaluation and inference reporting their work, RL and tuning libraries' per-step output
    Marker(
        "ultralytics",
        "progress",
        r"^\s*all\s+\d+\s+\d+(?:\s+\d?\.\d+){4,}\s*$",
        "                   all        128        929      0.684      0.587      0.651      0.436",
        "https://github.com/ultralytics/ultralytics/blob/main/ultralytics/models/yolo/detect/val.py",
    ),
    Marker(
        "ultralytics",
        "progress",
        r"^Speed: [\d.]+ ?ms preprocess|\bResults saved to\b",
        "Speed: 1.2ms preprocess, 5.3ms inference, 0.0ms loss, 1.1ms postprocess per image",
        "https://github.com/ultralytics/ultralytics/blob/main/ultralytics/engine/predictor.py",
    ),
    Marker(
        "transformers",
        "progress",
        r"^(?:Model weights|Configuration) saved in \S",
        "Model weights saved in ./out/model.safetensors",
        "https://github.com/huggingface/transformers/blob/main/src/transformers/modeling_utils.py",
    ),
    Marker(
        "hf trainer",
        "progress",
        r"\bTrainOutput\(global_step=\d+|^\s*(?:Step|Epoch)\s+Training Loss\b",
        "TrainOutput(global_step=500, training_loss=0.4123, metrics={'train_runtime': 125.4})",
        _HF_TRAINER,
    ),
    Marker(
        "stable-baselines3",
        "progress",
        r"^\|\s+(?:total_timesteps|ep_rew_mean|ep_len_mean|fps|time_elapsed|n_updates)\s+\|\s+-?[\d.e+\-]+\s+\|",
        "|    total_timesteps | 2048     |",
        "https://github.com/DLR-RM/stable-baselines3/blob/master/stable_baselines3/common/logger.py",
    ),
    # its predecessor's PPO2/A2C table, keys without underscores (a pasted table may be indented by the quoting)
    Marker(
        "stable-baselines",
        "progress",
        r"^\s*\|\s+(?:total_timesteps|serial_timesteps|nupdates|ep_rewmean|eplenmean)\s+\|\s+-?[\d.e+\-]+\s+\|",
        " | total_timesteps      | 100096        |",
        "https://github.com/hill-a/stable-baselines/blob/master/stable_baselines/ppo2/ppo2.py",
    ),
    # Moses' train-model.perl announces each of its nine steps with the date (`print STDERR "(9) create moses.ini @ "`)
    Marker(
        "moses",
        "progress",
        r"^\([1-9](?:\.\d+)?\) [\w.\[\] -]{3,60} @ \w{3} \w{3} +\d+ \d\d:\d\d:\d\d \w+ \d{4}\s*$",
        "(9) create moses.ini @ Sun Jul 31 17:23:50 UTC 2022",
        "https://github.com/moses-smt/mosesdecoder/blob/master/scripts/training/train-model.perl",
    ),
    Marker(
        "optuna",
        "progress",
        r"\bTrial \d+ finished with values?: ",
        "[I 2024-01-01 10:00:00,000] Trial 3 finished with value: 0.91 and parameters: {'lr': 0.01}. Best is trial 3 with value: 0.91.",
        "https://optuna.readthedocs.io/en/stable/tutorial/10_key_features/001_first.html",
    ),
    # wandb's run history and summary, printed as a run ends (also after a crash: progressed_after skips wandb lines)
    Marker(
        "wandb",
        "progress",
        r"^wandb: (?:Run summary|Run history):",
        "wandb: Run summary:",
        "https://github.com/wandb/wandb/blob/main/wandb/sdk/wandb_run.py",
    ),
    # Flower's federated server after each round: round, centralised loss, metrics, seconds
    Marker(
        "flower",
        "progress",
        r"\bfit progress: \(\d+, -?\d+(?:\.\d+)?, ",
        "fit progress: (3, 3.1196, {'cen_accuracy': 0.09975}, 384.7)",
        "https://github.com/adap/flower/blob/main/src/py/flwr/server/server.py",
    ),
    Marker(
        "llama.cpp",
        "progress",
        r"\btokens? per second\b|\bms per token\b",
        "llama_perf_context_print:        eval time =    1234.56 ms /   127 runs   (    9.72 ms per token,   102.88 tokens per second)",
        "https://github.com/ggml-org/llama.cpp/blob/master/src/llama-context.cpp",
    ),
    Marker(
        "comfyui",
        "progress",
        r"\bPrompt executed in [\d.]+ seconds\b",
        "Prompt executed in 3.45 seconds",
        "https://github.com/comfyanonymous/ComfyUI/blob/master/main.py",
    ),
    Marker(
        "whisper",
        "progress",
        r"^\[\d{2}:\d{2}(?::\d{2})?\.\d{3} --> \d{2}:\d{2}(?::\d{2})?\.\d{3}\]",
        "[00:00.000 --> 00:05.000]  And so my fellow Americans, ask not what your country can do for you",
        "https://github.com/openai/whisper/blob/main/whisper/transcribe.py",
    ),
    Marker(
        "unittest",
        "progress",
        r"^Ran \d+ tests? in [\d.]+s\s*$",
        "Ran 12 tests in 0.034s",
        "https://github.com/python/cpython/blob/main/Lib/unittest/runner.py",
    ),
    # evaluation results: lm-evaluation-harness's table (a value then "±" and its stderr), scikit-learn's
    # classification_report header
    Marker(
        "lm-evaluation-harness",
        "progress",
        r"\|\s*-?\d*\.\d+\s*\|\s*±\s*\|\s*-?\d*\.\d+\s*\|",
        "|hellaswag|      1|none  |     0|acc     |↑  |0.5734|±  |0.0049|",
        "https://github.com/EleutherAI/lm-evaluation-harness/blob/main/lm_eval/utils.py",
    ),
    Marker(
        "scikit-learn",
        "progress",
        r"^\s*precision\s+recall\s+f1-score\s+support\s*$",
        "              precision    recall  f1-score   support",
        "https://github.com/scikit-learn/scikit-learn/blob/main/sklearn/metrics/_classification.py",
    ),
    # ----------------------------------------------------------------------------------------------- started
    # Lightning's Trainer before fit: the accelerator lines, distributed initialisation, the model summary
    Marker(
        "lightning",
        "started",
        r"^GPU available: (?:True|False)\b|^\s*[\d.]+\s*[KMGT]?\s+Trainable params\b|^LOCAL_RANK: \d+ - CUDA_VISIBLE_DEVICES: \["
        r"|initializing (?:ddp|distributed): GLOBAL_RANK",
        "GPU available: True (cuda), used: True",
        "https://github.com/Lightning-AI/pytorch-lightning/blob/master/src/lightning/pytorch/trainer/setup.py",
    ),
    Marker(
        "accelerate",
        "started",
        r"following values were not passed to `accelerate launch`",
        "The following values were not passed to `accelerate launch` and had defaults used instead:",
        "https://github.com/huggingface/accelerate/blob/main/src/accelerate/commands/launch.py",
    ),
    Marker(
        "tensorflow",
        "started",
        r"\bCreated device /job:\w+/replica:\d+/task:\d+/device:GPU",
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1928] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 13598 MB memory",
        "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/core/common_runtime/gpu/gpu_device.cc",
    ),
    Marker(
        "keras",
        "started",
        r"^Trainable params: [\d,]+",
        "Trainable params: 101,770 (397.54 KB)",
        "https://keras.io/api/models/model/#summary-method",
    ),
    Marker(
        "wandb",
        "started",
        r"^(?:wandb: )?(?:Run page|🚀 View run at|View run at):? https?://|Logging results to Weights & Biases"
        r"|^wandb: (?:Syncing run|Tracking run with wandb)",
        "wandb: Tracking run with wandb version 0.16.0",
        "https://github.com/wandb/wandb/blob/main/wandb/sdk/wandb_run.py",
    ),
    Marker(
        "nccl",
        "started",
        r"NCCL INFO .*Init COMPLETE|NCCL INFO Connected all (?:rings|trees)|NCCL INFO (?:Ring|Channel) \d+(?:/\d+)? : .* via "
        r"|NCCL INFO (?:comm \S+ )?rank \d+ nranks \d+|^NCCL version \d",
        "node01:1234:1250 [0] NCCL INFO comm 0x55d0c8 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE",
        "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-debug",
    ),
    Marker(
        "tensorboard",
        "started",
        r"^TensorBoard \S+ at https?://",
        "TensorBoard 2.15.1 at http://localhost:6006/ (Press CTRL+C to quit)",
        "https://github.com/tensorflow/tensorboard/blob/master/tensorboard/program.py",
    ),
    # nvidia-smi's process table with a process holding GPU memory
    Marker(
        "nvidia-smi",
        "started",
        r"^\|\s+\d+\s+(?:N/A\s+){0,2}\d+\s+[CG](?:\+G)?\s+\S+\s+\d+MiB\s+\|",
        "|    0   N/A  N/A     12345      C   python                                     10240MiB |",
        "https://docs.nvidia.com/deploy/nvidia-smi/index.html",
    ),
    Marker(
        "hydra",
        "started",
        r"^(?:\[HYDRA\]\s*)?Launching \d+ jobs? locally\s*$",  # the [HYDRA] tag reads like a task tag (stripped)
        "[HYDRA] Launching 2 jobs locally",
        "https://hydra.cc/docs/tutorials/basic/running_your_app/multi-run/",
    ),
    Marker(
        "spacy",
        "started",
        r"^(?:E\s+)?#\s+LOSS [A-Z_0-9]+\s",  # "E " is also pytest's failure prefix (stripped)
        "E    #       LOSS TOK2VEC  LOSS NER  ENTS_F  ENTS_P  ENTS_R  SCORE ",
        "https://github.com/explosion/spaCy/blob/master/spacy/training/loop.py",
    ),
    Marker("hf trainer", "started", r"\*{3,} Running training \*{3,}", "***** Running training *****", _HF_TRAINER),
    Marker(
        "ultralytics",
        "started",
        r"^\s*Epoch\s+GPU_mem\s+box_loss\s+cls_loss\b",
        "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size",
        _ULTRALYTICS,
    ),
    Marker(
        "fastai",
        "started",
        r"^\s*epoch\s+train_loss\s+valid_loss\b",
        "epoch     train_loss  valid_loss  error_rate  time",
        _FASTAI,
    ),
    # ------------------------------------------------------------------------------------------------ failed
    # LightGBM's command-line program catches any exception at its top level, prints this line and the exception's
    # text to stderr, and exits -1 (src/main.cpp); "Unknown Exceptions" for anything that is not a std::exception
    Marker(
        "lightgbm",
        "failed",
        r"^(?:Met Exceptions:|Unknown Exceptions)\s*$",
        "Met Exceptions:",
        "https://github.com/microsoft/LightGBM/blob/master/src/main.cpp",
    ),
    Marker(
        "prefect",
        "failed",
        r"\b(?:Flow|Task) run '[^']+' - Finished in state (?:Failed|Crashed)\(",
        "10:00:05.123 | ERROR   | Flow run 'fantastic-starling' - Finished in state Failed('Flow run encountered an exception.')",
        "https://docs.prefect.io/v3/get-started/quickstart",
    ),
)
