"""The only module-level app object: `uvicorn gateway.asgi:app` (settings from GECIT_ env).
In keyless mode it is served behind the same local-only fence as `gateway serve`; the head
limits and read timeouts of `gateway serve` come with its protocol (gateway/httpguard.py)."""

from gateway.app import create_app
from gateway.localguard import guarded
from gateway.settings import Settings

_settings = Settings.from_env()
app = guarded(create_app(_settings), _settings)
