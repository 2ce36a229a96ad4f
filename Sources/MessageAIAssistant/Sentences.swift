import Foundation

/// Splits a message into sentences: at ". ", "! ", "? ", new lines, ";" and numbered or bulleted
/// list items ("1) Li updates ...", "- Omar books ..."), but not inside "e.g.", "v2.3" or "5.30pm".
enum Sentences {
    static let abbreviations: Set<String> = ["e.g.", "i.e.", "etc.", "vs.", "approx.", "incl.", "mr.", "ms.", "dr.", "no."]

    static func split(_ text: String) -> [String] { TextMemo.sentences(text, splitText) }

    private static func splitText(_ text: String) -> [String] {
        text.isASCIIOnly ? splitASCII(text) : splitCharacters(text)
    }

    /// The reference reading, Character by Character; `splitASCII` must agree with it.
    static func splitCharacters(_ text: String) -> [String] {
        var out: [String] = []
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            for part in splitListItems(String(line)) { out += splitLine(part) }
        }
        return out.map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
    }

    /// "1) A. 2) B" and "(1) ..." each start an item; a leading "-", "*" or "•" is dropped.
    private static func splitListItems(_ line: String) -> [String] {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        var items: [[Substring]] = [[]]
        for (k, w) in words.enumerated() {
            // "cap retries at 2.", "Redis wins 3 to 1. Redis for ...": a number with a full stop after a word that
            // needs one is the sentence's own, no item (a ")" marker after one still opens an item mid-line).
            if isListMarker(w), k == 0 || !ActionRules.dangling.contains(words[k - 1].lowercased()) || k + 1 < words.count && w.last == ")" {
                if !items[items.count - 1].isEmpty { items.append([]) }
                continue
            }
            items[items.count - 1].append(w)
        }
        return items.filter { !$0.isEmpty }.map { $0.joined(separator: " ") }
    }

    private static func isListMarker(_ w: Substring) -> Bool {
        if ["-", "*", "•", "–"].contains(w) { return true }
        var s = w
        if s.first == "(" { s = s.dropFirst() }
        guard let last = s.last, last == ")" || last == "." else { return false }
        let body = s.dropLast()
        return !body.isEmpty && body.count <= 2 && body.allSatisfy(\.isNumber)
    }

    private static func splitLine(_ line: String) -> [String] {
        var out: [String] = []
        var current = ""
        let chars = Array(line)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            current.append(c)
            let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
            // (A spaced em dash joins two sentences in chat when what follows it turns to someone or seals:
            // "I'll write the draft — tomás can you send me the export?", "Sunday 06:00 UTC — settled.";
            // a reason after it stays in its sentence: "No-go for 7.0 today — the crash-free rate is 99.1%".)
            if c == "—", next == " ", i > 0, chars[i - 1] == " ", !out.isEmpty || Words.all(current).count >= 3, turns(String(chars[(i + 2)...].prefix(40))) {
                current.removeLast()
                out.append(current)
                current = ""
                i += 1
                continue
            }
            if c == ";" || ((c == "." || c == "!" || c == "?") && (next == nil || next == " ")) {
                // Runs of "?!" stay with their sentence.
                var j = i + 1
                while j < chars.count, ".!?".contains(chars[j]) { current.append(chars[j]); j += 1 }
                let lastWord = current.split(separator: " ").last.map { String($0).lowercased() } ?? ""
                if c == "." && abbreviations.contains(lastWord) { i = j; continue }
                out.append(current)
                current = ""
                i = j
                continue
            }
            i += 1
        }
        if !current.unicodeScalars.allSatisfy(\.isSpaceOrTab) { out.append(current) }
        return out
    }

    /// Whether the words after a dash turn to someone ("ingrid, can you", "tomás can you", "please",
    /// "I'll", "don't delete it") or seal what came before ("settled").
    static func turns(_ after: String) -> Bool {
        let w = after.lowercased().replacingPresent("’", with: "'").split(separator: " ").map(String.init)
        guard let first = w.first else { return false }
        if first.hasSuffix(","), first.count > 2 { return true }
        let bare = first.trimming(".,!")
        if ["please", "pls", "i'll", "we'll", "don't", "settled", "final", "decided", "agreed", "can", "could"].contains(bare) { return true }
        return w.count > 2 && ["can", "could", "would", "please", "pls"].contains(w[1]) && ["you", "u"].contains(w[2]) || w.count > 1 && ["please", "pls"].contains(w[1])
    }

    static func isQuestion(_ sentence: String) -> Bool {
        sentence.trimmingSpaces().hasSuffix("?") || sentence.contains("?")
    }
}
