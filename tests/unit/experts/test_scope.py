"""Out-of-scope requests are recognised; everyday job requests are never refused (they go on to planning)."""

from __future__ import annotations

import pytest

from runshepherd.chat.intents import route
from runshepherd.experts.scope import out_of_scope

JOBS = [
    "train resnet50 on my AWS cluster for 3 epochs",
    "set up a training run on my azure cluster",
    "generate about 1000 synthetic images using Isaac Sim on H100s",
    "fine-tune bert on imdb with lr 3e-4",
    "deploy my model for inference on the h100 pool",
    "install deps and train on 4 gpus",
    "run the osmo workflow in workflow.yaml on the h100 pool",
    "Set up the OSMO workflow registry credential from NGC_CLI_API_KEY",
    "why is my workflow stuck-train-1 pending? the kubernetes events say Insufficient nvidia.com/gpu",
    "give me the Kubernetes dashboard link for workflow gr00t-train-1",
]
ADMIN = {
    "cordon node a100-3 before the upgrade": "cluster_admin",
    "drain gpu-node-2": "cluster_admin",
    "install osmo on my cluster": "scheduler_admin",
    "create an EKS cluster with 4 GPU nodes": "cloud_provisioning",
    "kubectl create secret generic hf-token --from-literal=token=x": "kubernetes_secret",
    "which GPUs does NVIDIA sell for data centers?": "general_knowledge",
}


@pytest.mark.parametrize("request_text", JOBS)
def test_job_requests_are_not_refused(request_text: str) -> None:
    assert out_of_scope(request_text) is None


@pytest.mark.parametrize(("request_text", "family"), ADMIN.items())
def test_platform_requests_get_their_family_and_a_pointer(request_text: str, family: str) -> None:
    verdict = out_of_scope(request_text)
    assert verdict is not None and verdict.family == family
    assert verdict.handled_by and "Nothing was planned or run." in verdict.text()


def test_chat_routes_out_of_scope_before_any_other_intent() -> None:
    assert route("Add a node taint to drain gpu-node-7 so I can do maintenance on it.").kind == "out_of_scope"
    assert route("cancel workflow gr00t-train-1").kind == "cancel"


def test_chat_routes_a_draft_request_to_drafting_not_to_a_run() -> None:
    assert route("draft a workflow yaml with a URL input, do not submit it").kind == "draft"
    assert route("write a spec for prep.py reading s3://raw/").kind == "draft"
    assert route("train a small classifier").kind == "start"
