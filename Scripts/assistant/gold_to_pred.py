#!/usr/bin/env python3
"""Turn a gold file into a prediction file, to check the scorer and the set itself.

    python3 Scripts/assistant/gold_to_pred.py GOLD.jsonl > PRED.jsonl          # perfect answers
    python3 Scripts/assistant/gold_to_pred.py --empty GOLD.jsonl > PRED.jsonl  # empty answers

The perfect summary of a thread is its key points joined; scoring it checks that the key
points of every thread fit in 30 % of the thread's words.
"""
import json
import sys


def convert(gold, empty):
    if "key_points" in gold:
        if empty:
            return {"id": gold["id"], "summary": "", "actions": [], "decisions": [],
                    "open_questions": []}
        return {"id": gold["id"], "summary": " ".join(gold["key_points"]),
                "actions": gold["actions"], "decisions": gold["decisions"],
                "open_questions": gold["open_questions"]}
    if empty:
        return {"id": gold["id"], "actions": [], "clarity_flag": False, "tone_flag": False,
                "decision": None}
    return {k: gold[k] for k in ("id", "actions", "clarity_flag", "tone_flag", "decision")}


def main(argv):
    empty = "--empty" in argv
    paths = [a for a in argv if a != "--empty"]
    if len(paths) != 1:
        sys.exit(__doc__)
    with open(paths[0], encoding="utf-8") as f:
        for line in f:
            if line.strip():
                print(json.dumps(convert(json.loads(line), empty), ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1:])
