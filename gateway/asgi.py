"""The only module-level app object: `uvicorn gateway.asgi:app` (settings from GECIT_ env)."""

from gateway.app import create_app
from gateway.settings import Settings

app = create_app(Settings.from_env())
