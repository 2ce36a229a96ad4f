#!/usr/bin/env python3
"""Which rules of ASSISTANT.md the engine misses, as counts only: no sentence, no gold text.

    python3 Scripts/assistant/miss_by_rule.py [--pred-dir DIR] [SET...]

For each set (dev, heldout, fresh and blind by default) it prints, grouped by the gold lines' `rules`
tags, how many flagged messages were missed and how many unflagged ones were flagged (tone,
clarity), how many decisions were missed or invented, how many gold action items were missed
and how many predicted ones were extra; and per thread the number of key points, how many the
summary missed (by the kind of point: a decision, open work, an open question, or other), and
the summary's length ratio. This is how the held-out sets are read without tuning on their
sentences: the figures name rule families, never messages.

Predictions are read from DIR/SET.pred.jsonl when --pred-dir is given, else made by running
the built `messageai-assist eval` (build it first: swift build --product messageai-assist).
"""
import argparse
import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import matching as m  # noqa: E402
from score import read_jsonl, items  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))


def predictions(set_name, pred_dir):
    if pred_dir:
        return read_jsonl(os.path.join(pred_dir, f"{set_name}.pred.jsonl"))
    bin_dir = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
    out = subprocess.run([os.path.join(bin_dir, "messageai-assist"), "eval",
                          os.path.join(HERE, "data", f"{set_name}.jsonl"), "--engine", "local"],
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return {row["id"]: row for row in map(json.loads, filter(str.strip, out.splitlines()))}


def flag_counts(ids, gold, pred, key):
    """tag -> [missed, flagged, false, unflagged] for one flag."""
    by_tag = collections.defaultdict(lambda: [0, 0, 0, 0])
    for i in ids:
        want, got = bool(gold[i].get(key)), bool(pred.get(i, {}).get(key))
        for tag in gold[i].get("rules", []) or ["(untagged)"]:
            c = by_tag[tag]
            if want:
                c[0] += not got
                c[1] += 1
            else:
                c[2] += got
                c[3] += 1
    return by_tag


def print_flags(title, by_tag, prefix):
    print(f"  {title}")
    for tag in sorted(by_tag):
        missed, flagged, false, others = by_tag[tag]
        if flagged and (tag.startswith(prefix) or missed):
            print(f"    {tag:<34} {missed} missed of {flagged}")
    for tag in sorted(by_tag):
        missed, flagged, false, others = by_tag[tag]
        if false:
            print(f"    {tag:<34} {false} false of {others} unflagged")


def decision_counts(ids, gold, pred):
    by_tag = collections.defaultdict(lambda: [0, 0, 0, 0, 0])  # missed, gold, text bad, false, none
    for i in ids:
        gd = gold[i].get("decision") or None
        pd = pred.get(i, {}).get("decision") or None
        for tag in gold[i].get("rules", []) or ["(untagged)"]:
            c = by_tag[tag]
            if gd:
                c[0] += pd is None
                c[1] += 1
                c[2] += bool(pd) and not m.holds_fraction(pd, gd, 0.5)
            else:
                c[3] += pd is not None
                c[4] += 1
    print("  decisions")
    for tag in sorted(by_tag):
        missed, n, text_bad, false, none = by_tag[tag]
        if (tag.startswith("decision.") or tag == "(untagged)") and n:
            print(f"    {tag:<34} {missed} missed of {n}, {text_bad} with too little of the text")
        if false:
            print(f"    {tag:<34} {false} false of {none} without a decision")


def action_counts(ids, inputs, gold, pred):
    by_tag = collections.defaultdict(lambda: [0, 0, 0, 0, 0])  # missed, gold, extra, pred, due bad
    for i in ids:
        g_act, p_act = items(gold[i], "actions"), items(pred.get(i, {}), "actions")
        pairs = m.pair_one_to_one(g_act, p_act, lambda a, b: m.action_matches(a, b, inputs[i]))
        due_bad = sum(not m.due_matches(g_act[a].get("due"), p_act[b].get("due")) for a, b in pairs)
        for tag in gold[i].get("rules", []) or ["(untagged)"]:
            c = by_tag[tag]
            c[0] += len(g_act) - len(pairs)
            c[1] += len(g_act)
            c[2] += len(p_act) - len(pairs)
            c[3] += len(p_act)
            c[4] += due_bad
    print("  actions (items)")
    for tag in sorted(by_tag):
        missed, n, extra, n_pred, due_bad = by_tag[tag]
        if (tag.startswith(("action.", "due.", "(untagged)")) and n) or extra:
            print(f"    {tag:<34} {missed} missed of {n}, {extra} extra of {n_pred} predicted, "
                  f"{due_bad} due wrong")


def point_kind(point, g):
    """What a key point is about, from the thread's own gold lists: the first list that holds it."""
    for kind, texts in (("decision", items(g, "decisions")),
                        ("open work", [a.get("what", "") for a in items(g, "actions")]),
                        ("open question", items(g, "open_questions"))):
        if any(m.holds_fraction(point, t, 0.6) or m.holds_fraction(t, point, 0.6) for t in texts):
            return kind
    return "other"


def thread_counts(ids, inputs, gold, pred):
    print("  summaries: thread  points  missed (by kind)  length ratio  "
          "[per missed point: share of its words in the summary / in the best message]")
    for n, i in enumerate(ids, 1):
        thread, g, p = inputs[i], gold[i], pred.get(i, {})
        summary = p.get("summary")
        if isinstance(summary, list):
            summary = "\n".join(x for x in summary if isinstance(x, str))
        summary = summary if isinstance(summary, str) else ""
        have = set(m.content_stems(summary))
        messages = [set(m.content_stems(x.get("text", ""))) for x in thread["messages"]]
        missed, shares = collections.Counter(), []
        points = g.get("key_points", [])
        for point in points:
            want = set(m.content_stems(point))
            if want and len(want & have) >= 0.6 * len(want):
                continue
            missed[point_kind(point, g)] += 1
            best = max((len(want & x) for x in messages), default=0)
            shares.append(f"{len(want & have) / len(want):.2f}/{best / len(want):.2f}" if want else "-")
        words = sum(m.word_count(x.get("text", "")) for x in thread["messages"])
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(missed.items())) or "-"
        ratio = m.word_count(summary) / words if words else 0.0
        print(f"    thread {n} ({len(thread['messages'])} msgs, {words} words)  {len(points)}  "
              f"{sum(missed.values())} ({kinds})  {ratio:.3f}  [{' '.join(shares)}]")


