"""The recipe library: load, pick one for a request, and size a target ("about 1000 images") into submissions.

Picking is by keywords (deterministic, offline); sizing only happens when the recipe states a per-run throughput
with its source and the request names a count in the recipe's unit — otherwise nothing is computed.
"""

from __future__ import annotations

import math
import re
from functools import cache
from pathlib import Path

import yaml
from pydantic import BaseModel, Field

from runshepherd.errors import UsageError

HERE = Path(__file__).resolve().parent
_NUMBER = r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(k|thousand)?"


class Throughput(BaseModel):
    per_run: int = Field(gt=0)
    unit: str
    source: str


class Recipe(BaseModel):
    name: str
    kind: str
    summary: str
    keywords: list[str]
    template: str
    throughput: Throughput | None = None
    parameters: dict[str, str] = Field(default_factory=dict)

    def text(self) -> str:
        return (HERE / "templates" / self.template).read_text(encoding="utf-8")


class RecipePlan(BaseModel):
    recipe: Recipe
    target: int
    submissions: int

    def explanation(self) -> str:
        tp = self.recipe.throughput
        assert tp is not None
        return (
            f"{self.target} {tp.unit} at {tp.per_run} {tp.unit} per run ({tp.source}) → "
            f"ceil({self.target} / {tp.per_run}) = {self.submissions} submissions of {self.recipe.name}"
        )


@cache
def list_recipes() -> list[Recipe]:
    data = yaml.safe_load((HERE / "index.yaml").read_text(encoding="utf-8"))
    return [Recipe.model_validate(r) for r in data]


def get_recipe(name: str) -> Recipe:
    for r in list_recipes():
        if r.name == name:
            return r
    raise UsageError(f"no recipe {name!r}; recipes: {', '.join(r.name for r in list_recipes())}")


def match_recipe(request: str) -> Recipe | None:
    """The recipe whose keywords the request names most (ties: the more specific, i.e. longer, keyword)."""
    low = request.lower()
    scored = []
    for r in list_recipes():
        hits = [k for k in r.keywords if re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", low)]
        if hits:
            scored.append((len(hits), max(len(k) for k in hits), r))
    return max(scored, key=lambda s: (s[0], s[1]))[2] if scored else None


def target_count(request: str, unit: str) -> int | None:
    """ "about 1000 synthetic images", "2,000 images", "5k frames" → the count in ``unit`` (up to 3 words between)."""
    singular = unit.rstrip("s")
    m = re.search(rf"{_NUMBER}\s+(?:[a-z-]+\s+){{0,3}}{re.escape(singular)}s?\b", request, re.IGNORECASE)
    if not m:
        return None
    value = float(m.group(1).replace(",", ""))
    if m.group(2):
        value *= 1000
    return int(value) if value >= 1 else None


def plan_from_request(request: str) -> RecipePlan | None:
    """Only for a request that names no script of its own: a person's script always wins over a recipe."""
    if re.search(r"[\w./-]+\.(?:py|sh|ipynb)\b", request):
        return None
    recipe = match_recipe(request)
    if recipe is None or recipe.throughput is None:
        return None
    target = target_count(request, recipe.throughput.unit)
    if target is None:
        return None
    return RecipePlan(recipe=recipe, target=target, submissions=math.ceil(target / recipe.throughput.per_run))
