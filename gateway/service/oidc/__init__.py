"""OIDC sign-in to the admin console, below its HTTP routes (`admin/oidc_routes.py`): the
issuer client, the ID token checks, the claim rules and the secrets of one sign-in."""
