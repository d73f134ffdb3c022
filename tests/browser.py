"""Headless Chromium for the tests that look at pages as a person would (Debian's chromium
and chromium-driver, which .ci/run installs), driven by Selenium."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
ARTEFACTS = Path(__file__).resolve().parent / "artefacts"
"""Where screenshots go (git-ignored)."""

# Chromium in a closed network: no calls home, no first-run work, a fresh profile.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]


def skip_unless_available(modules: dict[str, str]) -> pytest.MarkDecorator:
    """A skip mark when a module (name -> the extra that installs it) or Chromium is missing;
    with MDP_REQUIRE_BROWSER set (CI sets it) an error instead, never a silent skip."""
    missing = next((f"{name} is not installed (pip install -e '.[{extra}]')"
                    for name, extra in modules.items() if importlib.util.find_spec(name) is None), None)
    if missing is None and not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
        missing = f"no {CHROMIUM} and {DRIVER} (apt-get install chromium chromium-driver; CI installs them)"
    if missing is not None and os.environ.get("MDP_REQUIRE_BROWSER"):
        raise RuntimeError(f"MDP_REQUIRE_BROWSER is set but {missing}")
    return pytest.mark.skipif(missing is not None, reason=missing or "")


def chromium(profile: Path, *flags: str):
    """A Selenium driver of headless Chromium with a fresh profile in ``profile``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must download nothing
    options = Options()
    options.binary_location = CHROMIUM
    for flag in [*FLAGS, *flags, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the page's console:
    return webdriver.Chrome(service=Service(DRIVER), options=options)  # see console()


def console(driver) -> list[str]:
    """What the pages opened since the last call wrote to the browser's console (their
    errors among it): for a test's message where a page shows other than it should."""
    return [entry.get("message", "") for entry in driver.get_log("browser")]
