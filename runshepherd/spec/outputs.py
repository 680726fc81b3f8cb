"""The output URLs a spec's tasks declare (`outputs: - url: …`), read from its raw text.

The OSMO backend (what a finished run was to upload) and the diagnosis (a run that wrote none of them) read them
here, the same way; tolerant of odd shapes, never raising on bad YAML.
"""

from __future__ import annotations

import yaml

from runshepherd.spec.raw_tasks import raw_tasks


def declared_outputs(spec_text: str) -> dict[str, list[str]]:
    """Output URLs per task from a (rendered) spec."""
    try:
        data = yaml.safe_load(spec_text)
    except yaml.YAMLError:
        return {}
    out: dict[str, list[str]] = {}
    for t in raw_tasks(data.get("workflow") if isinstance(data, dict) else None):
        if not isinstance(t, dict) or "name" not in t:
            continue
        urls = []
        for o in t.get("outputs") or []:
            url = o.get("url") if isinstance(o, dict) else None
            if isinstance(url, dict):  # seen in the eval fixtures: `url: {path: s3://…}`
                url = url.get("path")
            if isinstance(url, str) and url:
                urls.append(url)
        out[str(t["name"])] = urls
    return out
