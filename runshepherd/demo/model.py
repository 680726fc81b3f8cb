"""A one-hidden-layer ReLU MLP with softmax cross-entropy, written with plain numpy.

ReLU (rather than tanh) matters for the demo: with a too-high learning rate the two weight layers amplify each
other's updates, the logits explode and the loss becomes ``nan`` within a few steps — the divergence real
networks show. With the default inputs (standardised to std 0.5) plain SGD converges for lr up to ~10 and
diverges at lr ≥ 20.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]
Labels = NDArray[np.int64]

#: float64 everywhere: bytes per activation value, used by :func:`activation_bytes`.
BYTES_PER_VALUE = 8


@dataclass
class Params:
    """Trainable weights; mutated in place by :func:`sgd_step`."""

    w1: Array
    b1: Array
    w2: Array
    b2: Array

    def as_arrays(self) -> dict[str, Array]:
        return {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2}


@dataclass
class StepCache:
    """Everything one training step materialises for its batch.

    Kept alive until the next step starts (as autograd graphs and caching allocators keep memory resident),
    so the process's RSS really sits at ``activation_bytes(batch, ...)`` above its baseline during training.
    """

    x: Array  # (B, F) gathered inputs
    z1: Array  # (B, H) pre-activations
    h: Array  # (B, H) hidden activations
    logits: Array  # (B, C)
    probs: Array  # (B, C)
    dlogits: Array  # (B, C)
    dh: Array  # (B, H) gradient w.r.t. hidden activations (masked in place into dz1)


@dataclass(frozen=True)
class Grads:
    w1: Array
    b1: Array
    w2: Array
    b2: Array


def activation_bytes(batch_size: int, features: int, hidden: int, classes: int) -> int:
    """Bytes one step holds for its batch: ``batch_size × (features + 3·hidden + 3·classes + 2) × 8``.

    The terms are the cached arrays of :class:`StepCache` plus the gathered int64 indices and labels. With the
    defaults (16 features, 64 hidden, 4 classes) that is 1,776 bytes per sample: ``--batch-size 200000`` needs
    roughly 340 MiB on top of the ~40 MiB interpreter baseline.
    """
    per_sample = features + 3 * hidden + 3 * classes + 2
    return batch_size * per_sample * BYTES_PER_VALUE


def init_params(features: int, hidden: int, classes: int, rng: np.random.Generator) -> Params:
    """He initialisation for the ReLU layer, small Glorot-style for the output layer."""
    w1 = rng.normal(0.0, np.sqrt(2.0 / features), size=(features, hidden))
    w2 = rng.normal(0.0, np.sqrt(1.0 / hidden), size=(hidden, classes))
    return Params(w1=w1, b1=np.zeros(hidden), w2=w2, b2=np.zeros(classes))


def _softmax(logits: Array) -> Array:
    """Softmax without the max-shift, on purpose.

    Like a hand-written trainer (or a real one in fp16), it overflows once logits pass ~709: ``exp`` gives
    ``inf``, ``inf / inf`` gives ``nan`` and the loss turns ``nan`` a few steps into a too-high-lr run — the
    divergence signature the demo exists to show. At sane learning rates logits stay far below that.
    """
    exp = np.exp(logits)
    return exp / exp.sum(axis=1, keepdims=True)


def _cross_entropy(probs: Array, y: Labels) -> float:
    picked = probs[np.arange(len(y)), y]
    return float(-np.mean(np.log(picked)))


def forward(params: Params, x: Array) -> tuple[Array, Array, Array]:
    """Return ``(z1, h, logits)`` for inputs ``x``."""
    z1 = x @ params.w1 + params.b1
    h = np.maximum(z1, 0.0)
    logits = h @ params.w2 + params.b2
    return z1, h, logits


def evaluate(params: Params, x: Array, y: Labels) -> tuple[float, float]:
    """Mean cross-entropy loss and accuracy on a whole split."""
    _, _, logits = forward(params, x)
    probs = _softmax(logits)
    return _cross_entropy(probs, y), float(np.mean(np.argmax(logits, axis=1) == y))


def train_step(params: Params, x: Array, y: Labels) -> tuple[float, float, Grads, StepCache]:
    """Forward + backward on one batch: ``(loss, accuracy, gradients, cache)``."""
    z1, h, logits = forward(params, x)
    probs = _softmax(logits)
    loss = _cross_entropy(probs, y)
    acc = float(np.mean(np.argmax(logits, axis=1) == y))
    batch = len(y)
    dlogits = probs.copy()
    dlogits[np.arange(batch), y] -= 1.0
    dlogits /= batch
    grad_w2 = h.T @ dlogits
    grad_b2 = dlogits.sum(axis=0)
    dh = dlogits @ params.w2.T
    dh[z1 <= 0.0] = 0.0  # ReLU gradient, in place: dh now holds dz1
    grad_w1 = x.T @ dh
    grad_b1 = dh.sum(axis=0)
    grads = Grads(w1=grad_w1, b1=grad_b1, w2=grad_w2, b2=grad_b2)
    cache = StepCache(x=x, z1=z1, h=h, logits=logits, probs=probs, dlogits=dlogits, dh=dh)
    return loss, acc, grads, cache


def sgd_step(params: Params, grads: Grads, lr: float) -> None:
    """Plain SGD, in place (no clipping: a too-high ``lr`` is allowed to diverge)."""
    params.w1 -= lr * grads.w1
    params.b1 -= lr * grads.b1
    params.w2 -= lr * grads.w2
    params.b2 -= lr * grads.b2
