"""The pages of `dealdex serve` in a real browser: Playwright (PyPI) driving Debian's Chromium
(/usr/bin/chromium), against the binary (DEALDEX_BIN, default target/ci/dealdex) serving a small
database the binary makes. Each page loads without console errors; the answers the pages show
equal the CLI's (`query --count`, `solve`, `export`, `lead`); a set named like an HTML element
shows as text."""

import json
import os
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[4]
BIN = os.environ.get("DEALDEX_BIN", str(ROOT / "target" / "ci" / "dealdex"))
CHROMIUM = os.environ.get("DEALDEX_CHROMIUM", "/usr/bin/chromium")
SEED = "42" * 32
HOSTILE = "<script>alert(1)</script>"
QUERY = "hcp(N) >= 12 and len(N, spades) >= 4"


def dealdex(*args, db=None, **kw):
    """Runs the binary; its standard output as bytes."""
    extra = ["--db", str(db)] if db else []
    return subprocess.run([BIN, *args, *extra], check=True, capture_output=True, **kw).stdout


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A database (set `club`: 8 boards, board 1 solved; a set named HOSTILE; 3000 more deals) and
    `dealdex serve` on it, on a port the system picks; yields (base URL, database)."""
    tmp = tmp_path_factory.mktemp("serve")
    db = tmp / "d.db"
    dealdex("generate", "--boards", "8", "--seed", SEED, "--name", "club", "-o", str(tmp / "club.pbn"), "-q", db=db)
    dealdex("generate", "--boards", "4", "--seed", "17" * 32, "--name", HOSTILE, "-o", str(tmp / "h.pbn"), "-q", db=db)
    dealdex("generate", "--count", "3000", "--seed", "ab" * 32, "-o", "/dev/null", "-q", db=db)
    dealdex("solve", first_index(db), "-q", db=db)
    proc = subprocess.Popen([BIN, "serve", "--db", str(db), "--port", "0", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        started = json.loads(proc.stdout.readline())
        yield started["url"].rstrip("/"), db
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A page that records console errors, page errors and dialogs (none may happen)."""
    context = browser.new_context(accept_downloads=True)
    pg = context.new_page()
    pg.problems = []
    pg.on("console", lambda m: m.type == "error" and pg.problems.append(f"console: {m.text}"))
    pg.on("pageerror", lambda e: pg.problems.append(f"page error: {e}"))
    pg.on("dialog", lambda d: (pg.problems.append(f"dialog: {d.message}"), d.dismiss()))
    yield pg
    problems = pg.problems
    context.close()
    assert problems == []


def first_index(db):
    """The index of board 1 of `club`."""
    out = dealdex("query", "hcp(N) >= 0", "--set", "club", "--limit", "1", db=db)
    # The first word, without the board's -X (dealer and vulnerability).
    return out.decode().split()[0].split("-")[0]


@pytest.mark.parametrize("path", ["/", "/sets", "/sets/club", "/simulate", "/lead", "/contracts"])
def test_each_page_loads_without_errors(server, page, path):
    base, _ = server
    page.goto(base + path)
    expect(page.locator("main h1")).to_be_visible()


def test_a_querys_count_is_query_counts(server, page):
    base, db = server
    page.goto(base + "/")
    page.fill("input[name=q]", QUERY)
    page.click("button[type=submit]")
    expect(page.locator("#count")).to_be_visible()
    want = dealdex("query", QUERY, "--count", db=db).decode().strip()
    assert page.text_content("#count").replace(",", "") == want
    assert "q=" in page.url
    assert page.locator(".deals .card").count() == min(int(want), 24)


def test_a_deals_table_is_solves(server, page):
    base, db = server
    index = first_index(db)
    page.goto(f"{base}/deal/{index}")
    expect(page.locator("#dd-table")).to_be_visible()
    solved = json.loads(dealdex("solve", index, "--no-db", "--to", "json"))
    for seat in "NESW":
        for strain in ["NT", "S", "H", "D", "C"]:
            cell = page.text_content(f"#dd-table tr[data-seat={seat}] td[data-strain={strain}]")
            assert int(cell) == solved["tricks"][seat][strain], (seat, strain)
    assert str(solved["par"]["score"]).lstrip("-") in page.text_content("#par")


@pytest.mark.parametrize("fmt", ["pbn", "dup", "lin"])
def test_a_sets_download_is_exports_bytes(server, page, fmt):
    base, db = server
    page.goto(base + "/sets/club")
    with page.expect_download() as download:
        page.click(f"#downloads a[data-format={fmt}]")
    got = Path(download.value.path()).read_bytes()
    assert got == dealdex("export", "--set", "club", "--to", fmt, db=db)


