"""The program refused its own command line (argparse/click usage errors): the spec passes a flag it lacks."""

from __future__ import annotations

from runshepherd.diagnosis.rules.base import PatternRule, pat, register

USAGE = register(
    PatternRule(
        name="cli_usage",
        label="user_code_error",
        origin="config",
        fix_kind="fix_code",
        explanation="The program stopped before doing any work because its command line was wrong: the spec "
        "passes an option it does not accept, or leaves out one it requires.",
        fix_description="Change the task's `args` to the options the program accepts (its usage line above "
        "lists them); an unknown option can simply be removed.",
        patterns=(
            pat(r"^\S+: error: unrecognized arguments: ", 0.9, flags=0),
            pat(r"^\S+: error: the following arguments are required: ", 0.9, flags=0),
            pat(r"^\S+: error: argument \S+: (?:invalid|expected)", 0.88, flags=0),
            pat(r"^Error: (?:No such option|Missing option|Missing argument|Invalid value for) ", 0.85, flags=0),
            pat(
                r"Error merging override|Could not override '|Could not append to config\. An item is already at",
                0.85,
                flags=0,
            ),  # Hydra: the command line's overrides do not fit the config
        ),
    )
)
