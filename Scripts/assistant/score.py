#!/usr/bin/env python3
"""Score assistant predictions against a labelled set, by the rules of ASSISTANT.md.

    python3 Scripts/assistant/score.py --inputs IN.jsonl --gold GOLD.jsonl --pred PRED.jsonl [--json]

A missing prediction line counts as an empty answer (no actions, no flags, no decision,
empty summary). Prints one table per task with the target beside each figure.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matching as m  # noqa: E402


def read_jsonl(path):
    rows = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as error:
                sys.exit(f"{path}:{number}: not JSON ({error})")
            if "id" not in row:
                sys.exit(f"{path}:{number}: no id")
            rows[row["id"]] = row
    return rows


def ratio(a, b):
    return a / b if b else 0.0


def prf(tp, n_pred, n_gold):
    p, r = ratio(tp, n_pred), ratio(tp, n_gold)
    return {"precision": p, "recall": r, "f1": ratio(2 * p * r, p + r),
            "tp": tp, "predicted": n_pred, "gold": n_gold}


def items(row, key):
    value = (row or {}).get(key) or []
    return [x for x in value if isinstance(x, dict)] if key == "actions" else \
        [x for x in value if isinstance(x, str)]


def score_messages(inputs, gold, pred, misses):
    ids = [i for i in gold if "messages" not in inputs[i]]
    tp = n_pred = n_gold = due_ok = 0
    flags = {k: {"flagged": 0, "caught": 0, "others": 0, "false": 0}
             for k in ("clarity", "tone")}
    dec = {"tp": 0, "pred": 0, "gold": 0, "text_ok": 0}
    for i in ids:
        message, g, p = inputs[i], gold[i], pred.get(i, {})
        g_act, p_act = items(g, "actions"), items(p, "actions")
        pairs = m.pair_one_to_one(g_act, p_act, lambda a, b: m.action_matches(a, b, message))
        tp, n_pred, n_gold = tp + len(pairs), n_pred + len(p_act), n_gold + len(g_act)
        due_ok += sum(m.due_matches(g_act[a].get("due"), p_act[b].get("due")) for a, b in pairs)
        note_actions(misses, i, g_act, p_act, pairs)
        for k in flags:
            want, got = bool(g.get(k + "_flag")), bool(p.get(k + "_flag"))
            f = flags[k]
            f["flagged" if want else "others"] += 1
            f["caught" if want else "false"] += int(got)
            if want != got:
                misses.append(f"{i}: {k} {'missed' if want else 'false flag'}")
        gd, pd = g.get("decision"), p.get("decision")
        gd = gd if isinstance(gd, str) and gd.strip() else None
        pd = pd if isinstance(pd, str) and pd.strip() else None
        dec["gold"] += gd is not None
        dec["pred"] += pd is not None
        if gd and pd:
            dec["tp"] += 1
            dec["text_ok"] += m.holds_fraction(pd, gd, 0.5)
        if bool(gd) != bool(pd) or (gd and pd and not m.holds_fraction(pd, gd, 0.5)):
            misses.append(f"{i}: decision gold {gd!r}, predicted {pd!r}")
    out = {"messages": len(ids), "actions": prf(tp, n_pred, n_gold)}
    out["actions"]["due_accuracy"] = ratio(due_ok, tp)
    for k, f in flags.items():
        out[k] = {"recall": ratio(f["caught"], f["flagged"]),
                  "false_positive_rate": ratio(f["false"], f["others"]),
                  "precision": ratio(f["caught"], f["caught"] + f["false"]),
                  "flagged": f["flagged"], "caught": f["caught"],
                  "others": f["others"], "false_flags": f["false"]}
    out["decisions"] = prf(dec["tp"], dec["pred"], dec["gold"])
    out["decisions"]["text_match"] = ratio(dec["text_ok"], dec["tp"])
    strict = dec["text_ok"]
    out["decisions"]["f1_with_text"] = prf(strict, dec["pred"], dec["gold"])["f1"]
    return out


def note_actions(misses, i, g_act, p_act, pairs):
    matched_g, matched_p = {a for a, _ in pairs}, {b for _, b in pairs}
    for a, item in enumerate(g_act):
        if a not in matched_g:
            misses.append(f"{i}: action missed {item}")
    for b, item in enumerate(p_act):
        if b not in matched_p:
            misses.append(f"{i}: action extra {item}")
    for a, b in pairs:
        if not m.due_matches(g_act[a].get("due"), p_act[b].get("due")):
            misses.append(f"{i}: due gold {g_act[a].get('due')!r}, predicted {p_act[b].get('due')!r}")


def match_texts(gold_list, pred_list):
    pairs = m.pair_one_to_one(gold_list, pred_list, lambda g, p: m.holds_fraction(p, g, 0.5))
    return len(pairs)


def score_threads(inputs, gold, pred, misses):
    ids = [i for i in gold if "messages" in inputs[i]]
    points = covered = 0
    ratios = []
    sums = {k: [0, 0, 0] for k in ("actions", "decisions", "open_questions")}
    for i in ids:
        thread, g, p = inputs[i], gold[i], pred.get(i, {})
        summary = p.get("summary")
        if isinstance(summary, list):  # bullets sent as a list of strings
            summary = "\n".join(x for x in summary if isinstance(x, str))
        summary = summary if isinstance(summary, str) else ""
        summary_stems = set(m.content_stems(summary))
        for point in g.get("key_points", []):
            want = set(m.content_stems(point))
            points += 1
            hit = bool(want) and len(want & summary_stems) >= 0.6 * len(want)
            covered += hit
            if not hit:
                misses.append(f"{i}: key point not covered: {point}")
        thread_words = sum(m.word_count(x.get("text", "")) for x in thread["messages"])
        ratios.append(ratio(m.word_count(summary), thread_words))
        g_act, p_act = items(g, "actions"), items(p, "actions")
        pairs = m.pair_one_to_one(g_act, p_act, lambda a, b: m.action_matches(a, b, None))
        n = len(pairs)
        note_actions(misses, i, g_act, p_act, pairs)
        sums["actions"] = [x + y for x, y in zip(sums["actions"], (n, len(p_act), len(g_act)))]
        for k in ("decisions", "open_questions"):
            gl, pl = items(g, k), items(p, k)
            sums[k] = [x + y for x, y in zip(sums[k], (match_texts(gl, pl), len(pl), len(gl)))]
    out = {"threads": len(ids), "key_points": points,
           "coverage": ratio(covered, points),
           "length_ratio_mean": ratio(sum(ratios), len(ratios)),
           "length_ratio_max": max(ratios, default=0.0)}
    for k, (tp, n_pred, n_gold) in sums.items():
        out[k] = prf(tp, n_pred, n_gold)
    return out


TARGETS = {
    "actions.f1": (">=", 0.85), "clarity.recall": (">=", 0.8),
    "clarity.false_positive_rate": ("<", 0.05), "tone.recall": (">=", 0.8),
    "tone.false_flags": ("<=", 0), "decisions.f1": (">=", 0.85),
    "summaries.coverage": (">=", 0.9), "summaries.length_ratio_max": ("<", 0.30),
}


def meets(value, op, target):
    return {">=": value >= target, "<": value < target, "<=": value <= target}[op]


def print_table(title, rows):
    print(f"\n{title}")
    print(f"  {'figure':<28}{'value':>10}  {'target':<10}{'met'}")
    for name, value, key in rows:
        shown = f"{value:.3f}" if isinstance(value, float) else str(value)
        op, target = TARGETS.get(key, ("", None))
        goal = f"{op} {target}" if target is not None else ""
        met = ("yes" if meets(value, op, target) else "NO") if target is not None else ""
        print(f"  {name:<28}{shown:>10}  {goal:<10}{met}")


def print_report(result):
    msg, th = result["messages"], result["summaries"]
    a = msg["actions"]
    print_table(f"Action items ({msg['messages']} messages)", [
        ("precision", a["precision"], ""), ("recall", a["recall"], ""),
        ("F1", a["f1"], "actions.f1"), ("gold / predicted / matched",
                                        f"{a['gold']}/{a['predicted']}/{a['tp']}", ""),
        ("due accuracy (matched)", a["due_accuracy"], "")])
    for k in ("clarity", "tone"):
        f = msg[k]
        print_table(f"{k.capitalize()} ({f['flagged']} flagged, {f['others']} not)", [
            ("recall", f["recall"], f"{k}.recall"),
            ("false-positive rate", f["false_positive_rate"], f"{k}.false_positive_rate"),
            ("false flags", f["false_flags"], f"{k}.false_flags"),
            ("precision", f["precision"], "")])
    d = msg["decisions"]
    print_table(f"Decisions ({d['gold']} in gold)", [
        ("precision", d["precision"], ""), ("recall", d["recall"], ""),
        ("F1 (yes/no)", d["f1"], "decisions.f1"),
        ("text match (of found)", d["text_match"], ""), ("F1 with text", d["f1_with_text"], "")])
    rows = [("coverage of key points", th["coverage"], "summaries.coverage"),
            ("length ratio, mean", th["length_ratio_mean"], ""),
            ("length ratio, max", th["length_ratio_max"], "summaries.length_ratio_max")]
    for k in ("actions", "decisions", "open_questions"):
        rows += [(f"{k} P", th[k]["precision"], ""), (f"{k} R", th[k]["recall"], "")]
    print_table(f"Summaries ({th['threads']} threads, {th['key_points']} key points)", rows)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--gold", required=True)
    parser.add_argument("--pred", required=True)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--misses", action="store_true",
                        help="also list every miss by id (actions, flags, decisions, key points)")
    args = parser.parse_args(argv)
    inputs, gold, pred = read_jsonl(args.inputs), read_jsonl(args.gold), read_jsonl(args.pred)
    missing = sorted(set(inputs) - set(gold))
    extra = sorted(set(gold) - set(inputs))
    if missing or extra:
        sys.exit(f"gold and inputs disagree: no gold for {missing[:5]}, no input for {extra[:5]}")
    misses = []
    result = {"messages": score_messages(inputs, gold, pred, misses),
              "summaries": score_threads(inputs, gold, pred, misses),
              "missing_predictions": len(set(inputs) - set(pred))}
    if args.misses:
        result["misses"] = misses
    if args.json:
        print(json.dumps(result, indent=2, sort_keys=True))
    else:
        print(f"{len(inputs)} inputs, {result['missing_predictions']} without a prediction")
        print_report(result)
        if args.misses:
            print("\nMisses")
            for line in misses:
                print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