def test_a_hostile_set_name_shows_as_text(server, page):
    base, _ = server
    page.goto(base + "/sets")
    link = page.locator("table#sets a", has_text=HOSTILE)
    expect(link).to_have_count(1)
    assert link.text_content() == HOSTILE
    link.click()
    expect(page.locator("main h1")).to_have_text(f"Set {HOSTILE}")
    assert page.locator("main script").count() == 0


def test_a_script_error_shows_its_line(server, page):
    base, _ = server
    page.goto(base + "/simulate")
    page.fill("textarea[name=script]", "produce 3\ncondition hcp(north) >= )\n")
    page.click("button[type=submit]")
    error = page.locator("#result .error")
    expect(error).to_be_visible()
    assert "line 2" in error.text_content()
    # The browser logs the refused request (400), which is this test's point.
    page.problems = [p for p in page.problems if "status of 400" not in p]


def test_a_simulation_runs_to_its_report(server, page):
    base, _ = server
    page.goto(base + "/simulate")
    page.fill("input[name=seed]", "7")
    page.click("button[type=submit]")
    expect(page.locator("#report-text")).to_be_visible(timeout=30_000)
    assert "Produced" in page.text_content("#report-text")
    assert page.text_content("#output").count("\n") >= 10


def test_the_lead_page_is_leads_json(server, page):
    """Every field of the form filled as the command's options are: the report the page got
    (but its time), its bars and its table equal `dealdex lead --json`'s and `dealdex lead`'s."""
    base, _ = server
    hand, contract, declarer, vul, deals, seed = "AQ4.J.KJ6543.632", "4S", "N", "EW", "12", "5a" * 32
    where = "hcp(N) >= 12"
    args = ["--hand", hand, "--contract", contract, "--declarer", declarer, "--vul", vul,
            "--deals", deals, "--seed", seed, "--where", where]
    page.goto(base + "/lead")
    page.fill("input[name=hand]", hand)
    page.fill("input[name=contract]", contract)
    page.select_option("select[name=declarer]", declarer)
    page.select_option("select[name=vul]", vul)
    page.fill("input[name=deals]", deals)
    page.fill("input[name=where]", where)
    page.fill("input[name=seed]", seed)
    page.click("button[type=submit]")
    expect(page.locator("#report-text")).to_be_visible(timeout=30_000)
    want = json.loads(dealdex("lead", *args, "--json"))
    got = json.loads(page.text_content("#report-json"))
    # Every field but the time each run took.
    assert got.pop("seconds") > 0 and want.pop("seconds") > 0
    assert got == want
    assert want["leader"] == "E" and want["deals"] == 12
    labels = page.locator("#result .bars .label").all_text_contents()
    values = [float(v) for v in page.locator("#result .bars .value").evaluate_all(
        "vs => vs.map(v => v.dataset.value)")]
    assert labels == [c["card"] for c in want["cards"]]
    assert values == [c["mean_tricks"] for c in want["cards"]]
    assert page.text_content("#report-text").strip() == dealdex("lead", *args).decode().strip()


def test_a_facet_narrows_the_count(server, page):
    base, db = server
    page.goto(base + "/?" + "q=" + QUERY.replace(" ", "+").replace(">=", "%3E%3D"))
    link = page.locator('#facets section[data-facet="hcp(S)"] a').first
    expect(link).to_be_visible()
    term = link.get_attribute("data-term")
    shown = link.locator("xpath=..").locator(".n").text_content().replace(",", "")
    link.click()
    expect(page.locator("#count")).to_have_text(shown)
    narrowed = f"({QUERY}) and {term}"
    assert page.text_content("#count") == dealdex("query", narrowed, "--count", db=db).decode().strip()
    assert "hcp%28S%29" in page.url or "hcp(S)" in page.url


def test_the_sql_box_answers_as_sql(server, page):
    base, db = server
    sql = "SELECT hcp_n, count(*) AS n FROM deal_features GROUP BY hcp_n ORDER BY hcp_n"
    page.goto(base + "/")
    page.click(".sql-box summary")
    page.fill("textarea[name=sql]", sql)
    page.click(".sql-form button")
    expect(page.locator("#sql-result table")).to_be_visible()
    want = json.loads(dealdex("sql", sql, "--json", db=db))
    cells = [[int(td) for td in row.locator("td").all_text_contents()]
             for row in page.locator("#sql-result tbody tr").all()]
    assert cells == want["rows"]


