#!/usr/bin/env python3
"""Plays `cardgames-play --web` in headless Chromium, one game of each of the three games
to the end with a fixed seed, clicking the move buttons as a person would (Playwright for
Python, the system's Chromium). Run by tests/play.rs (web_game_in_headless_chromium):

    python3 tests/play_web.py CARDGAMES_PLAY WORK_DIR SCREENSHOT_DIR

Besides the games it checks, and fails on any departure:
- a request with a wrong or missing token gets 403, a move that is not legal or a
  malformed body 400, a stale page's post (an old `seq`) 409; none changes the game;
- a second tab shows the same game, and its stale click changes nothing;
- a refreshed page resumes the game where it stood;
- the page logs nothing on the console;
- at the end the page shows the result and links the replay page, which loads.
Screenshots at the start, mid-game and the end go to SCREENSHOT_DIR/GAME-{start,mid,end}.png.
Prints `GAME: played to the end in N clicks: RESULT` per game.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

from playwright.sync_api import sync_playwright

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]


def status(url, data=None):
    """The HTTP status of a GET (or a POST of `data`, form-encoded bytes)."""
    req = urllib.request.Request(url, data=data)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def seq_of(page):
    return page.locator("input[name=seq]").first.get_attribute("value")


def play(browser, binary, work, shots, game):
    saved = os.path.join(work, f"{game}.json")
    proc = subprocess.Popen([binary, game, "--seed", "5", "--web", "--explain", "--save", saved],
                            cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"(http://127\.0\.0\.1:\d+)/\?token=([0-9a-f]{32})", line)
        if not m:
            fail(f"{game}: no URL printed: {line!r} {proc.stderr.read()!r}")
        base, token = m.group(1), m.group(2)
        url = f"{base}/?token={token}"
        if status(f"{base}/?token=" + "0" * 32) != 403 or status(f"{base}/") != 403:
            fail(f"{game}: a wrong or missing token was not refused with 403")
        errors = []
        page = browser.new_page(viewport={"width": 1100, "height": 1000})
        page.on("console", lambda msg: errors.append(msg.text))
        page.goto(url)
        page.screenshot(path=os.path.join(shots, f"{game}-start.png"), full_page=True)
        # A second tab sees the same game.
        tab2 = browser.new_page()
        tab2.goto(url)
        if tab2.locator("main").inner_text() != page.locator("main").inner_text():
            fail(f"{game}: the second tab shows another game")
        # Bad requests change nothing.
        seq = seq_of(page)
        post = lambda body: status(f"{base}/move", urllib.parse.urlencode(body).encode())
        checks = [
            (post({"token": "f" * 32, "seq": seq, "choice": "0"}), 403, "wrong token"),
            (post({"token": token, "seq": seq, "choice": "999"}), 400, "illegal move"),
            (post({"token": token, "seq": seq, "choice": "-1"}), 400, "negative move"),
            (status(f"{base}/move", b"token=" + token.encode() + b"&seq=%zz&choice=0"), 400,
             "malformed body"),
            (post({"token": token, "choice": "0"}), 400, "no seq"),
            (post({"token": token, "seq": str(int(seq) + 5), "choice": "0"}), 409, "stale seq"),
            (status(f"{base}/move?token={token}"), 405, "GET /move"),
        ]
        for got, want, what in checks:
            if got != want:
                fail(f"{game}: {what} got HTTP {got}, expected {want}")
        page.reload()
        if seq_of(page) != seq:
            fail(f"{game}: a refused request changed the game")
        clicks = 0
        while page.locator("#result").count() == 0:
            buttons = page.locator("#moves button")
            if buttons.count() == 0:
                page.wait_for_timeout(500)
                page.reload()
                continue
            buttons.first.click()
            page.wait_for_load_state("load")
            clicks += 1
            if "/move" in page.url:
                fail(f"{game}: a move was refused: {page.content()[:300]}")
            if clicks == 1:
                # The second tab's page is now stale: its click gets 409 and changes nothing.
                before = seq_of(page) if page.locator("#moves").count() else None
                with tab2.expect_navigation():
                    tab2.locator("#moves button").first.click()
                if "409" not in tab2.content():
                    fail(f"{game}: a stale tab's click was not refused: {tab2.content()[:300]}")
                page.reload()
                if page.locator("#moves").count() and seq_of(page) != before:
                    fail(f"{game}: a stale tab's click changed the game")
            if clicks == 2:
                # A refreshed page resumes.
                text = page.locator("main").inner_text()
                page.reload()
                again = page.locator("main").inner_text()
                if again != text:
                    fail(f"{game}: the refreshed page shows another state:\n{text}\n-----\n{again}")
                page.screenshot(path=os.path.join(shots, f"{game}-mid.png"), full_page=True)
            if clicks > 400:
                fail(f"{game}: no end after 400 clicks")
        result = page.locator("#result").inner_text()
        page.screenshot(path=os.path.join(shots, f"{game}-end.png"), full_page=True)
        if page.locator("details").count() == 0:
            fail(f"{game}: no explanation folded under a bot move")
        page.locator("#replay").click()
        page.wait_for_load_state("load")
        if page.locator("main[data-page-ok]").count() != 1:
            fail(f"{game}: the replay page did not load")
        if errors:
            fail(f"{game}: console messages: {errors}")
        print(f"{game}: played to the end in {clicks} clicks: {result}")
        page.close()
        tab2.close()
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            fail(f"{game}: the server did not stop on Ctrl-C")
    if code != 0:
        fail(f"{game}: the server exited {code} after a finished game: {proc.stderr.read()}")
    if not os.path.isfile(saved):
        fail(f"{game}: not saved")


def main():
    binary, work, shots = sys.argv[1:4]
    # A hung page or server fails the test instead of hanging it.
    signal.signal(signal.SIGALRM, lambda *_: fail("no end within 600 s"))
    signal.alarm(600)
    os.makedirs(shots, exist_ok=True)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        fail("no chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=FLAGS, headless=True)
        for game in ["coup", "durak", "ioiwari"]:
            play(browser, binary, work, shots, game)
        browser.close()


if __name__ == "__main__":
    main()
