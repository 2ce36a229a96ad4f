"""miss_by_rule.py prints counts only: perfect answers miss nothing, empty answers miss every
flag, and no line of its output holds a sentence of the set.

    python3 -m pytest -q Scripts/assistant/test_miss_by_rule.py
"""
import contextlib
import io
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gold_to_pred  # noqa: E402
import miss_by_rule  # noqa: E402


def run(tmp_path, empty):
    with open(os.path.join(HERE, "data", "heldout.gold.jsonl"), encoding="utf-8") as f:
        gold = [json.loads(line) for line in f if line.strip()]
    with open(tmp_path / "heldout.pred.jsonl", "w", encoding="utf-8") as f:
        for row in gold:
            f.write(json.dumps(gold_to_pred.convert(row, empty)) + "\n")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        miss_by_rule.main(["--pred-dir", str(tmp_path), "heldout"])
    return out.getvalue()


def test_perfect_answers_miss_nothing(tmp_path):
    out = run(tmp_path, empty=False)
    assert re.search(r"tone\.\S+ +0 missed of [1-9]", out)
    assert not re.search(r"\b[1-9]\d* missed of", out)
    assert " false of " not in out


def test_empty_answers_miss_every_flag(tmp_path):
    out = run(tmp_path, empty=True)
    assert re.search(r"tone\.terse +(\d+) missed of \1\b", out)
    assert re.search(r"clarity\.pronoun +(\d+) missed of \1\b", out)


def test_output_holds_no_text_of_the_set(tmp_path):
    out = run(tmp_path, empty=True)
    with open(os.path.join(HERE, "data", "heldout.jsonl"), encoding="utf-8") as f:
        texts = [json.loads(line).get("text", "") for line in f if line.strip()]
    for text in texts:
        if len(text) > 12:
            assert text not in out
