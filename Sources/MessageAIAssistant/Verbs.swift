import Foundation

/// Base-form verbs of work people ask for in chat. An imperative sentence starts with one of
/// these; "Li updates the dashboard" is read as "update" through `base(_:)`.
enum Verbs {
    static let work: Set<String> = [
        "add", "address", "adjust", "announce", "answer", "approve", "archive", "ask", "assign", "attach", "audit",
        "backport", "benchmark", "block", "book", "bring", "build", "bump", "buy", "call", "cancel", "change",
        "chase", "check", "circulate", "clean", "clear", "close", "collect", "comment", "compile", "complete",
        "confirm", "configure", "contact", "coordinate", "copy", "cover", "create", "cut", "debug", "decide",
        "delete", "deploy", "design", "disable", "document", "double-check", "download", "draft", "drop", "edit",
        "email", "enable", "estimate", "export", "extend", "file", "fill", "finalize", "finalise", "find", "finish",
        "fix", "flag", "follow", "forward", "gather", "give", "grab", "handle", "hand", "help", "host", "import",
        "include", "install", "investigate", "invite", "keep", "kick", "label", "land", "lead", "link", "list",
        "loop", "look", "make", "mark", "measure", "merge", "message", "migrate", "monitor", "move", "note",
        "notify", "open", "order", "organize", "organise", "own", "pair", "patch", "pay", "pick", "ping", "plan",
        "polish", "post", "prepare", "present", "print", "prioritize", "prioritise", "profile", "promote",
        "proofread", "publish", "pull", "push", "put", "raise", "re-run", "rerun", "read", "rebase", "rebuild",
        "record", "redeploy", "reach", "refresh", "regenerate", "release", "remind", "remove", "rename", "renew",
        "reorder", "repair", "reply", "report", "request", "reserve", "reset", "resolve", "respond", "restart",
        "restore", "retest", "re-test", "retry", "revert", "review", "revise", "rewrite", "roll", "rotate", "run",
        "schedule", "scope", "send", "set", "settle", "share", "ship", "sign", "sketch", "skim", "sort", "split",
        "stage", "start", "stop", "submit", "summarize", "summarise", "swap", "sync", "tag", "take", "talk",
        "tell", "test", "tidy", "track", "translate", "triage", "trigger", "try", "turn", "update", "upgrade",
        "upload", "validate", "verify", "walk", "watch", "write", "bake", "wrap", "do", "get", "let", "loop",
        "prep", "demo", "present", "set", "shepherd", "spin", "tweak", "write", "pin", "unpin", "lock", "unblock",
        "rollback", "publish", "file", "sanity-check", "go", "come", "join", "attend", "rehearse",
        "reschedule", "escalate", "hire", "interview", "onboard", "refactor", "localize", "localise", "prototype", "draw",
        "research", "compare", "purge", "reboot", "provision", "return", "refund", "text", "phone", "scan", "shortlist",
        "choose", "select", "rsvp", "register", "enroll", "apply", "arrange", "facilitate", "moderate", "transcribe",
        "annotate", "categorize", "groom", "size", "spec", "outline", "propose", "pitch", "showcase", "train", "teach",
        "mentor", "coach", "shadow", "page", "alert", "inform", "brief", "debrief", "align", "circle", "nudge", "poke",
        "highlight", "mention", "log", "reopen", "hotfix", "mitigate", "diagnose", "reproduce", "repro", "trace", "observe",
        "inspect", "vet", "reject", "decline", "accept", "squash", "cherry-pick", "fetch", "downgrade", "port", "convert",
        "load", "backfill", "seed", "populate", "truncate", "recover", "terminate", "decommission", "retire", "deprecate",
        "sunset", "toggle", "flip", "uninstall", "scale", "resize", "tune", "optimize", "optimise", "cache", "shard",
        "replicate", "explain", "clarify", "greenlight", "purchase", "invoice", "expense", "reimburse", "budget", "forecast",
        "negotiate", "redraft", "redesign", "mock", "wireframe", "illustrate", "animate", "shoot", "film", "embed",
        "aggregate", "analyze", "analyse", "crunch", "calculate", "compute", "count", "tally", "survey", "recruit",
        "postpone", "drive", "lock", "re-review", "re-test", "retest", "re-deploy", "re-open", "re-check", "recheck",
        "double-check", "triple-check", "fill", "hold", "reply", "draft", "buy", "clean", "connect", "disconnect", "rename",
        "remove", "reach", "bring", "send", "move", "close", "open", "cover", "swap", "add", "pin", "star", "review", "grant",
        "revoke", "rotate", "feed", "water", "pack", "unpack", "ship", "deliver", "collect", "pick", "rebook", "cancel",
    ]

