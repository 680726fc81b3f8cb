"""Is a request something RunShepherd does? Requests about running the platform rather than jobs on it get a short,
plain answer naming what does handle them — before any plan is made or any backend command runs.

Pure and deterministic (no model, no I/O): a request is out of scope only when it matches one of the families
below; everything else goes on to planning, where the expert asks about what it cannot map. The families follow
the OSMO skill's own scope line (its evals 010, 020–023, 025, 026, 035): cluster administration, deploying or
configuring the scheduler itself, cloud provisioning, Kubernetes secrets, and general product knowledge.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel

Family = Literal["cluster_admin", "scheduler_admin", "cloud_provisioning", "kubernetes_secret", "general_knowledge"]


class OutOfScope(BaseModel):
    family: Family
    answer: str
    handled_by: str
    matched: str  # the words that placed the request in this family (shown with --json, for trust)

    def text(self) -> str:
        return f"{self.answer} {self.handled_by} Nothing was planned or run."


_F = re.IGNORECASE
_RULES: list[tuple[Family, re.Pattern[str], str, str]] = [
    (
        "kubernetes_secret",
        re.compile(
            r"\b(?:kubernetes|k8s|kubectl)\b[^.?!]*\bsecrets?\b|\bdocker-registry secret\b|\bimagepullsecrets?\b"
            r"|\bcreate secret\b|\bsecret\b[^.?!]*\bnim operator\b",
            _F,
        ),
        "Creating Kubernetes secrets (for example a docker-registry secret for the NIM Operator) is cluster "
        "configuration, outside what RunShepherd does.",
        "Use `kubectl create secret docker-registry …` with your cluster admin's approval. For an OSMO workflow that "
        "pulls a private image, the credential is an OSMO REGISTRY credential instead: "
        "`orchestrate credential set NAME --type REGISTRY --registry nvcr.io`.",
    ),
    (
        "cluster_admin",
        re.compile(
            r"\b(?:taint|untaint|cordon|uncordon|drain)\b[^.?!]*\bnodes?\b|\bnodes?\b[^.?!]*\b(?:taint|cordon|drain)"
            r"|\bkubectl\b|\bnode (?:maintenance|pool upgrade)\b|\b(?:label|reboot|upgrade) (?:the )?nodes?\b",
            _F,
        ),
        "Tainting, draining or cordoning nodes is Kubernetes cluster administration, outside what RunShepherd does "
        "(it runs and watches jobs on a cluster, it does not administer one).",
        "A cluster admin does this with `kubectl taint nodes …` / `kubectl drain …`.",
    ),
    (
        "cloud_provisioning",
        re.compile(
            r"^(?=.*\b(?:aws|ec2|gcp|google cloud|azure|aks|eks|gke|terraform|cloud)\b)(?:.*?)("
            r"\b(?:spin(?:ning)? up|provision\w*|create|creating)\b[^.?!]*\b(?:instances?|vms?|clusters?|stack|aks|eks"
            r"|gke|node ?pools?)\b|\b(?:set ?up|setting up|deploy\w*)\b[^.?!]*\b(?:infrastructure|stack|aks|eks|gke)\b)"
            r"|\bnim operator\b",
            _F | re.DOTALL,
        ),
        "Provisioning cloud machines or clusters (AWS instances, Azure AKS, NIM Operator infrastructure) is "
        "infrastructure setup, outside what RunShepherd does; it runs jobs on a cluster that already exists.",
        "Your cloud console or CLI (aws, az, gcloud), Terraform, or the infrastructure owner handles it; it needs "
        "your cloud login, subscription and quota, which RunShepherd never asks for.",
    ),
    (
        "scheduler_admin",
        re.compile(
            r"\b(?:deploy\w*|install\w*|set ?up|setting up|upgrad\w*|uninstall\w*)\b[^.?!]*\bosmo\b(?![^.?!]*\b(?:workflow|job|app)\b)"
            r"|\bosmo\b[^.?!]*\b(?:deployment|installation|helm chart)\b|\bosmo config\b"
            r"|\bserver[- ]side config\b|\bpod templates?\b|\b(?:edit|change|update)\b[^.?!]*\b(?:slurm\.conf|"
            r"scheduler config|pool config(?:uration)?)\b",
            _F,
        ),
        "Deploying or configuring OSMO itself (installation, server-side config, shared pod templates) is "
        "platform administration, outside what RunShepherd does.",
        "An OSMO admin does this (`osmo config …`, the OSMO deployment guide and its Helm charts).",
    ),
    (
        "general_knowledge",
        re.compile(
            r"\bwhat (?:gpus?|products?|chips?|hardware) does (?:nvidia|amd|intel)\b|\b(?:nvidia|amd|intel)(?:'s)? "
            r"(?:gpu |product )?(?:line-?up|product lines?|roadmap)\b|\bwhich gpus? (?:does|do) (?:nvidia|amd)\b"
            r"|\bdoes (?:nvidia|amd|intel) (?:actually )?(?:make|sell)\b",
            _F,
        ),
        "That is a general product question, outside what RunShepherd does: it runs jobs and answers about your own "
        "runs, pools and workflows.",
        "The vendor's product pages (for NVIDIA: nvidia.com/en-us/data-center/) have the current line-up.",
    ),
]


def out_of_scope(request: str) -> OutOfScope | None:
    """The family a request falls outside of, or None when it may be a job (planning decides the rest)."""
    for family, pattern, answer, handled_by in _RULES:
        m = pattern.search(request)
        if m:
            return OutOfScope(family=family, answer=answer, handled_by=handled_by, matched=m.group(0))
    return None
