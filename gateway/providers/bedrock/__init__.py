"""AWS Bedrock adapter: boto3 `bedrock-runtime` Converse / ConverseStream, Titan embeddings."""

from gateway.providers.bedrock.adapter import BedrockProvider

__all__ = ["BedrockProvider"]
