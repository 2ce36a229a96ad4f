"""Scenario 64: due dates in every reader's time zone (issue 28). alice works in Tokyo and bob in
Los Angeles: each REPL runs in a real pty with its own TZ. "by Friday 5pm" written by alice is
Friday 17:00 on her calendar; bob's screen shows the same instant in his own clock, and so does
alice's for bob's "tomorrow". /tz shows each one's zone and where it came from, /profile shows the
other's, and a zone the server cannot know is refused with a reason."""
import datetime
import time
from zoneinfo import ZoneInfo

import pytest

from harness import screen
from harness.screen import bare_environment, open_dm, repl_user

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")

TOKYO, LOS_ANGELES = ZoneInfo("Asia/Tokyo"), ZoneInfo("America/Los_Angeles")
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def shown(instant, zone, with_date=True):
    t = instant.astimezone(zone)
    clock = f"{t.hour:02d}:{t.minute:02d}"
    return f"{DAYS[t.weekday()]} {t.day} {MONTHS[t.month - 1]} {clock}" if with_date else f"{DAYS[t.weekday()]} {clock}"


def reader_side(instant, meant, reader):
    """What the reader sees after '=': the weekday alone on the same calendar day, else the date."""
    a, b = instant.astimezone(meant), instant.astimezone(reader)
    return shown(instant, reader, with_date=(a.month, a.day) != (b.month, b.day))


def next_friday_5pm(sent, zone):
    """The scenario's rule for "Friday 5pm": the next Friday 17:00 still ahead of the message."""
    local = sent.astimezone(zone)
    for delta in range(8):
        day = (local + datetime.timedelta(days=delta)).date()
        if day.weekday() == 4:
            at = datetime.datetime(day.year, day.month, day.day, 17, 0, tzinfo=zone)
            if at > sent:
                return at
    raise AssertionError("no Friday within a week")


def tomorrow_5pm(sent, zone):
    day = (sent.astimezone(zone) + datetime.timedelta(days=1)).date()
    return datetime.datetime(day.year, day.month, day.day, 17, 0, tzinfo=zone)


def line_with(repl, words, what, timeout=20):
    text = repl.wait_screen(lambda s: any(all(w in l for w in words) for l in s.split("\n")), timeout, what=what)
    return next(l for l in text.split("\n") if all(w in l for w in words))


def listed(repl, words, what):
    """The /actions line with `words`, asking again until the item is extracted (deadline 20 s)."""
    deadline = time.monotonic() + 20
    while True:
        repl.line("/actions")
        try:
            return line_with(repl, words, what, timeout=1)
        except screen.Timeout:
            if time.monotonic() >= deadline:
                raise


def test_two_readers_see_one_due_instant_in_their_own_zones(world):
    server = world.server()
    alice = repl_user(world, "alice", server, columns=160, rows=40,
                      env=bare_environment(world.tmp / "clients" / "alice", TZ="Asia/Tokyo"))
    bob = repl_user(world, "bob", server, columns=160, rows=40,
                    env=bare_environment(world.tmp / "clients" / "bob", TZ="America/Los_Angeles"))

    alice.line("/tz")
    alice.wait_text("time zone Asia/Tokyo (from TZ")
    bob.line("/tz")
    bob.wait_text("time zone America/Los_Angeles (from TZ")

    alice.line("/add bob")
    alice.wait_text("contact request sent to bob")
    bob.line("/accept alice")
    bob.wait_text("alice is now a contact")
    open_dm(alice, "bob")
    open_dm(bob, "alice")

    # Each sees the other's zone on the profile, with the clock there.
    alice.line("/profile bob")
    alice.wait_text("time zone America/Los_Angeles (")
    bob.line("/profile alice")
    bob.wait_text("time zone Asia/Tokyo (")

    before = datetime.datetime.now(datetime.timezone.utc)
    alice.line("Bob, please send the signed contract by Friday 5pm")
    # The push that asks something of bob: the instant in Tokyo's words and in his own clock.
    pushed = line_with(bob, ["for you from alice", "signed contract"], "the item pushed to bob")
    after = datetime.datetime.now(datetime.timezone.utc)
    candidates = {next_friday_5pm(before, TOKYO), next_friday_5pm(after, TOKYO)}
    expected_bob = [f"(due {shown(d, TOKYO)} (Tokyo) = {reader_side(d, TOKYO, LOS_ANGELES)} here)" for d in candidates]
    assert any(e in pushed for e in expected_bob), (pushed, expected_bob)

    # The same item in alice's own list: her zone, so no label and no conversion.
    hers = listed(alice, ["bob:", "signed contract", "(due "], "the item in alice's /actions")
    assert any(f"(due {shown(d, TOKYO)})" in hers for d in candidates), hers

    # bob's "tomorrow" is his tomorrow, shown to alice in Tokyo's clock.
    before = datetime.datetime.now(datetime.timezone.utc)
    bob.line("Alice, could you review the launch checklist by tomorrow?")
    mine = listed(alice, ["alice:", "launch checklist", "(due "], "bob's ask in alice's /actions")
    after = datetime.datetime.now(datetime.timezone.utc)
    candidates = {tomorrow_5pm(before, LOS_ANGELES), tomorrow_5pm(after, LOS_ANGELES)}
    expected_alice = [f"(due {shown(d, LOS_ANGELES)} (Los Angeles) = {reader_side(d, LOS_ANGELES, TOKYO)} here)" for d in candidates]
    assert any(e in mine for e in expected_alice), (mine, expected_alice)
    his = listed(bob, ["alice:", "launch checklist", "(due "], "bob's ask in bob's /actions")
    assert any(f"(due {shown(d, LOS_ANGELES)})" in his for d in candidates), his

    # Choosing a zone: POSIX's "UTC-9" is nine hours east; nonsense is refused and changes nothing.
    bob.line("/tz UTC-9")
    bob.wait_text("time zone +09:00 (chosen with /tz")
    bob.line("/tz Mars/Olympus")
    bob.wait_text("'Mars/Olympus' is not a time zone")
    now_tokyo_clock = listed(bob, ["alice:", "launch checklist", "(Los Angeles) ="], "the item in bob's new zone")
    assert any(f"= {reader_side(d, LOS_ANGELES, TOKYO)} here" in now_tokyo_clock for d in candidates), now_tokyo_clock
    bob.line("/tz auto")
    bob.wait_text("time zone America/Los_Angeles (from TZ")
