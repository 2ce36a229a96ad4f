"""Scenario 51: the language-model provider fails mid-conversation. A real fake chat-completions
server (Tests/MessageAIAssistantProviderTests/fake_chat_server.py) answers at first; then it
hangs (SIGSTOP) and later dies (SIGKILL). Summaries come from the local engine with a clear
notice, /rewrite says why it has nothing, items are still extracted, and no message waits for
the provider: one sent while a summary hangs on it is delivered before that summary answers."""
import os
import pathlib
import signal
import subprocess

from harness.waiting import wait_until

FAKE = pathlib.Path(__file__).resolve().parents[2] / "Tests" / "MessageAIAssistantProviderTests" / "fake_chat_server.py"


def test_provider_down_mid_conversation(world):
    fake = subprocess.Popen(["python3", str(FAKE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = int(fake.stdout.readline())
        server = world.server("--assistant-base-url", f"http://127.0.0.1:{port}/good", "--assistant-model", "fake",
                              "--assistant-timeout", "3")
        ann, ben = world.user("ann", server.address), world.user("ben", server.address)
        world.contacts(ann, ben)
        ann.cmd("/dm ben")
        ben.cmd("/dm ann")
        for c, text in ((ann, "The 2.3 hotfix branch is cut."), (ben, "Thanks, I'll look after lunch."),
                        (ann, "Could you tag it and post the notes by 5pm?")):
            c.say(text)
            c.cmd("/wait sent 15", timeout=20)
        ben.cmd("/wait-messages 3 15", timeout=20)

        up = ann.cmd("/summary")
        assert up["engine"] == "provider" and up["fallback_reason"] is None, up
        suggestion = ann.cmd("/rewrite can u do the thing")
        assert suggestion["rewrite"], suggestion

        # The provider hangs: a summary waits for its timeout off the server's message path.
        os.kill(fake.pid, signal.SIGSTOP)
        since = len(ann.events.snapshot())
        ann.write("/summary 2")  # a range not cached yet (seq 2-3): it must ask the provider
        ben.say("Sending while the model hangs 🙃")
        ben.cmd("/wait delivered 15", timeout=20)
        hung = ann.wait_event(lambda e: e.get("type") == "summary", 20, since, what="the summary after the provider timed out")
        events = ann.events.snapshot(since)
        got = next(i for i, e in enumerate(events) if e.get("type") == "message" and "hangs" in e.get("text", ""))
        answered = next(i for i, e in enumerate(events) if e.get("type") == "summary")
        assert got < answered, "the message reached ann before the hung provider's summary"
        assert hung["engine"] == "local", hung
        assert "did not answer" in hung["fallback_reason"] and "local rules" in hung["fallback_reason"], hung

        # Then it is gone for good.
        os.kill(fake.pid, signal.SIGKILL)
        fake.wait()
        ben.say("Ann, could you send the build notes by Friday?")
        ben.cmd("/wait delivered 15", timeout=20)
        down = ann.cmd("/summary")
        assert down["engine"] == "local" and "could not be reached" in down["fallback_reason"], down
        assert down["summary"], down
        none = ann.cmd("/rewrite can u do the thing")
        assert none["rewrite"] is None and none["fallback_reason"], none
        mine = wait_until(lambda: [i for i in ann.cmd("/actions mine")["actions"] if "build notes" in i["what"]] or None,
                          15, "the item extracted with the provider down", interval=0.3)
        assert mine[0]["due"] == "Friday", mine
    finally:
        if fake.poll() is None:
            os.kill(fake.pid, signal.SIGKILL)
            fake.wait()
