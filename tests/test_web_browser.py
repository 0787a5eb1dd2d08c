"""The web table in a real browser: headless Chromium (the system's, driven by
Playwright) plays whole games at `meeple serve` tables, two seats in two browser
contexts (one at a phone's width, one by keyboard), and seat 2's page never shows a
card of seat 1's it was not shown. Screenshots go to MEEPLE_WEB_SCREENSHOTS (a folder)
when it is set, else to the test's temporary folder. Each browser action is bounded by
a timeout, and the games by a number of moves."""
from __future__ import annotations

import json
import os
import random
import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (pip install 'meeple[web]') is not installed")
playwright = pytest.importorskip("playwright.sync_api", reason="Playwright (pip install playwright) "
                                 "is not installed")

import httpx2  # noqa: E402
from meeple.interpreter import display  # noqa: E402
from web_support import JSON, Server, assert_hides  # noqa: E402

import meeple  # noqa: E402

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("PLAYWRIGHT_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("no Chromium here (apt-get install chromium, or set PLAYWRIGHT_CHROMIUM); "
                ".ci/run installs it", allow_module_level=True)

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ACTION_MS = 20_000          # the longest any one browser action may take
GAME_SECONDS = 240          # and a whole game
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        # Playwright gives every launch a fresh profile (its own --user-data-dir)
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("MEEPLE_WEB_SCREENSHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _page(browser, url: str, **context):
    ctx = browser.new_context(**context)
    ctx.set_default_timeout(ACTION_MS)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("body[data-version]")
    return page, errors


def _shot(page, folder: Path, name: str) -> Path:
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 5000
    return path


def _unseen_words(prog, seat1: dict, seen_by_2: set[int]) -> list[str]:
    """The labels and notations of seat 1's cards that seat 2 was never shown."""
    hand = [i for key, content in seat1["view"]["zones"].items()
            if key.endswith(":0") and isinstance(content, list) for i in content]
    return [w for i in hand if i not in seen_by_2
            for w in (display.item_label(prog, i), display.value_notation(prog, i, "item"))]


def _seen(doc: dict) -> set[int]:
    return {i for c in doc["view"]["zones"].values() if isinstance(c, list)
            for i in c if isinstance(i, int)}


def _play_one(page, rnd: random.Random, keyboard: bool) -> bool:
    """Plays one of the page's moves (clicked, or by Tab and Enter); False when it has none."""
    version = page.get_attribute("body", "data-version")
    buttons = page.locator("#moves button:not([disabled])")
    if buttons.count() == 0:
        return False
    button = buttons.nth(rnd.randrange(buttons.count()))
    if keyboard:
        button.focus()
        page.keyboard.press("Enter")
    else:
        button.click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
    assert page.inner_text("#error") == ""
    return True


def test_two_seats_play_a_whole_game_of_hearts_in_two_browsers(browser, shots, tmp_path):
    server = Server("hearts", "--players", "4", "--bot", "3=random", "--bot", "4=random",
                    "--seed", "7", "--db", str(tmp_path / "tables.sqlite"))
    prog = meeple.load("hearts").for_players(4)
    try:
        seats = server.links["seats"]
        one, errors1 = _page(browser, seats["1"], viewport={"width": 1200, "height": 900})
        two, errors2 = _page(browser, seats["2"], viewport=PHONE, is_mobile=True, has_touch=True)
        assert "Player 1" in one.title() and "Player 2" in two.title()
        seen_by_2: set[int] = set()
        rnd = random.Random(3)
        shots_due = [(0, "start"), (12, "passes-made"), (30, "middle")]   # (moves made, name)
        deadline = time.monotonic() + GAME_SECONDS
        while True:
            assert time.monotonic() < deadline, f"the game did not end in {GAME_SECONDS} s"
            doc1 = httpx2.get(seats["1"], headers=JSON, timeout=30).json()
            doc2 = httpx2.get(seats["2"], headers=JSON, timeout=30).json()
            seen_by_2 |= _seen(doc2)
            words = _unseen_words(prog, doc1, seen_by_2)
            assert_hides(two.content() + two.inner_text("body"), words)
            while shots_due and doc1["version"] >= shots_due[0][0]:
                name = shots_due.pop(0)[1]
                _shot(one, shots, f"hearts-seat1-{name}")
                _shot(two, shots, f"hearts-seat2-{name}-phone")
            if doc1["over"]:
                break
            moved = _play_one(one, rnd, keyboard=False) or _play_one(two, rnd, keyboard=True)
            if not moved:    # the bots' moves are on their way to the pages
                one.wait_for_timeout(50)
        for page in (one, two):
            page.wait_for_selector("#result-section:not([hidden])")
        # the phone's page is as wide as the phone: nothing to scroll sideways
        assert two.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        _shot(one, shots, "hearts-seat1-over")
        _shot(two, shots, "hearts-seat2-over-phone")
        record = httpx2.get(seats["1"] + "/record", timeout=30).json()
        assert record["result"] == doc1["result"] and len(record["moves"]) == doc1["version"]
        assert errors1 == [] and errors2 == []
    finally:
        server.stop()


def test_a_seat_passes_its_three_cards_in_a_row_while_the_other_has_not_chosen(browser, shots, tmp_path):
    """Hearts ('choose 3'): seat 1's page offers its next pass as soon as it has passed a
    card, three times, with no wait for seat 2; seat 2's page shows nothing of them."""
    server = Server("hearts", "--players", "4", "--bot", "3=random", "--bot", "4=random",
                    "--seed", "7", "--db", str(tmp_path / "tables.sqlite"))
    try:
        seats = server.links["seats"]
        one, errors1 = _page(browser, seats["1"], viewport={"width": 1200, "height": 900})
        two, errors2 = _page(browser, seats["2"], viewport={"width": 1200, "height": 900})
        deadline = time.monotonic() + GAME_SECONDS
        while httpx2.get(seats["1"], headers=JSON, timeout=30).json()["to_move"] != [0, 1]:
            assert time.monotonic() < deadline, "the bots did not pass"
            one.wait_for_timeout(50)
        one.reload()
        passed, names = [], []
        for k in range(3):
            one.wait_for_selector("#moves button:not([disabled])")
            buttons = one.locator("#moves button:not([disabled])")
            assert buttons.count() == 13 - k
            # (the status line names the seat's own picks so far, as its buttons say them)
            status = one.inner_text("#status")
            assert ("chosen so far" in status) == (k > 0)
            assert all(name in status for name in names) and "pass " not in status, status
            if k == 2:
                _shot(one, shots, "hearts-seat1-passing")
            passed.append(buttons.first.get_attribute("data-move"))
            names.append(buttons.first.inner_text().strip())
            version = one.get_attribute("body", "data-version")
            buttons.first.click()
            one.wait_for_function("v => document.body.dataset.version !== v", arg=version)
            assert one.inner_text("#error") == ""
        _shot(one, shots, "hearts-seat1-passed-three")
        assert one.locator("#moves button:not([disabled])").count() == 0
        doc2 = httpx2.get(seats["2"], headers=JSON, timeout=30).json()
        assert doc2["to_move"] == [1] and len(doc2["moves"]) == 13
        two.reload()
        two.wait_for_selector("#moves button:not([disabled])")
        assert_hides(two.content() + two.inner_text("body"), passed)
        assert errors1 == [] and errors2 == []
    finally:
        server.stop()


def test_a_board_is_drawn_and_a_cell_picks_its_moves(browser, shots, tmp_path):
    server = Server("cherokee", "--players", "2", "--bot", "2=random", "--seed", "4",
                    "--db", str(tmp_path / "tables.sqlite"))
    try:
        url = server.links["seats"]["1"]
        page, errors = _page(browser, url, viewport={"width": 1000, "height": 900})
        doc = httpx2.get(url, headers=JSON, timeout=30).json()
        cells = doc["boards"][0]["cells"]
        assert page.locator(".board svg g[role=button]").count() == len(cells)
        _shot(page, shots, "cherokee-board")
        key = doc["moves"][0]["start"]["zone"]                 # the cell a move starts at
        target = next(c["name"] for c in cells if c["key"] == key)
        cell = page.locator(f'.board g[aria-label="{target}"]')
        cell.focus()
        page.keyboard.press("Enter")
        shown = [b.get_attribute("data-move") for b in page.locator("#moves button").all()]
        assert shown == [m["notation"] for m in doc["moves"] if m["start"] == {"zone": key}]
        assert len(shown) < len(doc["moves"])
        assert page.locator("#filter").text_content().startswith("Moves from " + target)
        _shot(page, shots, "cherokee-board-picked")
        rnd = random.Random(1)
        for _ in range(10):    # a chase takes a card off the pyramid once it is fought out
            if page.locator(".board rect.changed").count():
                break
            if not _play_one(page, rnd, keyboard=False):
                page.wait_for_timeout(50)
        marked = page.locator(".board rect.changed").count()
        assert 1 <= marked < len(cells)         # the cells the last moves changed, only
        while not (now := httpx2.get(url, headers=JSON, timeout=30).json())["moves"] and not now["over"]:
            page.wait_for_timeout(50)            # the bot's move, then this seat's turn
        page.wait_for_selector(f'body[data-version="{now["version"]}"]')
        last = now["last_move"]
        assert last["text"] in page.locator("#last-move").text_content()
        assert page.locator(".board rect.last").count() == len(last["cells"])
        deadline = time.monotonic() + GAME_SECONDS
        while not (now := httpx2.get(url, headers=JSON, timeout=30).json())["over"]:
            assert time.monotonic() < deadline, f"the game did not end in {GAME_SECONDS} s"
            if not _play_one(page, rnd, keyboard=False):
                page.wait_for_timeout(50)
        page.wait_for_selector("#result-section:not([hidden])")
        _shot(page, shots, "cherokee-over")
        assert errors == []
        assert json.loads(json.dumps(now["result"]))["ranking"]
    finally:
        server.stop()


def _play_turn(page, url: str) -> list[str]:
    """Plays the page's first move until its seat is no longer to move; the moves' texts."""
    played = []
    while True:
        doc = httpx2.get(url, headers=JSON, timeout=30).json()
        if doc["over"] or not doc["moves"]:
            return played
        page.wait_for_selector(f'body[data-version="{doc["version"]}"]')
        played.append(doc["moves"][0]["text"])
        assert _click_first(page)


def _click_first(page) -> bool:
    version = page.get_attribute("body", "data-version")
    page.locator("#moves button").first.click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
    return page.inner_text("#error") == ""


def _since(page) -> list[str]:
    return [li.inner_text() for li in page.locator("#since-list li.move").all()]


def test_moves_read_in_words_and_each_seat_reads_what_happened_since(browser, shots, tmp_path):
    """Cherokee, two people: the buttons write each move as the hand writes its cards
    (the verb once, above them), a key says what the board's short labels stand for,
    the log lists every move among the messages, and after the other seat's turn a seat
    reads its moves above the board: 'Since the game began' before its first move,
    'Since your last move' after."""
    server = Server("cherokee", "--players", "2", "--seed", "5", "--db", str(tmp_path / "tables.sqlite"))
    try:
        url1, url2 = server.links["seats"]["1"], server.links["seats"]["2"]
        one, errors1 = _page(browser, url1, viewport={"width": 1200, "height": 900})
        two, errors2 = _page(browser, url2, viewport=PHONE, is_mobile=True, has_touch=True)
        doc = httpx2.get(url1, headers=JSON, timeout=30).json()
        assert one.inner_text("#choose") == "Choose: chase"
        buttons = [b.inner_text() for b in one.locator("#moves button").all()]
        assert buttons == [m["text"].removeprefix("chase ") for m in doc["moves"]]
        label = doc["items"][str(doc["view"]["zones"][doc["moves"][0]["start"]["zone"]][-1])]["label"]
        assert buttons[0].endswith(": " + label)
        assert "Bi Birds" in one.inner_text("#legend") and "m man" in one.inner_text("#legend")
        assert two.locator("#since").is_hidden()          # nothing has happened yet
        _shot(one, shots, "cherokee-words-start")
        first = _play_turn(one, url1)
        assert len(first) >= 2
        doc2 = httpx2.get(url2, headers=JSON, timeout=30).json()
        two.wait_for_selector(f'body[data-version="{doc2["version"]}"]')
        assert two.inner_text("#since-heading") == "Since the game began"
        assert _since(two) == ["Player 1: " + m["text"] for m in doc2["moves_made"]]
        assert [m["player"] for m in doc2["moves_made"]] == [0] * len(first)
        _shot(two, shots, "cherokee-words-since-start-phone")
        second = _play_turn(two, url2)
        doc1 = httpx2.get(url1, headers=JSON, timeout=30).json()
        one.wait_for_selector(f'body[data-version="{doc1["version"]}"]')
        assert one.inner_text("#since-heading") == "Since your last move"
        theirs = [m for m in doc1["moves_made"] if m["player"] == 1]
        assert len(theirs) == len(second) >= 2
        assert _since(one) == ["Player 2: " + m["text"] for m in theirs]
        # the log: every move, the other seat's since this seat's last one marked
        log = [li.inner_text() for li in one.locator("#log li.move").all()]
        assert len(log) == doc1["version"] and log[-1] == "Player 2: " + theirs[-1]["text"]
        assert one.locator("#log li.move.new").count() == len(second)
        codes = [i["notation"] for i in doc1["items"].values()]
        assert not [c for c in codes if c in " ".join(log)]     # no card by its notation
        _shot(one, shots, "cherokee-words-since-last")
        assert two.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        assert errors1 == [] and errors2 == []
    finally:
        server.stop()


def test_a_wide_board_on_a_phone_scrolls_in_its_box_and_go_s_moves_are_in_the_log(browser, shots, tmp_path):
    """Backgammon's 28 points on a phone are not drawn too small to read (they scroll in
    the board's box, not the page); Go, whose rules log nothing as stones go down,
    lists its moves in the log."""
    server = Server("backgammon", "--bot", "2=random", "--seed", "3", "--db", str(tmp_path / "b.sqlite"))
    try:
        phone, errors = _page(browser, server.links["seats"]["1"], viewport=PHONE, is_mobile=True,
                              has_touch=True)
        drawn = phone.locator(".board svg").bounding_box()
        width = float(phone.get_attribute(".board svg", "viewBox").split()[2])
        assert drawn["width"] >= 0.85 * width - 1 > PHONE["width"]
        assert phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        _shot(phone, shots, "backgammon-phone")
        assert errors == []
    finally:
        server.stop()
    server = Server("go", "--bot", "2=random", "--seed", "8", "--db", str(tmp_path / "g.sqlite"))
    try:
        url = server.links["seats"]["1"]
        page, errors = _page(browser, url, viewport={"width": 1200, "height": 900})
        for _ in range(3):
            _click_first_cell_move(page, url)
        doc = httpx2.get(url, headers=JSON, timeout=30).json()
        while doc["to_move"] != [0]:
            page.wait_for_timeout(50)
            doc = httpx2.get(url, headers=JSON, timeout=30).json()
        page.wait_for_selector(f'body[data-version="{doc["version"]}"]')
        assert doc["log"] == []                         # (Go says nothing itself)
        log = [li.inner_text() for li in page.locator("#log li.move").all()]
        assert log == [f"Player {m['player'] + 1}: {m['text']}" for m in doc["moves_made"]]
        assert len(log) == 6 and log[-1].startswith("Player 2: ")
        _shot(page, shots, "go-log")
        assert errors == []
    finally:
        server.stop()


def _first_said(doc: dict, move: dict) -> str:
    """The first message a move the document lists came with."""
    return doc["log"][move["said_before"] - doc["log_dropped"]]


def _to_move(url: str, seat: int) -> dict:
    """The seat's document once it is to move (a bot has answered) or the game is over."""
    deadline = time.monotonic() + GAME_SECONDS
    while True:
        doc = httpx2.get(url, headers=JSON, timeout=30).json()
        if doc["over"] or doc["to_move"] == [seat]:
            return doc
        assert time.monotonic() < deadline, "the bot did not move"
        time.sleep(0.05)


def test_the_log_tells_a_chess_move_once_by_its_message(browser, shots, tmp_path):
    """Chess says every move itself ("Player 1: e2-e4"): the log lists each move once, by
    that message, not also as a move line ("Player 1: move e2-e4"), since the server
    marks it told (views.move_told), and that message is written as the move's line;
    the last move is still written above the board."""
    server = Server("chess", "--bot", "2=random", "--seed", "4", "--db", str(tmp_path / "c.sqlite"))
    try:
        url = server.links["seats"]["1"]
        page, errors = _page(browser, url, viewport={"width": 1200, "height": 900})
        for notation in ("move e2-e4", "move g1-f3"):
            doc = _to_move(url, 0)
            page.wait_for_selector(f'body[data-version="{doc["version"]}"]')
            version = page.get_attribute("body", "data-version")
            page.locator(f'#moves button[data-move="{notation}"]').click()
            page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
        doc = _to_move(url, 0)
        page.wait_for_selector(f'body[data-version="{doc["version"]}"]')
        made = doc["moves_made"]
        assert len(made) == 4 and all(m["told"] for m in made), made
        said = [_first_said(doc, m) for m in made]
        assert said[0] == "Player 1: e2-e4" and said[2] == "Player 1: g1-f3", said
        log = _lines(page, "#log")
        assert log == doc["log"], log                  # every message, and no move line
        assert [log.count(line) for line in said] == [1, 1, 1, 1], log
        assert not [line for line in log if ": move " in line], log
        # (the message that tells a move is the move's line: one a move)
        assert [li.inner_text() for li in page.locator("#log li.move").all()] == said
        assert page.inner_text("#last-move") == f"Last move: Player 2: {made[-1]['text']}"
        _shot(page, shots, "chess-log-told-once")
        assert errors == []
    finally:
        server.stop()


def test_since_your_last_move_tells_each_kalah_sowing_once(browser, shots, tmp_path):
    """Kalah says each sowing ("Player 2 sows a2"): when the bot sows more than once
    between the seat's moves (a seed ending in its store), "Since your last move" lists
    the messages alone, each sowing once, not also as "Player 2: sow a2"."""
    server = Server("kalah", "--bot", "2=random", "--seed", "4", "--db", str(tmp_path / "k.sqlite"))
    try:
        url = server.links["seats"]["1"]
        page, errors = _page(browser, url, viewport={"width": 1200, "height": 900})
        for _ in range(20):
            doc = _to_move(url, 0)
            page.wait_for_selector(f'body[data-version="{doc["version"]}"]')
            if doc["over"] or page.locator("#since").is_visible():
                break
            _click_first(page)
        assert page.inner_text("#since-heading") == "Since your last move"
        made = doc["moves_made"]
        mine = max(k for k, m in enumerate(made) if m["player"] == 0)
        theirs = made[mine + 1:]
        assert len(theirs) >= 2 and all(m["told"] and m["player"] == 1 for m in theirs), theirs
        since = doc["log"][theirs[0]["said_before"] - doc["log_dropped"]:]
        lines = _lines(page, "#since-list")
        assert lines[-8:] == since[-8:] and len(lines) == min(len(since), 8) + (len(since) > 8), lines
        assert [since.count(f"Player 2 sows {m['notation'].split()[1]}") for m in theirs] == \
            [1] * len(theirs), since
        assert not [line for line in lines if line.startswith("Player 2: ")], lines
        sowings = [li.inner_text() for li in page.locator("#since-list li.move").all()]
        assert sowings == [_first_said(doc, m) for m in theirs][-len(sowings):] and sowings, sowings
        _shot(page, shots, "kalah-since-told-once")
        assert errors == []
    finally:
        server.stop()


def _click_first_cell_move(page, url: str, seat: int = 0) -> None:
    """Plays the first move that puts a stone down, once this seat is to move: the
    server says so and the page shows that version (the buttons of the version before,
    the bot's turn, would post a move out of turn, and the bot's move would then pass
    for this click's)."""
    doc = _to_move(url, seat)
    page.wait_for_selector(f'body[data-version="{doc["version"]}"]')
    page.locator("#moves button", has_text="play").first.click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=str(doc["version"]))


