"""Scenario 52 (opt-in, never in CI): the whole path against a real language model. Run by
`Scripts/assistant/real-model.sh path`, which serves a model on loopback and sets
MESSAGEAI_REAL_MODEL_URL (and MESSAGEAI_REAL_MODEL_OUT, a file for the answers). The server
is pointed at it with `--assistant-extract provider`; three users write a short thread; then
/summary, /actions, /decisions, /check and /rewrite run through the real client. It asserts
what must hold whatever the model's quality (an answer, the engine named, a fallback said);
the answers themselves go to the output file for a person to judge."""
import json
import os
import time

import pytest

from harness.waiting import wait_until

URL = os.environ.get("MESSAGEAI_REAL_MODEL_URL")
pytestmark = pytest.mark.skipif(not URL, reason="opt-in: Scripts/assistant/real-model.sh path")

THREAD = [
    ("ann", "Morning! The 2.3 release is the topic today."),
    ("ben", "Do we ship on Thursday or Friday?"),
    ("cat", "QA signed off an hour ago, so Thursday works."),
    ("ann", "Decision: we ship 2.3 on Thursday."),
    ("ben", "Ann, could you write the release notes by Wednesday 5pm?"),
    ("ann", "Yes, I'll take it."),
    ("cat", "Ben, please tag the 2.3 hotfix branch after standup."),
    ("ben", "Who owns the rollback plan?"),
    ("cat", "I'll send the customer email on Thursday at noon — 日本語 version too 🙌🏽"),
]


def test_real_model_whole_path(world):
    timeout = os.environ.get("MESSAGEAI_REAL_MODEL_TIMEOUT", "60")
    server = world.server("--assistant-base-url", URL, "--assistant-model", os.environ.get("MESSAGEAI_REAL_MODEL", "default"),
                          "--assistant-timeout", timeout, "--assistant-extract", "provider")
    users = {n: world.user(n, server.address) for n in ("ann", "ben", "cat")}
    users["ann"].cmd("/group create launch ben cat")
    for c in users.values():
        wait_until(lambda c=c: any(r.get("name") == "launch" for r in c.conversations()), 15, f"{c.name} to see launch", interval=0.2)
        c.cmd("/open launch")
    for who, text in THREAD:
        users[who].say(text)
        users[who].cmd("/wait sent 15", timeout=20)
    users["ann"].cmd(f"/wait-messages {len(THREAD)} 30", timeout=40)
    ann = users["ann"]
    out = {}
    started = time.monotonic()
    out["summary"] = ann.cmd("/summary", timeout=float(timeout) * 3 + 30)
    out["summary_seconds"] = round(time.monotonic() - started, 1)
    assert out["summary"]["summary"], out["summary"]
    assert out["summary"]["engine"] in ("provider", "local"), out["summary"]
    assert out["summary"]["engine"] == "provider" or out["summary"]["fallback_reason"], out["summary"]
    # The model's batch of items (one call for the thread) replaces the local ones when it answers.
    deadline = time.monotonic() + float(timeout) * 3 + 30
    while time.monotonic() < deadline:
        out["actions"] = ann.cmd("/actions all")
        if any(i.get("engine") == "provider" for i in out["actions"]["actions"]):
            break
        time.sleep(2)
    out["decisions"] = ann.cmd("/decisions")
    for draft in ("revert that", "This is WRONG, fix it now.", "Could you send me the notes for the 2.3 release by Friday?"):
        out["check: " + draft] = ann.cmd(f"/check {draft}")
    out["rewrite"] = ann.cmd("/rewrite can u do the thing by tmrw", timeout=float(timeout) * 2 + 30)
    assert out["rewrite"]["rewrite"] or out["rewrite"]["fallback_reason"], out["rewrite"]
    path = os.environ.get("MESSAGEAI_REAL_MODEL_OUT")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(out, f, ensure_ascii=False, indent=2)
