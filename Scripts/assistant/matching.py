"""The matching rules of /work/shared/ASSISTANT.md ("How answers are matched").

Pure functions, no I/O, so that test_score.py can check each rule on hand-made cases and
score.py only reads files and prints tables.
"""
import re

# Common function words: they never count as content. Relative time words ("today", "next")
# are not here because due dates compare them explicitly.
STOP_WORDS = frozenset("""
a an the and or but nor so yet of to in on at by for from with without into onto over under
about above below after before between through during up down out off again then than too very
is are was were be been being am do does did doing done have has had having
i me my mine we us our ours you your yours he him his she her hers it its they them their theirs
this that these those there here what which who whom whose when where why how
will would shall should can could may might must
not no yes all any some each every both either neither other such only own same just also
as if because while until unless please let s t d ll m re ve
""".split())

# Words a due date must agree on in both directions ("tomorrow" never matches "today").
RELATIVE_WORDS = frozenset(
    "today tonight tomorrow yesterday next this last coming following".split())

# The roles and group words a prediction may use for "the group" in a group conversation.
GROUP_WORDS = frozenset({"recipient", "everyone", "team", "all", "group", "everybody"})

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_POSSESSIVE = re.compile(r"(?<=[^\W_])['\u2019]s\b", re.UNICODE)
_CLOCK_AMPM = re.compile(r"\b(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm)\b")
_CLOCK_24 = re.compile(r"\b(\d{1,2}):(\d{2})\b")


def stem(word):
    """A light stemmer: review, reviews, reviewed, reviewing -> 'review'.

    Plural s first, then -ing/-ed when a vowel is left (string stays string), then a final e
    and a doubled consonant, so tag/tagged and add/added meet too.
    """
    w = word
    if len(w) > 4 and w.endswith(("ies", "ied")):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if len(w) > 4 and w.endswith("eed"):
        w = w[:-1]  # agreed -> agree, speed -> spee
    else:
        for suffix in ("ing", "ed"):
            rest = w[: -len(suffix)]
            if w.endswith(suffix) and len(rest) > 2 and any(c in "aeiouy" for c in rest):
                w = rest
                break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 2 and w[-1] == w[-2] and w[-1] not in "aeiouylsz" and w[-1].isalpha():
        w = w[:-1]
    return w


def tokens(text):
    """Lower-cased tokens (runs of letters and digits), possessive 's dropped."""
    if not text:
        return []
    text = _POSSESSIVE.sub("", text.lower())
    return _TOKEN.findall(text)


def content_stems(text):
    """The stems of the content words of a text, in order, function words left out."""
    return [stem(t) for t in tokens(text) if t not in STOP_WORDS]


def word_count(text):
    return len(tokens(text))


def holds_fraction(pred_text, gold_text, fraction):
    """True when pred_text holds at least `fraction` of gold_text's distinct content words."""
    gold = set(content_stems(gold_text))
    if not gold:
        return bool(pred_text)  # nothing to compare: any text answers it
    have = set(content_stems(pred_text))
    return len(gold & have) >= fraction * len(gold)


# ---------------------------------------------------------------- action items

def main_verb(what):
    """The first content word of `what`, hyphens joined: "re-run the job" -> "rerun"."""
    for raw in (what or "").lower().split():
        word = re.sub(r"[^\w]|_", "", raw)
        if word and word not in STOP_WORDS:
            return stem(word)
    return ""


def object_stems(what):
    """Content words of `what` after its verb."""
    words = [re.sub(r"[^\w]|_", "", w) for w in (what or "").lower().split()]
    words = [w for w in words if w and w not in STOP_WORDS]
    return set(content_stems(" ".join(words[1:])))


def resolve_who(who, message):
    """A `who` as a set of names. message None means a thread: names only, no roles.

    In a group, "recipient" (or everyone/team) resolves to the marker "*group*".
    """
    w = (who or "").strip().lower().lstrip("@")
    if message is None:
        return {w}
    to = [t.lower() for t in message.get("to", [])]
    if w == "sender":
        return {message.get("from", "").lower()}
    if len(to) == 1 and w in GROUP_WORDS:
        return {to[0]}
    if len(to) > 1 and w in GROUP_WORDS:
        return {"*group*"}
    return {w}


def who_matches(gold_who, pred_who, message):
    gold = resolve_who(gold_who, message)
    pred = resolve_who(pred_who, message)
    if "*group*" in gold:
        to = {t.lower() for t in message.get("to", [])}
        return "*group*" in pred or bool(pred & to)
    return bool(gold & pred)


def action_matches(gold, pred, message):
    if not who_matches(gold.get("who"), pred.get("who"), message):
        return False
    if main_verb(gold.get("what")) != main_verb(pred.get("what")):
        return False
    want = object_stems(gold.get("what"))
    return not want or bool(want & set(content_stems(pred.get("what"))))


def pair_one_to_one(gold_items, pred_items, matches):
    """Maximum bipartite matching: list of (gold index, pred index)."""
    owner = {}  # pred index -> gold index

    def place(g, seen):
        for p in range(len(pred_items)):
            if p in seen or not matches(gold_items[g], pred_items[p]):
                continue
            seen.add(p)
            if p not in owner or place(owner[p], seen):
                owner[p] = g
                return True
        return False

    for g in range(len(gold_items)):
        place(g, set())
    return sorted((g, p) for p, g in owner.items())


# ---------------------------------------------------------------- due dates

def _clock(match_hour, match_min, ampm):
    hour = int(match_hour) % 12 if ampm else int(match_hour)
    if ampm == "pm":
        hour += 12
    minute = int(match_min or 0)
    return f" h{hour}" + (f"m{minute}" if minute else "") + " "


def due_words(due):
    """Due date as comparable words: clock times become h17 / h9m30."""
    text = (due or "").lower()
    text = re.sub(r"\bnoon\b", "12pm", text)
    text = re.sub(r"\bmidnight\b", "0:00", text)
    text = _CLOCK_AMPM.sub(lambda m: _clock(m.group(1), m.group(2), m.group(3)), text)
    text = _CLOCK_24.sub(lambda m: _clock(m.group(1), m.group(2), None), text)
    return [t for t in tokens(text) if t not in STOP_WORDS or t in RELATIVE_WORDS]


def due_matches(gold_due, pred_due):
    gold, pred = due_words(gold_due), due_words(pred_due)
    if not gold:
        return not pred
    if not set(gold) <= set(pred):
        return False
    return {w for w in gold if w in RELATIVE_WORDS} == {w for w in pred if w in RELATIVE_WORDS}
