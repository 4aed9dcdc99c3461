"""What the policy decided for one request (the dispatcher only executes it).

The types live in `gateway.policy.decision` (the engine produces them); they are re-exported
here for the service layer and the HTTP edge."""

from gateway.policy.decision import Dropped, DropReason, Limits, RouteDecision

__all__ = ["DropReason", "Dropped", "Limits", "RouteDecision"]