def deal_page_at_3nt(server, page):
    """Board 1 of `club`'s page, its contract form at 3NT by South; the deal's index."""
    base, db = server
    index = first_index(db)
    page.goto(f"{base}/deal/{index}")
    page.fill("input[name=contract]", "3NT")
    page.select_option("select[name=declarer]", "S")
    return index


def test_a_deals_leads_agree_with_solve(server, page):
    index = deal_page_at_3nt(server, page)
    page.click("form:has(input[name=contract]) button[type=submit]")
    expect(page.locator("#leads-table")).to_be_visible(timeout=30_000)
    tricks = [int(t) for t in page.locator("#leads-table td strong").all_text_contents()]
    assert len(tricks) == 13
    solved = json.loads(dealdex("solve", index, "--no-db", "--to", "json"))
    assert max(tricks) == 13 - solved["tricks"]["S"]["NT"]


def test_a_play_through_shows_each_cards_result(server, page):
    index = deal_page_at_3nt(server, page)
    page.click("#play-start")
    cards = page.locator("#play .play-card")
    expect(cards.first).to_be_visible(timeout=30_000)
    assert cards.count() == 13
    solved = json.loads(dealdex("solve", index, "--no-db", "--to", "json"))
    results = [int(c) for c in page.locator("#play .play-card sub").all_text_contents()]
    assert min(results) == solved["tricks"]["S"]["NT"]
    first = cards.first.get_attribute("data-card")
    cards.first.click()
    expect(page.locator("#play-status")).to_contain_text("North to play")
    # The card led lies in the middle of the table, on West's side (South declares).
    expect(page.locator("#play-trick [data-seat=W]")).to_have_attribute("data-card", first)
    assert page.locator("#play-trick span").count() == 1


def test_a_sets_records_and_statistics_are_the_commands(server, page, tmp_path):
    base, db = server
    page.goto(base + "/sets/club")
    with page.expect_download() as download:
        page.click("#records-pdf")
    got = Path(download.value.path()).read_bytes()
    dealdex("records", "--set", "club", "--out", str(tmp_path / "club.pdf"), "-q", db=db)
    assert got == (tmp_path / "club.pdf").read_bytes()
    page.click("#stats summary")
    expect(page.locator("#stats-text")).to_be_visible()
    want = dealdex("stats", "--set", "club", db=db).decode()
    assert page.text_content("#stats-text").strip() == want.strip()
    expect(page.locator("#stats img.plot")).to_be_visible()
    assert page.locator("#stats img.plot").evaluate("i => i.naturalWidth") > 0


def test_a_script_error_shows_its_line_as_one_types(server, page):
    base, _ = server
    page.goto(base + "/simulate")
    expect(page.locator("#diagnostics")).to_have_text("The script parses.")
    page.fill("textarea[name=script]", "produce 3\ncondition hcp(north) >= )\n")
    error = page.locator("#diagnostics .error")
    expect(error).to_be_visible()
    assert "line 2" in error.text_content()
    assert page.locator("#result").text_content() == ""  # nothing ran
    page.fill("textarea[name=script]", "produce 3\ncondition hcp(north) >= 20\n")
    expect(page.locator("#diagnostics")).to_have_text("The script parses.")


