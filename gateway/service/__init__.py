"""Chat orchestration: routing decision -> dispatcher -> usage record."""
