"""Which OSMO we talk to, from ``osmo version -t json``, and what that means for a spec.

Released 6.x (≤ 6.3) has datasets and no labels; main removed datasets (URL-only I/O) and added labels
(docs/architecture.md §6.4). Versions after 6.3 are treated as main-like. Config can override: ``backends.osmo.datasets``
and ``backends.osmo.labels`` (true/false) for deployments whose version number does not say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from runshepherd.backends.base import SubmissionRejected
from runshepherd.backends.osmo.models import VersionResponse

if TYPE_CHECKING:  # pragma: no cover
    from runshepherd.spec.document import SpecDocument

LAST_DATASET_RELEASE = (6, 3)


@dataclass(frozen=True)
class Capabilities:
    version: str | None
    datasets: bool
    labels: bool

    @classmethod
    def from_version(cls, v: VersionResponse | None, options: dict[str, Any]) -> Capabilities:
        part = (v.service or v.client) if v else None
        if part is None:
            datasets, labels, text = True, False, None  # unknown: let the server judge datasets, add no labels
        else:
            major_minor = part.tuple()[:2]
            datasets = major_minor <= LAST_DATASET_RELEASE
            labels = not datasets
            text = part.text()
        if isinstance(options.get("datasets"), bool):
            datasets = options["datasets"]
        if isinstance(options.get("labels"), bool):
            labels = options["labels"]
        return cls(version=text, datasets=datasets, labels=labels)


def uses_datasets(spec: SpecDocument) -> list[str]:
    """Task names whose inputs or outputs use 6.x ``dataset:`` entries."""
    names = []
    for t in spec.workflow.all_tasks():
        if any(i.dataset is not None for i in t.inputs) or any(
            o.dataset is not None or o.update_dataset is not None for o in t.outputs
        ):
            names.append(t.name)
    return names


def check_spec(spec: SpecDocument, caps: Capabilities) -> None:
    tasks = uses_datasets(spec)
    if tasks and not caps.datasets:
        raise SubmissionRejected(
            f"task(s) {', '.join(tasks)} use `dataset:` inputs/outputs, but this OSMO "
            f"({caps.version or 'unknown version'}) has no datasets — they were removed after 6.3. Use "
            "`url:` entries instead (e.g. `- url: s3://bucket/path/`), or set backends.osmo.datasets: true "
            "if your deployment still has them."
        )


def label_value(key: str) -> str:
    """An idempotency key as a Kubernetes label value (≤63 chars of [A-Za-z0-9_.-], alphanumeric ends)."""
    cleaned = "".join(ch if ch.isalnum() or ch in "_.-" else "-" for ch in key)[-63:]
    return cleaned.strip("_.-") or "key"
