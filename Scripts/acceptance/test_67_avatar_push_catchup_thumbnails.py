"""Scenario 67 (issue 24, left over from 0.4.0), real server and client processes, the REPL in a
real pty read through a terminal emulator:
- a new profile picture reaches a contact's open REPL at once, drawn under the notice, and is
  kept in the cache: the conversation header shows it with the server down; its removal is
  told too; a non-contact sharing a conversation gets no push (their next /profile shows it);
- the catch-up lines after a sync and /catchup's mentions draw an image message's thumbnail
  under its line, within the terminal's width; TERM=dumb and --json get the text line only."""
import json
import pathlib

from harness.screen import ScreenClient, bare_environment, has_prompt, open_dm, starts_prompt
from harness.waiting import wait_until
from test_50_files import png


# Block art: chafa's block and half-block symbols (U+2580-U+259F).
BLOCKS = set(chr(c) for c in range(0x2580, 0x25A0))


def blocks_below(screen, marker, rows=10):
    """Block characters in the rows after the last row holding `marker` (0 if it is not shown)."""
    lines = screen.lines()
    at = max((i for i, l in enumerate(lines) if marker in l), default=None)
    if at is None:
        return 0
    return sum(ch in BLOCKS for l in lines[at + 1:at + 1 + rows] for ch in l)


def repl(world, name, server, columns=80, rows=30, env=None):
    data_dir = world.tmp / "clients" / name
    r = ScreenClient(world.client_exe, server.address, data_dir, world.logs / f"screen-{name}.log",
                     columns=columns, rows=rows, env=env)
    world.screens = getattr(world, "screens", []) + [r]
    return r


def wait_blocks(screen, marker, what, timeout=20):
    wait_until(lambda: blocks_below(screen, marker) >= 20 or None, timeout, what, interval=0.1)


def test_a_new_picture_reaches_a_contacts_repl_and_stays_for_offline(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob_piped = world.user("bob", server.address)
    carol = world.user("carol", server.address)
    world.contacts(alice, bob_piped)
    assert bob_piped.close() == 0
    bob = repl(world, "bob", server)
    bob.wait_screen(lambda s: has_prompt(s, "bob"), 20, what="bob's online prompt")
    bob.line("/set preview blocks")  # block art whatever this terminal would support
    open_dm(bob, "alice")
    carol.cmd("/dm alice")
    carol.say("hello from a stranger ✨")
    carol.cmd("/wait sent 15", timeout=20)

    photo = world.tmp / "Ålice – 夏.png"
    photo.write_bytes(png(240, 160))
    avatar_id = alice.cmd(f'/avatar "{photo}"', timeout=30)["avatar_id"]
    assert len(avatar_id) == 32
    bob.wait_text("* alice has a new profile picture", timeout=20)
    wait_blocks(bob, "alice has a new profile picture", "the picture drawn under the notice")
    cached = world.tmp / "clients" / "bob" / "accounts" / "bob" / "files" / avatar_id
    assert cached.read_bytes()[:3] == b"\xff\xd8\xff", "the picture is in bob's cache"
    book = json.loads((world.tmp / "clients" / "bob" / "accounts" / "bob" / "avatars.json").read_text())
    assert book == {"alice": avatar_id}

    # carol shares a conversation but is no contact: no push; she sees it when she asks.
    seen = carol.cmd("/profile alice", timeout=30)
    assert seen["avatar_id"] == avatar_id
    assert carol.of_type("avatar") == [], carol.of_type("avatar")

    # The server goes away: the header of the conversation still shows the picture.
    server.kill()
    bob.wait_screen(lambda s: "offline" in bob.cursor_line(), 20, what="bob offline")
    bob.line("/dm alice")
    bob.wait_text("now in [alice]", timeout=15)
    wait_blocks(bob, "now in [alice]", "the cached picture under the header, offline")

    server.start()
    bob.wait_screen(lambda s: starts_prompt(bob.cursor_line(), "alice"), 40, what="bob back online")
    assert alice.cmd("/avatar off", timeout=40)["avatar_id"] == ""
    bob.wait_text("* alice's profile picture was removed", timeout=20)


def test_catch_up_lines_draw_thumbnails_and_fall_back_to_text(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob_piped = world.user("bob", server.address)
    dan_piped = world.user("dan", server.address)
    world.contacts(alice, bob_piped)
    world.contacts(alice, dan_piped)
    assert bob_piped.close() == 0 and dan_piped.close() == 0
    # bob and dan are away; alice sends each a picture that mentions them.
    mock = world.tmp / "mockup 東京.png"
    mock.write_bytes(png(320, 200))
    for who in ("bob", "dan"):
        alice.cmd(f"/dm {who}")
        alice.cmd(f'/send-file "{mock}" @{who} the mockup, see ✅', timeout=30)
        alice.cmd("/wait sent 30", timeout=40)

    # bob comes back in a 60-column terminal: the catch-up line, its thumbnail under it.
    env = bare_environment(world.tmp / "clients" / "bob", TERM="xterm-256color")
    for k in ("KITTY_WINDOW_ID", "TERM_PROGRAM", "LC_TERMINAL", "VTE_VERSION"):
        env.pop(k, None)  # the terminal says it has no graphics: block art
    bob = repl(world, "bob", server, columns=60, env=env)
    bob.wait_text("the mockup, see ✅", timeout=20)
    wait_blocks(bob, "the mockup, see ✅", "the thumbnail under the catch-up line")
    # /catchup: the mention, with its thumbnail.
    bob.line("/clear")
    bob.wait_screen(lambda s: "mockup, see" not in s, 10, what="a clear screen")
    bob.line("/catchup")
    bob.wait_text("mention: alice:", timeout=20)
    wait_blocks(bob, "mention: alice:", "the thumbnail under /catchup's mention")

    # dan's terminal shows no images: the line alone, no block art, no escape for pictures.
    env = bare_environment(world.tmp / "clients" / "dan", TERM="dumb")
    dan = repl(world, "dan", server, env=env)
    dan.wait_text("the mockup, see", timeout=20)
    dan.line("/catchup")
    dan.wait_text("mention: alice:", timeout=20)
    assert blocks_below(dan, "the mockup, see") == 0 and blocks_below(dan, "mention: alice:") == 0
    assert b"\x1b_G" not in dan.raw_bytes() and b"\x1bP" not in dan.raw_bytes(), "no kitty or sixel graphics"
    dan.line("/quit")
    dan.wait_exit(15)

    # --json: the catch-up is JSON lines only (the harness parses every stdout line).
    carol_piped = world.user("carol", server.address)
    world.contacts(alice, carol_piped)
    assert carol_piped.close() == 0
    alice.cmd("/dm carol")
    alice.cmd(f'/send-file "{mock}" @carol the mockup for you', timeout=30)
    alice.cmd("/wait sent 30", timeout=40)
    carol = world.client("carol", server.address)
    wait_until(lambda: [e for e in carol.of_type("message") if "mockup for you" in str(e.get("text"))] or None,
               20, "carol's catch-up message event")
    mentions = carol.cmd("/catchup")["conversations"][0]["mentions"]
    assert [m["from"] for m in mentions] == ["alice"], mentions
    raw = pathlib.Path(world.logs / "client-carol.log").read_text(errors="replace")
    assert "\x1b" not in raw and not any(ch in BLOCKS for ch in raw), "no drawing in --json output"
