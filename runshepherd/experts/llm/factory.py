"""Build the chat model named by `expert: provider:model`, failing at start (not mid-run) when it cannot work.

langchain and the provider packages come from the `llm` extra and are imported only here, lazily, so the
default install (heuristic expert) never needs them.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any

from runshepherd.config import LLMConfig
from runshepherd.errors import ConfigError

# provider → (package that implements it, environment variable holding its key or None)
PROVIDERS: dict[str, tuple[str, str | None]] = {
    "openai": ("langchain_openai", "OPENAI_API_KEY"),
    "anthropic": ("langchain_anthropic", "ANTHROPIC_API_KEY"),
    "ollama": ("langchain_ollama", None),
    "google_genai": ("langchain_google_genai", "GOOGLE_API_KEY"),
    "mistralai": ("langchain_mistralai", "MISTRAL_API_KEY"),
    "groq": ("langchain_groq", "GROQ_API_KEY"),
}
EXTRA_HINT = "install the model extra: pip install 'runshepherd[llm]'"


def parse_model_name(name: str) -> tuple[str, str]:
    provider, sep, model = name.partition(":")
    if not sep or not provider or not model:
        raise ConfigError(f"expert {name!r}: use `heuristic` or `provider:model`, e.g. openai:gpt-4o-mini")
    return provider.strip().lower(), model.strip()


def check_provider(name: str, cfg: LLMConfig, environ: dict[str, str] | None = None) -> tuple[str, str]:
    """Every reason the model could not be used, found now: bad name, missing package, missing key."""
    env = os.environ if environ is None else environ
    provider, model = parse_model_name(name)
    if importlib.util.find_spec("langchain") is None:
        raise ConfigError(f"expert {name!r} needs langchain, which is not installed — {EXTRA_HINT}")
    package, key = PROVIDERS.get(provider, (f"langchain_{provider}", None))
    if importlib.util.find_spec(package) is None:
        raise ConfigError(f"expert {name!r} needs the {package} package, which is not installed — {EXTRA_HINT}")
    local_server = provider == "openai" and cfg.base_url is not None
    if key and not env.get(key) and not local_server:
        raise ConfigError(
            f"expert {name!r} needs the {key} environment variable (keys are read from the "
            "environment only, never from config files)"
        )
    return provider, model


def build_chat_model(name: str, cfg: LLMConfig) -> Any:
    """A langchain BaseChatModel for ``provider:model`` with the configured timeout, retries and base URL."""
    provider, model = check_provider(name, cfg)
    from langchain.chat_models import init_chat_model

    kwargs: dict[str, Any] = {"timeout": cfg.timeout_seconds, "max_retries": cfg.max_retries}
    if cfg.base_url:
        kwargs["base_url"] = cfg.base_url
        if provider == "openai" and not os.environ.get("OPENAI_API_KEY"):
            kwargs["api_key"] = "unused"  # a local OpenAI-compatible server takes no key; the client wants one
    try:
        return init_chat_model(model, model_provider=provider, **kwargs)
    except (ImportError, ValueError) as exc:
        raise ConfigError(f"expert {name!r}: {exc}") from None