    /// Present-tense third person to base: "updates" → "update", "fixes" → "fix", "carries" → "carry".
    static func base(_ w: String) -> String? {
        if work.contains(w) { return w }
        if w.hasSuffix("ies"), work.contains(String(w.dropLast(3)) + "y") { return String(w.dropLast(3)) + "y" }
        if w.hasSuffix("es"), work.contains(String(w.dropLast(2))) { return String(w.dropLast(2)) }
        if w.hasSuffix("s"), work.contains(String(w.dropLast())) { return String(w.dropLast()) }
        return nil
    }

    /// "reviewing" → "review", "taking" → "take", "running" → "run".
    static func fromGerund(_ w: String) -> String? {
        guard w.hasSuffix("ing") else { return nil }
        let stem = String(w.dropLast(3))
        if work.contains(stem) { return stem }
        if work.contains(stem + "e") { return stem + "e" }
        if stem.count > 2, stem.last == stem.dropLast().last, work.contains(String(stem.dropLast())) { return String(stem.dropLast()) }
        return nil
    }

    /// Past forms that report work as done ("merged", "sent"), for dropping finished items.
    static func isPast(_ w: String, of verb: String) -> Bool {
        // A regular past ("tagged", "fixed", "copied") ends in the scalar "d", and so does any text
        // canonically equal to one; without it only the irregular table can answer.
        if w.utf8.last != 0x64 { return irregularPast[verb]?.contains(w) ?? false }
        if w == verb + "ed" || w == verb + "d" || (w.hasSuffix("ied") && verb.hasSuffix("y") && String(w.dropLast(3)) == String(verb.dropLast())) { return true }
        if w.count > 3, w.hasSuffix("ed"), String(w.dropLast(3)) == verb, w.dropLast(2).last == verb.last { return true }
        return irregularPast[verb]?.contains(w) ?? false
    }

    /// Every `w` for which `isPast(w, of: verb)` holds, as a set: a thread's done check asks it of
    /// every later word for every item, and one set lookup is cheaper than building the forms each time.
    static func pastForms(of verb: String) -> Set<String> {
        guard let last = verb.last else { return [] }
        var forms: Set<String> = [verb + "ed", verb + "d", verb + String(last) + "ed"]
        if verb.hasSuffix("y") { forms.insert(String(verb.dropLast()) + "ied") }
        return forms.union(irregularPast[verb] ?? [])
    }

    /// Any work verb in the past ("filed", "retouched", "sent"): a report of work done.
    static func isPastOfWork(_ w: String) -> Bool {
        if w.hasSuffix("ed"), Passive.base(w) != nil { return true }
        return allIrregularPast.contains(w) && !["read", "set", "put", "cut", "split"].contains(w)
    }

    /// Every form of `irregularPast` in one set: one lookup instead of one per verb.
    static let allIrregularPast: Set<String> = Set(irregularPast.values.joined())

    static let irregularPast: [String: Set<String>] = [
        "send": ["sent"], "write": ["wrote", "written"], "run": ["ran"], "rerun": ["reran"], "re-run": ["re-ran"],
        "cut": ["cut"], "set": ["set"], "put": ["put"], "take": ["took", "taken"], "make": ["made"], "do": ["did", "done"],
        "find": ["found"], "give": ["gave", "given"], "bring": ["brought"], "buy": ["bought"], "pay": ["paid"],
        "build": ["built"], "rebuild": ["rebuilt"], "rewrite": ["rewrote", "rewritten"], "get": ["got"],
        "read": ["read"], "tell": ["told"], "split": ["split"], "keep": ["kept"], "lead": ["led"], "shut": ["shut"],
    ]
}
