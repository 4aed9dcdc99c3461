"""Sensitivity: detect personal and KVKK special-category data, and redact it reversibly."""

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import SensitivityConfig
from gateway.sensitivity.declared import declared_class_from, effective_class
from gateway.sensitivity.result import EntityCount, Finding, Sensitivity

__all__ = [
    "Classifier",
    "EntityCount",
    "Finding",
    "Sensitivity",
    "SensitivityConfig",
    "declared_class_from",
    "effective_class",
]
