#!/bin/sh
# System packages the test suite needs beyond the Python venv (call from .ci/run as root).
# chromium: tests/e2e/test_dashboard.py renders the cost dashboard headless;
# chromium-driver: tests/e2e/test_admin_console_browser.py drives it through Selenium.
set -eu
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        chromium chromium-driver
fi