def test_a_writing_server_generates_a_set_from_the_page(tmp_path, browser):
    db = tmp_path / "w.db"
    dealdex("generate", "--boards", "2", "--seed", SEED, "--name", "old", "-o", str(tmp_path / "o.pbn"), "-q", db=db)
    proc = subprocess.Popen([BIN, "serve", "--db", str(db), "--port", "0", "--json", "--write"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base = json.loads(proc.stdout.readline())["url"].rstrip("/")
        page = browser.new_page()
        page.goto(base + "/sets")
        page.fill("input[name=boards]", "6")
        page.fill("input[name=name]", "fresh")
        page.click("form:has(input[name=boards]) button")
        expect(page.locator("main h1")).to_have_text("Set fresh")
        assert dealdex("query", "hcp(N) >= 0", "--set", "fresh", "--count", db=db).decode().strip() == "6"
        keys = list(tmp_path.glob("w-*.seed"))
        assert len(keys) == 1 and keys[0].stat().st_mode & 0o777 == 0o600
        assert keys[0].read_text().strip() not in page.content()
        page.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


RANKS = "AKQJT98765432"


def card_name(byte):
    """A stored card byte (suit × 13 + rank from the ace, FORMATS.md's seed order) as `SA`."""
    return "SHDC"[byte // 13] + RANKS[byte % 13]


@pytest.fixture(scope="module")
def played_server(tmp_path_factory):
    """A vugraph match (tests/fixtures/vugraph/04020.lin, both rooms) imported and judged by
    the binary, `dealdex serve` on it; yields (base URL, the judged board with the most costly
    cards as `dealdex sql` reads it: id, deal index, declarer, cards, tricks along the play,
    and the record's contract, tricks taken and event)."""
    tmp = tmp_path_factory.mktemp("played")
    db = tmp / "p.db"
    dealdex("import", str(ROOT / "tests" / "fixtures" / "vugraph" / "04020.lin"), "--set", "m", db=db)
    dealdex("judge", db=db)
    rows = json.loads(dealdex(
        "--json", "sql",
        "SELECT p.id, hex(p.deal), p.declarer, hex(p.cards), hex(d.tricks), p.contract, p.result, "
        "p.event FROM played p "
        "JOIN played_dd d ON d.played = p.id WHERE d.tricks IS NOT NULL ORDER BY p.id", db=db))
    boards = []
    for row in rows["rows"]:
        cards = [card_name(b) for b in bytes.fromhex(row[3])]
        boards.append((row[0], row[1], row[2], cards, list(bytes.fromhex(row[4])), row[5:]))
    # The board whose play changed the double-dummy result most often.
    board = max(boards, key=lambda b: sum(x != y for x, y in zip(b[4], b[4][1:])))
    proc = subprocess.Popen([BIN, "serve", "--db", str(db), "--port", "0", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        yield json.loads(proc.stdout.readline())["url"].rstrip("/"), board
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_played_boards_page_marks_each_costly_card_and_plays_the_record(played_server, page):
    base, (played_id, index, declarer, cards, tricks, (contract, taken, event)) = played_server
    # Reached from its deal's page: the tables that played the deal.
    page.goto(f"{base}/deal/{index}")
    link = page.locator(f"#played-tables a[href='/played/{played_id}']")
    expect(link).to_be_visible(timeout=30_000)
    link.click()
    expect(page.locator("#played-tricks")).to_be_visible(timeout=30_000)
    expect(page.locator("#auction")).to_be_visible()
    # The record's facts: the match, and the contract with its declarer and tricks taken.
    facts = page.text_content("#played-facts")
    seat_name = {"N": "North", "E": "East", "S": "South", "W": "West"}[declarer]
    assert event and event in facts
    assert f"{contract} by {seat_name}, {taken} tricks" in facts
    # Each card's cost from the tricks `judge` stored: a card of declarer's side costs the
    # tricks it loses declarer, a defender's the tricks it gives.
    ours = {declarer, "NESW"[("NESW".index(declarer) + 2) % 4]}
    shown = page.locator("#played-tricks td.played-card")
    assert [shown.nth(k).get_attribute("data-card") for k in range(shown.count())] == cards
    want_costly = {}
    for k, card in enumerate(cards):
        seat = shown.nth(k).get_attribute("data-seat")
        lost = tricks[k] - tricks[k + 1] if seat in ours else tricks[k + 1] - tricks[k]
        assert int(shown.nth(k).get_attribute("data-cost")) == max(lost, 0)
        if lost > 0:
            want_costly[card] = lost
    costly = page.locator("#played-tricks td.costly")
    assert {costly.nth(k).get_attribute("data-card") for k in range(costly.count())} == set(want_costly)
    assert len(want_costly) >= 1
    declarer_lost = sum(tricks[k] - tricks[k + 1] for k in range(len(cards)) if tricks[k] > tricks[k + 1])
    defence_lost = sum(tricks[k + 1] - tricks[k] for k in range(len(cards)) if tricks[k + 1] > tricks[k])
    words = lambda n: "1 trick" if n == 1 else f"{n} tricks"  # noqa: E731
    summary = page.text_content("#played-summary")
    assert f"Declarer lost {words(declarer_lost)}, the defence {words(defence_lost)}" in summary
    # The play-through follows the record: the table's card is marked, "Next card" plays it.
    expect(page.locator("#play .play-card.recorded")).to_have_attribute("data-card", cards[0], timeout=30_000)
    for k in range(5):
        page.click("#play-next")
        expect(page.locator("#play .play-card.recorded")).to_have_attribute("data-card", cards[k + 1], timeout=30_000)
    # Five cards in: the second trick's lead lies in the middle, alone.
    expect(page.locator("#play-trick span")).to_have_count(1)
    expect(page.locator("#play-trick span")).to_have_attribute("data-card", cards[4])