def report(set_name, pred_dir):
    inputs = read_jsonl(os.path.join(HERE, "data", f"{set_name}.jsonl"))
    gold = read_jsonl(os.path.join(HERE, "data", f"{set_name}.gold.jsonl"))
    pred = predictions(set_name, pred_dir)
    msg_ids = [i for i in gold if "messages" not in inputs[i]]
    thread_ids = [i for i in gold if "messages" in inputs[i]]
    print(f"=== {set_name}: {len(msg_ids)} messages, {len(thread_ids)} threads")
    print_flags("tone", flag_counts(msg_ids, gold, pred, "tone_flag"), "tone.")
    print_flags("clarity", flag_counts(msg_ids, gold, pred, "clarity_flag"), "clarity.")
    decision_counts(msg_ids, gold, pred)
    action_counts(msg_ids, inputs, gold, pred)
    thread_counts(thread_ids, inputs, gold, pred)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pred-dir", help="read SET.pred.jsonl from here instead of running the engine")
    parser.add_argument("sets", nargs="*", default=["dev", "heldout", "fresh", "blind", "blind2"])
    args = parser.parse_args(argv)
    for set_name in args.sets:
        # The blind set comes from another author and may not be there yet.
        if not os.path.exists(os.path.join(HERE, "data", f"{set_name}.gold.jsonl")):
            print(f"=== {set_name}: no data/{set_name}.jsonl with its gold file, skipped")
            continue
        report(set_name, args.pred_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
