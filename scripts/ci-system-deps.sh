#!/bin/sh
# System packages the test suite needs beyond the Python venv (call from .ci/run as root).
# chromium: tests/e2e/test_dashboard.py renders the cost dashboard headless;
# chromium-driver: tests/e2e/test_admin_console_browser.py drives it through Selenium.
# redis-server: tests/e2e/test_rate_limits_replicas.py starts and stops a private Redis of its
# own (on its own port) to take Redis away from a replica.
set -eu
missing=""
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v chromedriver >/dev/null 2>&1 || missing="$missing chromium-driver"
command -v redis-server >/dev/null 2>&1 || missing="$missing redis-server"
if [ -n "$missing" ]; then
    apt-get update -qq
    # shellcheck disable=SC2086 # one word per package
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi
