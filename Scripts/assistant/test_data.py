"""Checks of the labelled sets in data/: shapes, one gold line per input, consistent labels,
and that the gold answers score perfectly and empty answers score zero.

    python3 -m pytest -q Scripts/assistant/test_data.py
"""
import collections
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
SETS = ("dev", "dev2", "dev3", "heldout", "fresh")
MINIMUM = {"dev": (160, 9, 20, 20), "dev2": (0, 5, 0, 0), "dev3": (0, 6, 0, 0), "heldout": (90, 5, 10, 10),
           "fresh": (125, 6, 18, 14)}  # messages, threads, clarity flags, tone flags


def rows(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load(name):
    return rows(os.path.join(DATA, f"{name}.jsonl")), rows(os.path.join(DATA, f"{name}.gold.jsonl"))


@pytest.mark.parametrize("name", SETS)
def test_every_input_has_exactly_one_gold_line(name):
    inputs, gold = load(name)
    in_ids = [r["id"] for r in inputs]
    gold_ids = [r["id"] for r in gold]
    assert len(in_ids) == len(set(in_ids))
    assert sorted(in_ids) == sorted(gold_ids)


@pytest.mark.parametrize("name", SETS)
def test_sizes_and_flag_counts(name):
    inputs, gold = load(name)
    messages = [r for r in inputs if "messages" not in r]
    threads = [r for r in inputs if "messages" in r]
    n_msg, n_thread, n_clarity, n_tone = MINIMUM[name]
    assert len(messages) >= n_msg and len(threads) >= n_thread
    assert sum(g.get("clarity_flag", False) for g in gold) >= n_clarity
    assert sum(g.get("tone_flag", False) for g in gold) >= n_tone
    for t in threads:
        assert 12 <= len(t["messages"]) <= 45, t["id"]


@pytest.mark.parametrize("name", SETS)
def test_inputs_have_the_shapes_of_assistant_md(name):
    inputs, gold = load(name)
    by_id = {g["id"]: g for g in gold}
    for r in inputs:
        g = by_id[r["id"]]
        if "messages" in r:
            assert set(r) == {"id", "participants", "messages"}
            assert set(g) == {"id", "key_points", "actions", "decisions", "open_questions"}
            for a in g["actions"]:
                assert a["who"] in r["participants"], (r["id"], a)
            continue
        assert set(r) == {"id", "context", "from", "to", "text"}
        assert 0 <= len(r["context"]) <= 4 and r["to"] and r["from"] not in r["to"]
        assert set(g) == {"id", "actions", "clarity_flag", "tone_flag", "decision", "rules"}
        assert g["rules"], r["id"]
        for a in g["actions"]:
            assert set(a) == {"what", "who", "due"}
            allowed = {"sender", "recipient"} | (set(r["to"]) if len(r["to"]) > 1 else set())
            assert a["who"] in allowed, (r["id"], a)
            assert a["due"] is None or a["due"].split()[0].lower() not in ("by", "before")


@pytest.mark.parametrize("name", SETS)
def test_rule_tags_agree_with_labels(name):
    inputs, gold = load(name)
    for g in gold:
        tags = g.get("rules", [])
        if not tags:
            continue
        if any(t.startswith("clarity.") and ".neg." not in t for t in tags):
            assert g["clarity_flag"], g["id"]
        if any(t.startswith("tone.") and ".neg." not in t for t in tags):
            assert g["tone_flag"], g["id"]
        if "decision.made" in tags:
            assert g["decision"], g["id"]
        if any(t.startswith("decision.neg.") for t in tags):
            assert g["decision"] is None, g["id"]
        if any(t.startswith("action.neg.") for t in tags) and not any(
                t.startswith("action.") and ".neg." not in t for t in tags):
            assert g["actions"] == [], g["id"]


def score(name, flag):
    inputs = os.path.join(DATA, f"{name}.jsonl")
    gold = os.path.join(DATA, f"{name}.gold.jsonl")
    pred = subprocess.run([sys.executable, os.path.join(HERE, "gold_to_pred.py"), *flag, gold],
                          capture_output=True, text=True, check=True).stdout
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"assistant-{name}-{os.getpid()}.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        f.write(pred)
    try:
        out = subprocess.run([sys.executable, os.path.join(HERE, "score.py"), "--inputs", inputs,
                              "--gold", gold, "--pred", path, "--json"],
                             capture_output=True, text=True, check=True).stdout
    finally:
        os.remove(path)
    return json.loads(out)


@pytest.mark.parametrize("name", SETS)
def test_gold_as_prediction_scores_perfectly(name):
    r = score(name, [])
    msg, th = r["messages"], r["summaries"]
    if msg["messages"]:  # dev2 holds threads only
        assert msg["actions"]["f1"] == 1.0 and msg["actions"]["due_accuracy"] == 1.0
        for k in ("clarity", "tone"):
            assert msg[k]["recall"] == 1.0 and msg[k]["false_flags"] == 0
        assert msg["decisions"]["f1"] == 1.0 and msg["decisions"]["text_match"] == 1.0
    assert th["coverage"] == 1.0 and th["length_ratio_max"] < 0.30
    for k in ("actions", "decisions", "open_questions"):
        assert th[k]["f1"] == 1.0


@pytest.mark.parametrize("name", SETS)
def test_empty_prediction_scores_zero_recall(name):
    r = score(name, ["--empty"])
    msg, th = r["messages"], r["summaries"]
    assert msg["actions"]["recall"] == 0.0
    assert msg["clarity"]["recall"] == 0.0 and msg["tone"]["recall"] == 0.0
    assert msg["decisions"]["recall"] == 0.0 and th["coverage"] == 0.0


def tag_counts(name):
    """Counts per rule tag, for the report: python3 test_data.py."""
    _, gold = load(name)
    return collections.Counter(t for g in gold for t in g.get("rules", []))


if __name__ == "__main__":
    for name in SETS:
        _, gold = load(name)
        msgs = [g for g in gold if "rules" in g]
        print(f"{name}: {len(msgs)} messages, {len(gold) - len(msgs)} threads, "
              f"clarity {sum(g['clarity_flag'] for g in msgs)}, tone {sum(g['tone_flag'] for g in msgs)}, "
              f"decisions {sum(bool(g['decision']) for g in msgs)}, "
              f"with actions {sum(bool(g['actions']) for g in msgs)} "
              f"({sum(len(g['actions']) for g in msgs)} items)")
        for tag, n in sorted(tag_counts(name).items()):
            print(f"  {tag:<34}{n}")
