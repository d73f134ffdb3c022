"""The docs as a reader sees them: built once a session into a temporary folder
(tests/conftest.py), then the home page, the quick start, the Results, Performance and Writing
a game pages opened in headless Chromium (Debian's chromium and chromium-driver, as in
tests/outputs/test_report_browser.py) at 1200 and 400 pixels wide. No page may scroll
sideways, and no code block may either: the theme's code blocks wrap their long lines
(docs/_static/custom.css), but for Python and TOML, which keep their lines (a wrapped line
would read as wrongly indented) and, like a table wider than a phone, scroll in their own
box, never the page. Screenshots go to tests/artefacts/
(git-ignored)."""

from __future__ import annotations

import pytest
from browser import ARTEFACTS, chromium, skip_unless_available

PAGES = ["index", "quickstart", "results", "performance", "writing-a-game"]
WIDTHS = [1200, 400]

pytestmark = [pytest.mark.browser,
              skip_unless_available({"selenium": "test", "sphinx": "docs", "furo": "docs",
                                     "sphinx_copybutton": "docs"})]

# What scrolls sideways: the page, and any code block but Python's and TOML's (which keep
# their lines and scroll in their own box, as a table may).
MEASURE = """
var wide = Array.prototype.filter.call(document.querySelectorAll('pre'), function (e) {
  return e.getClientRects().length && e.scrollWidth > e.clientWidth + 1 &&
    !e.closest('div.highlight-python, div.highlight-toml');
}).map(function (e) { return e.textContent.split('\\n')[0].slice(0, 60); });
var python = Array.prototype.map.call(document.querySelectorAll('div.highlight-python pre'),
  function (e) { return getComputedStyle(e).whiteSpace; });
var pre = Array.prototype.filter.call(document.querySelectorAll('div.highlight pre'),
  function (e) { return !e.closest('div.highlight-python, div.highlight-toml'); })[0];
return {page: document.documentElement.scrollWidth, window: window.innerWidth,
        wide_code: wide, code_wraps: pre ? getComputedStyle(pre).whiteSpace : null,
        python_wraps: python,
        images: Array.prototype.filter.call(document.images, function (i) {
          return !i.complete || i.naturalWidth === 0; }).map(function (i) { return i.src; })};
"""


@pytest.fixture(scope="module")
def docs_browser(tmp_path_factory):
    """The module's own Chromium, its scroll bars shown (the session's ``browser``,
    tests/conftest.py, hides them): started once for the module's tests, which run on one
    worker side by side with the built docs (the xdist_group below), not once more where
    they are split. (Named ``browser``, it sent its test that needs no docs to the group of
    the session's browser: a second Chromium.)"""
    driver = chromium(tmp_path_factory.mktemp("chromium"))
    yield driver
    driver.quit()


@pytest.mark.docs
@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES)
def test_nothing_scrolls_sideways(built_docs, docs_browser, page):
    """The page opened once, at the narrowest width (a phone's, where a page is likeliest to
    scroll), and measured there, then at each wider width, the window resized (the layout
    follows the window, as when a reader widens it)."""
    from selenium.webdriver.support.ui import WebDriverWait

    docs_browser.set_window_size(min(WIDTHS), 900)
    docs_browser.get((built_docs / f"{page}.html").as_uri())
    # Measured once the page is whole (a file page can answer before its body is laid out).
    WebDriverWait(docs_browser, 10).until(lambda b: b.execute_script(
        "return document.readyState === 'complete' && !!document.querySelector('article pre')"))
    for width in sorted(WIDTHS):
        docs_browser.set_window_size(width, 900)
        shown = docs_browser.execute_script(MEASURE)
        assert shown["window"] == width  # measured at this width: the window was resized
        assert shown["page"] <= shown["window"], f"{page} at {width} px is {shown['page']} px wide"
        assert shown["wide_code"] == [], f"code blocks wider than the column at {width} px: {shown['wide_code']}"
        assert shown["code_wraps"] == "pre-wrap"  # the theme's code blocks wrap, they do not scroll
        assert set(shown["python_wraps"]) <= {"pre"}  # Python keeps its lines and indentation
        if page == "writing-a-game":  # the page of Python: the check above saw its blocks
            assert len(shown["python_wraps"]) > 10
        assert shown["images"] == []
        height = docs_browser.execute_script("return document.documentElement.scrollHeight")
        docs_browser.set_window_size(width, min(height + 100, 16000))
        ARTEFACTS.mkdir(exist_ok=True)
        docs_browser.save_screenshot(str(ARTEFACTS / f"docs-{page}-{width}.png"))


@pytest.mark.slow
@pytest.mark.xdist_group("built_docs")  # with the tests of the docs: the module's one Chromium
def test_the_measure_sees_a_page_that_scrolls(docs_browser, tmp_path):
    """The check can fail: a page with an unwrapped line far wider than the window."""
    page = tmp_path / "wide.html"
    page.write_text("<!doctype html><pre style='white-space: pre'>" + "x" * 400 + "</pre>")
    docs_browser.set_window_size(400, 900)
    docs_browser.get(page.as_uri())
    shown = docs_browser.execute_script(MEASURE)
    assert shown["page"] > shown["window"] and shown["code_wraps"] is None


@pytest.mark.docs
@pytest.mark.slow
def test_copy_buttons_and_both_modes(built_docs, docs_browser):
    from selenium.webdriver.common.by import By

    docs_browser.set_window_size(1200, 900)
    from selenium.webdriver.support.ui import WebDriverWait

    docs_browser.get((built_docs / "quickstart.html").as_uri())
    # Under load the page may answer before its body is there (a CI run found no block).
    WebDriverWait(docs_browser, 10).until(lambda b: b.find_elements(By.CSS_SELECTOR, "div.highlight"))
    blocks = docs_browser.find_elements(By.CSS_SELECTOR, "div.highlight")
    # The buttons are added by a script once the page has loaded: wait for them.
    WebDriverWait(docs_browser, 10).until(
        lambda b: len(b.find_elements(By.CSS_SELECTOR, "button.copybtn")) >= len(blocks))
    assert blocks and len(docs_browser.find_elements(By.CSS_SELECTOR, "button.copybtn")) == len(blocks)
    # Light and dark: the theme follows the reader's system ("auto"), and its button cycles.
    themes = []
    for _ in range(3):
        themes.append(docs_browser.execute_script("return document.body.dataset.theme"))
        docs_browser.execute_script("document.querySelector('.theme-toggle').click()")
    assert set(themes) == {"auto", "light", "dark"}
