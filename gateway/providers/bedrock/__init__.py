"""AWS Bedrock adapter: boto3 `bedrock-runtime` Converse / ConverseStream, Titan embeddings."""

# The adapter (and boto3) is imported on first use, not with the package: the factory runs for
# every policy that names this kind, and without credentials it needs no SDK at all.
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gateway.providers.bedrock.adapter import BedrockProvider

__all__ = ["BedrockProvider"]


def __getattr__(name: str) -> Any:
    if name == "BedrockProvider":
        from gateway.providers.bedrock.adapter import BedrockProvider

        return BedrockProvider
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
