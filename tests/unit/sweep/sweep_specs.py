"""Sweep specs the sweep tests share."""


def tinysweep(command: str, key: str = "steps") -> str:
    """A one-task spec running ``command`` (bash) with one default value ``key`` (1) to sweep."""
    return f"""\
workflow:
  name: tinysweep
  resources:
    default: {{cpu: 0.25, memory: 128Mi}}
  tasks:
  - name: t
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["{command}"]

default-values:
  {key}: 1
"""


# a point with steps > 1 fails (exit 3) and nothing can fix it: steps=1,2 gives one completed and one failed point
FAILS_ABOVE_ONE_STEP = tinysweep("echo step {{ steps }}; exit $(( {{ steps }} > 1 ? 3 : 0 ))")