def test_the_dice_are_written_where_they_fell(browser, shots, tmp_path):
    """Pig never logs its die: the page says the set-up's throw above the board before
    the first move, and each roll's die right after the roll in the log."""
    from test_web_reading import PIG
    folder = tmp_path / "pig"
    folder.mkdir()
    (folder / "pig.meeple").write_text(PIG, encoding="utf-8")
    server = Server(str(folder), "--seed", "2", "--db", str(tmp_path / "p.sqlite"))
    try:
        url = server.links["seats"]["1"]
        page, errors = _page(browser, url, viewport=PHONE, is_mobile=True, has_touch=True)
        doc = httpx2.get(url, headers=JSON, timeout=30).json()
        first = doc["opening"][0]["values"][0]
        assert page.inner_text("#since-heading") == "Since the game began"
        assert _lines(page, "#since-list") == [f"Player 1 rolled {first}"]
        version = page.get_attribute("body", "data-version")
        page.locator("#moves button", has_text="roll").click()
        page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
        doc = httpx2.get(url, headers=JSON, timeout=30).json()
        page.wait_for_selector(f'body[data-version="{doc["version"]}"]')
        die = doc["moves_made"][0]["fell"][0]
        thrown = f"Player {die['player'] + 1} rolled {die['values'][0]}"
        assert page.inner_text("#last-move") == "Last move: Player 1: roll — " + thrown
        log = _lines(page, "#log")
        assert log[:3] == [f"Player 1 rolled {first}", "Player 1: roll",
                           f"Player {die['player'] + 1} rolled {die['values'][0]}"], log
        _shot(page, shots, "pig-dice-phone")
        assert errors == []
    finally:
        server.stop()


