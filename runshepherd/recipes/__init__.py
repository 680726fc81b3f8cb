"""Workload recipes shipped with the package (see index.yaml): templates the workflow expert adapts."""

from runshepherd.recipes.catalog import Recipe, RecipePlan, get_recipe, list_recipes, match_recipe, plan_from_request

__all__ = ["Recipe", "RecipePlan", "get_recipe", "list_recipes", "match_recipe", "plan_from_request"]
