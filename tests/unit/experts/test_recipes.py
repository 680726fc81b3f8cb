"""The recipe library: every template is a valid spec; picking and sizing a target only when the request says so."""

from __future__ import annotations

import pytest

from runshepherd.recipes import list_recipes, match_recipe, plan_from_request
from runshepherd.recipes.catalog import target_count
from runshepherd.spec import load_spec_text


@pytest.mark.parametrize("recipe", list_recipes(), ids=lambda r: r.name)
def test_every_recipe_is_a_valid_spec_with_documented_parameters(recipe) -> None:  # noqa: ANN001
    doc = load_spec_text(recipe.text(), source=recipe.name)
    assert doc.workflow.all_tasks()
    assert set(recipe.parameters) <= set(doc.values) | {"gpu", "nodes", "cpu"}


def test_targets_in_the_recipes_unit() -> None:
    assert target_count("about 1000 synthetic images", "images") == 1000
    assert target_count("2,000 images please", "images") == 2000
    assert target_count("5k robot images", "images") == 5000
    assert target_count("a few images", "images") is None


def test_sizing_only_for_a_recipe_with_throughput_and_no_script_of_the_persons() -> None:
    plan = plan_from_request("generate 130 images with Isaac Sim")
    assert plan is not None and plan.submissions == 3  # ceil(130 / 60)
    assert plan_from_request("generate 1000 synthetic images with gen.py using isaac sim") is None
    assert plan_from_request("generate 1000 synthetic images") is None  # no recipe named: planning asks
    assert plan_from_request("train resnet on 1000 images") is None  # training recipes state no throughput
    assert match_recipe("distributed training on 4 nodes").name == "train-multi-node"