def _lines(page, selector: str) -> list[str]:
    return [li.inner_text() for li in page.locator(selector + " li").all()]


def test_the_page_draws_a_seat_and_its_policy_blocks_inline_script(browser, tmp_path):
    server = Server("hearts", "--players", "4", "--bot", "3=random", "--bot", "4=random",
                    "--seed", "2", "--db", str(tmp_path / "tables.sqlite"))
    try:
        page, errors = _page(browser, server.links["seats"]["1"])
        doc = httpx2.get(server.links["seats"]["1"], headers=JSON, timeout=30).json()
        shown = [b.get_attribute("data-move") for b in page.locator("#moves button").all()]
        assert shown == [m["notation"] for m in doc["moves"]] and shown
        assert page.inner_text("#status").startswith("Your ")
        page.evaluate("""() => { const s = document.createElement("script");
                                 s.textContent = "document.body.dataset.injected = 1";
                                 document.head.append(s); }""")
        assert page.get_attribute("body", "data-injected") is None
        assert any("Content Security Policy" in e for e in errors)
        spectator, _ = _page(browser, server.links["spectator"])
        assert spectator.locator("#moves-section").is_hidden()
        assert "hidden" in spectator.inner_text("#players") or spectator.inner_text("#zones")
    finally:
        server.stop()


