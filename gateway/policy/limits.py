"""The policy limits of a process, from its settings (one place, so the admin API, the file
watcher, the shared-policy sync and the CLI judge a document alike)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gateway.policy.loader import PolicyLimits
from gateway.policy.yamlsafe import YamlLimits

if TYPE_CHECKING:
    from gateway.settings import Settings


def limits_from(settings: Settings) -> PolicyLimits:
    return PolicyLimits(
        yaml=YamlLimits(
            max_bytes=settings.policy_max_bytes,
            max_depth=settings.policy_max_depth,
            max_nodes=settings.policy_max_nodes,
        ),
        credential_prefix=settings.credential_env_prefix,
    )
