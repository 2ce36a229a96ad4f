"""Tests of the matching rules (ASSISTANT.md, "How answers are matched") on hand-made cases.

    python3 -m pytest -q Scripts/assistant/test_score.py
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matching as m  # noqa: E402
import score  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DM = {"id": "x1", "from": "omar", "to": ["maya"], "context": [
    {"from": "maya", "text": "The 2.3 hotfix branch is cut."}],
    "text": "Thanks. Could you tag it and post the notes by 5pm?"}
GROUP = {"id": "g1", "from": "maya", "to": ["omar", "li", "priya"], "context": [],
         "text": "Can someone restart the build runner today?"}
THREAD = {"id": "y1", "participants": ["maya", "omar"], "messages": [
    {"from": "maya", "text": "Decision: we ship the 2.4 release on Thursday after the load test."},
    {"from": "omar", "text": "I'll write the release notes by Wednesday and run the load test."},
    {"from": "maya", "text": "Great. Who submits the build to the App Store this time?"}]}


def action(what, who, due=None):
    return {"what": what, "who": who, "due": due}


def run(tmp_path, inputs, gold, pred):
    paths = []
    for name, rows in (("in", inputs), ("gold", gold), ("pred", pred)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
        paths.append(str(path))
    out = subprocess.run([sys.executable, os.path.join(HERE, "score.py"), "--inputs", paths[0],
                          "--gold", paths[1], "--pred", paths[2], "--json"],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


GOLD_DM = {"id": "x1", "actions": [action("tag the 2.3 hotfix branch", "recipient", "5pm"),
                                   action("post the release notes", "recipient", "5pm")],
           "clarity_flag": False, "tone_flag": True, "decision": "ship the 2.3 hotfix today"}
GOLD_THREAD = {"id": "y1", "key_points": ["The 2.4 release ships on Thursday after the load test.",
                                          "Omar writes the release notes by Wednesday."],
               "actions": [action("write the release notes", "omar", "Wednesday")],
               "decisions": ["ship the 2.4 release on Thursday"],
               "open_questions": ["Who submits the build to the App Store?"]}


def test_normalisation_lowercases_drops_possessive_and_function_words():
    assert m.tokens("Maya's PR-42, done!") == ["maya", "pr", "42", "done"]
    assert m.content_stems("Review the doc for the team's plan") == ["review", "doc", "team", "plan"]


def test_stems_match_across_inflections():
    assert len({m.stem(w) for w in ("review", "reviews", "reviewed", "reviewing")}) == 1
    assert m.stem("tagged") == m.stem("tag") == m.stem("tags")
    assert m.stem("updated") == m.stem("update") == m.stem("updating")
    assert m.stem("install") == m.stem("installed")
    for family in (("add", "added", "adding"), ("string", "strings"), ("reply", "replied"),
                   ("agree", "agreed"), ("fix", "fixes", "fixed")):
        assert len({m.stem(w) for w in family}) == 1, family
    assert m.stem("review") != m.stem("rerun")


def test_a_summary_sent_as_bullets_is_read(tmp_path):
    pred = {"id": "y1", "summary": GOLD_THREAD["key_points"]}
    r = run(tmp_path, [THREAD], [GOLD_THREAD], [pred])
    assert r["summaries"]["coverage"] == 1.0


def test_perfect_prediction_scores_one(tmp_path):
    pred = [dict(GOLD_DM), {"id": "y1", "summary": " ".join(GOLD_THREAD["key_points"]),
                            "actions": GOLD_THREAD["actions"],
                            "decisions": GOLD_THREAD["decisions"],
                            "open_questions": GOLD_THREAD["open_questions"]}]
    r = run(tmp_path, [DM, THREAD], [GOLD_DM, GOLD_THREAD], pred)
    assert r["messages"]["actions"]["f1"] == 1.0
    assert r["messages"]["actions"]["due_accuracy"] == 1.0
    assert r["messages"]["tone"]["recall"] == 1.0
    assert r["messages"]["decisions"]["f1"] == 1.0
    assert r["messages"]["decisions"]["text_match"] == 1.0
    assert r["summaries"]["coverage"] == 1.0
    for k in ("actions", "decisions", "open_questions"):
        assert r["summaries"][k]["f1"] == 1.0


def test_missing_line_is_an_empty_answer(tmp_path):
    r = run(tmp_path, [DM, THREAD], [GOLD_DM, GOLD_THREAD], [])
    assert r["missing_predictions"] == 2
    assert r["messages"]["actions"]["recall"] == 0.0
    assert r["messages"]["tone"]["recall"] == 0.0
    assert r["messages"]["decisions"]["recall"] == 0.0
    assert r["summaries"]["coverage"] == 0.0


def test_wrong_owner_fails():
    gold = action("tag the 2.3 hotfix branch", "recipient")
    assert m.action_matches(gold, action("tag the hotfix branch", "maya"), DM)
    assert not m.action_matches(gold, action("tag the hotfix branch", "sender"), DM)
    assert not m.action_matches(gold, action("tag the hotfix branch", "li"), DM)


def test_roles_resolve_to_names_in_a_direct_message():
    assert m.action_matches(action("post the notes", "maya"), action("post notes", "recipient"), DM)
    assert m.action_matches(action("post the notes", "omar"), action("post notes", "sender"), DM)


def test_group_recipient_matches_everyone_team_or_any_one_recipient():
    gold = action("restart the build runner", "recipient")
    for who in ("recipient", "everyone", "team", "li", "priya"):
        assert m.action_matches(gold, action("restart build runner", who), GROUP), who
    assert not m.action_matches(gold, action("restart build runner", "maya"), GROUP)
    assert not m.action_matches(gold, action("restart build runner", "sender"), GROUP)
    # a named member is not matched by "the group"
    assert not m.action_matches(action("restart the runner", "li"),
                                action("restart the runner", "recipient"), GROUP)


def test_verb_must_share_a_stem_and_object_a_content_word():
    gold = action("review the migration script", "recipient")
    assert m.action_matches(gold, action("reviewed migration", "recipient"), DM)
    assert not m.action_matches(gold, action("approve the migration script", "recipient"), DM)
    assert not m.action_matches(gold, action("review it", "recipient"), DM)
    assert m.action_matches(action("re-run the suite", "li"), action("rerun suites", "li"), None)


def test_items_pair_one_to_one():
    gold = [action("post the notes", "recipient")]
    pred = [action("post the notes", "recipient"), action("post notes", "recipient")]
    assert len(m.pair_one_to_one(gold, pred, lambda a, b: m.action_matches(a, b, DM))) == 1


def test_due_clock_times_compare_as_hours():
    assert m.due_matches("5pm", "17:00")
    assert m.due_matches("5 pm", "by 17:00")
    assert m.due_matches("tomorrow 09:00 UTC", "tomorrow 9am UTC")
    assert m.due_matches("Wednesday noon", "Wednesday 12:00")
    assert not m.due_matches("5pm", "5am")


def test_due_needs_every_gold_word_and_the_same_relative_words():
    assert m.due_matches("Friday EOD", "by Friday EOD")
    assert not m.due_matches("Friday EOD", "Friday")
    assert not m.due_matches("tomorrow", "today")
    assert not m.due_matches("Monday", "next Monday")
    assert m.due_matches("the 28th", "28th")
    assert m.due_matches(None, None)
    assert not m.due_matches(None, "soon")
    assert not m.due_matches("Friday", None)


def test_flags_recall_and_false_positive_rate(tmp_path):
    plain = dict(DM, id="x2", text="Thanks!")
    gold = [dict(GOLD_DM, clarity_flag=True), dict(GOLD_DM, id="x2", actions=[],
                                                   clarity_flag=False, tone_flag=False)]
    pred = [dict(GOLD_DM, clarity_flag=False), dict(gold[1], clarity_flag=True, tone_flag=True)]
    r = run(tmp_path, [DM, plain], gold, pred)
    assert r["messages"]["clarity"]["recall"] == 0.0
    assert r["messages"]["clarity"]["false_positive_rate"] == 1.0
    assert r["messages"]["tone"]["false_flags"] == 1


def test_decision_text_needs_half_the_gold_content_words():
    assert m.holds_fraction("we ship the hotfix today", "ship the 2.3 hotfix today", 0.5)
    assert not m.holds_fraction("ship it", "ship the 2.3 hotfix today", 0.5)


def test_summary_coverage_needs_sixty_percent_of_a_point(tmp_path):
    pred = {"id": "y1", "summary": "Release ships Thursday after load test. Notes pending."}
    r = run(tmp_path, [THREAD], [GOLD_THREAD], [pred])
    assert r["summaries"]["coverage"] == 0.5
    assert 0 < r["summaries"]["length_ratio_max"] < 0.30


def test_misses_name_the_id_and_what_went_wrong(tmp_path):
    pred = [dict(GOLD_DM, actions=[action("tag it", "recipient", "5pm"),
                                   action("post the release notes", "recipient", "17:00")],
                 tone_flag=False)]
    paths = []
    for name, rows in (("in", [DM]), ("gold", [GOLD_DM]), ("pred", pred)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
        paths.append(str(path))
    out = subprocess.run([sys.executable, os.path.join(HERE, "score.py"), "--inputs", paths[0],
                          "--gold", paths[1], "--pred", paths[2], "--json", "--misses"],
                         capture_output=True, text=True, check=True)
    misses = json.loads(out.stdout)["misses"]
    assert any(line.startswith("x1: action missed") and "hotfix" in line for line in misses)
    assert any(line.startswith("x1: action extra") and "tag it" in line for line in misses)
    assert "x1: tone missed" in misses
    assert not any(line.startswith("x1: due") for line in misses)  # 5pm = 17:00