def test_the_page_speaks_the_tables_language(browser, shots, tmp_path):
    server = Server("hearts", "--players", "4", "--bot", "3=random", "--bot", "4=random",
                    "--locale", "de", "--seed", "2", "--db", str(tmp_path / "tables.sqlite"))
    try:
        page, errors = _page(browser, server.links["seats"]["1"])
        assert page.inner_text("#moves-heading") == "Deine Züge"
        assert page.inner_text("#status") in ("Du bist am Zug.",
                                              "Deine Wahl (alle wählen gleichzeitig).")
        rnd = random.Random(3)
        while not _play_one(page, rnd, keyboard=True):
            page.wait_for_timeout(50)
        page.wait_for_selector("#last-move:not([hidden])")
        assert page.inner_text("#last-move").startswith("Letzter Zug: ")
        assert page.inner_text("#status").startswith(("Am Zug: ", "Warten auf: "))
        _shot(page, shots, "hearts-de")
        assert errors == []
    finally:
        server.stop()


def test_the_lobby_starts_a_table_whose_link_plays(browser, shots, tmp_path):
    server = Server("--db", str(tmp_path / "tables.sqlite"))      # no table yet: the lobby only
    try:
        assert server.links["tables"] == []
        page, errors = _page_ready(browser, server.links["lobby"])
        page.select_option("#ruleset", "kalah")
        page.select_option("#seat-2", "random")
        _shot(page, shots, "lobby")
        page.click("#create")
        link = page.locator('#link-list a[data-seat="1"]')
        link.wait_for()
        _shot(page, shots, "lobby-links")
        link.click()
        page.wait_for_selector("body[data-version]")
        assert page.title().startswith("Kalah")
        rnd = random.Random(4)
        for _ in range(3):
            while not _play_one(page, rnd, keyboard=False):
                page.wait_for_timeout(50)
        _shot(page, shots, "lobby-table")
        assert errors == []
    finally:
        server.stop()


