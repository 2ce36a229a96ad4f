"""Profile pictures and group avatars with real server and client processes: /avatar PATH
uploads a photo, the server makes a 128 px square JPEG of it, a conversation partner's /profile
fetches and caches it; /avatar off removes it; /group avatar sets a group's; a stranger's
/profile shows no picture."""
import pathlib
import struct

from test_50_files import png
import pytest

from harness.waiting import wait_until

pytestmark = pytest.mark.storage  # run again on PostgreSQL by run-all.sh


def jpeg_size(data):
    """Width and height from a JPEG's SOF marker."""
    assert data[:3] == b"\xff\xd8\xff", "not a JPEG"
    i = 2
    while i < len(data):
        marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return w, h
        i += 2 + length
    raise AssertionError("no SOF marker")


def test_profile_picture_seen_by_a_partner_and_removed(world):
    server = world.server("--plaintext")
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    carol = world.user("carol", server.address)
    photo = world.tmp / "Ålice – 夏.png"
    photo.write_bytes(png(240, 160))

    assert alice.cmd(f'/avatar "{photo}"', timeout=30)["avatar_id"]
    alice.cmd("/dm bob")
    alice.say("hi 👋🏽")
    seen = bob.cmd("/profile alice", timeout=30)
    path = pathlib.Path(seen["avatar_path"])
    assert path.is_file() and str(path).startswith(str(world.tmp / "clients" / "bob")), "cached in bob's data directory"
    assert jpeg_size(path.read_bytes()) == (128, 128)
    # carol has no link with alice: her profile is not hers to see, picture included.
    err = carol.cmd("/profile alice", expect_error=True)
    assert err["code"] == "not_a_contact", err

    assert alice.cmd("/avatar off")["avatar_id"] == ""
    again = bob.cmd("/profile alice", timeout=30)
    assert again["avatar_id"] == "" and "avatar_path" not in again


def test_any_member_sets_the_group_avatar(world):
    server = world.server("--plaintext")
    alice = world.user("alice", server.address)
    world.user("bob", server.address)
    carol = world.user("carol", server.address)
    alice.cmd("/group create ops bob carol")
    # carol learns of the group by a push: wait for it (a store across a network is slower).
    wait_until(lambda: any(r.get("name") == "ops" for r in carol.conversations()), 20, "carol to see group ops", interval=0.2)
    carol.cmd("/open ops")
    logo = world.tmp / "logo.png"
    logo.write_bytes(png(64, 200))
    set_by_carol = carol.cmd(f"/group avatar {logo}", timeout=30)
    assert len(set_by_carol["avatar_id"]) == 32
    not_an_image = world.tmp / "notes.txt"
    not_an_image.write_text("not a picture")
    err = carol.cmd(f"/group avatar {not_an_image}", expect_error=True, timeout=30)
    assert err["code"] == "not_an_image", err
    assert carol.cmd("/group avatar off")["avatar_id"] == ""