def _page_ready(browser, url: str):
    ctx = browser.new_context()
    ctx.set_default_timeout(ACTION_MS)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("body[data-ready]")
    return page, errors


def _luminance(css: str) -> float:
    """The relative luminance (WCAG) of a computed ``rgb(...)`` colour."""
    r, g, b = (int(float(v)) / 255 for v in css[css.index("(") + 1:css.index(")")].split(",")[:3])
    return sum(k * (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
               for k, c in zip((0.2126, 0.7152, 0.0722), (r, g, b)))


def test_tokens_of_a_light_colour_are_drawn_dark_enough_to_read(browser, tmp_path):
    """A white or yellow item (Cherokee's Wolf and Birds clans) keeps a border and text
    that read on the page's light ground: at least 3:1 against white (WCAG's ratio for
    large text and outlines), not the white-on-white of the item's own colour."""
    server = Server("cherokee", "--players", "3", "--bot", "3=random", "--seed", "0",
                    "--db", str(tmp_path / "tables.sqlite"))
    try:
        page, errors = _page(browser, server.links["seats"]["1"],
                             viewport={"width": 1000, "height": 900})
        playwright.expect(page.locator(".token:not(.hidden)").first).to_be_visible()
        # found and read in one script: the page draws itself anew at each "state" event
        # (the first comes just after the first drawing), and a node it has replaced has
        # no computed style ('') — eval_on_selector_all finds the nodes and reads them in
        # two round trips, between which the page may draw itself again
        inks = page.evaluate(
            "() => Array.from(document.querySelectorAll('.token:not(.hidden), .board text.tok'),"
            "  n => n.tagName === 'text' ? getComputedStyle(n).fill : getComputedStyle(n).borderTopColor)")
        assert len(inks) > 20 and all(c.startswith("rgb") for c in inks), inks
        worst = max(_luminance(c) for c in inks)
        assert (1.05) / (worst + 0.05) >= 3.0, inks
        assert errors == []
    finally:
        server.stop()


def test_on_a_phone_the_board_comes_before_the_list_of_moves(browser, shots, tmp_path):
    """Go on a phone: the page is one column; the board (whose cells pick the moves) and
    the last move come first, not under 82 buttons; on a wide screen the moves stay in
    their column on the right, beside the board, with the header and the table close
    above and below it (the long list beside them leaves no gaps in the left column)."""
    server = Server("go", "--bot", "2=random", "--seed", "7", "--db", str(tmp_path / "tables.sqlite"))
    try:
        url = server.links["seats"]["1"]
        phone, errors = _page(browser, url, viewport=PHONE, is_mobile=True, has_touch=True)
        phone.wait_for_selector("#moves button")
        board = phone.locator("#boards .board").bounding_box()
        moves = phone.locator("#moves-section").bounding_box()
        assert board is not None and moves is not None
        assert board["y"] + board["height"] <= moves["y"] + 1, (board, moves)
        assert board["y"] < PHONE["height"]          # seen without scrolling
        _shot(phone, shots, "go-phone")
        wide, errors2 = _page(browser, url, viewport={"width": 1200, "height": 900})
        wide.wait_for_selector("#moves button")
        board = wide.locator("#boards .board").bounding_box()
        moves = wide.locator("#moves-section").bounding_box()
        assert moves["x"] >= board["x"] + board["width"] - 1 and moves["y"] <= board["y"], (board, moves)
        # the long list of moves beside it does not push the board down from the header
        top = wide.locator("header").bounding_box()
        assert board["y"] - (top["y"] + top["height"]) < 80, (top, board)
        zones = wide.locator("#zones-section").bounding_box()
        assert zones["y"] - (board["y"] + board["height"]) < 60, (board, zones)
        assert errors == [] and errors2 == []
    finally:
        server.stop()


def test_the_moves_read_the_locale_s_verb_and_send_the_notation(browser, tmp_path):
    """German Cherokee (``name action.chase "verjagen"``): the buttons say the cell and
    the card under the decision's prompt, they send the notation (``chase r2c1``), and
    the last move reads the German verb."""
    server = Server("cherokee", "--players", "2", "--bot", "2=random", "--locale", "de",
                    "--seed", "4", "--db", str(tmp_path / "tables.sqlite"))
    try:
        page, errors = _page(browser, server.links["seats"]["1"])
        page.wait_for_selector("#moves button:not([disabled])")
        buttons = page.locator("#moves button:not([disabled])")
        assert page.inner_text("#choose") == "Wähle ein Mitglied, das verjagt wird"
        texts = [buttons.nth(k).inner_text() for k in range(buttons.count())]
        sent = [buttons.nth(k).get_attribute("data-move") for k in range(buttons.count())]
        assert all(t.startswith("r") and ": " in t for t in texts), texts
        assert all(s.startswith("chase r") for s in sent), sent
        version = page.get_attribute("body", "data-version")
        buttons.first.click()
        page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
        page.wait_for_selector("#last-move:not([hidden])")
        assert f"verjagen {sent[0].split()[1]}" in page.inner_text("#last-move")
        assert errors == []
    finally:
        server.stop()
