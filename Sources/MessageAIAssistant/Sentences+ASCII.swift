/// `Sentences.split` for ASCII text, on bytes: nearly every message is ASCII, and there each
/// Character is one byte except "\r\n", which the Character reading keeps together (it is
/// neither "\n" nor "\r", so it does not end a line). `SentenceASCIITests` checks this path
/// against `splitCharacters` on many generated texts.
extension Sentences {
    static func splitASCII(_ text: String) -> [String] {
        let b = Array(text.utf8)
        var out: [String] = []
        var lineStart = 0
        var i = 0
        while i <= b.count {
            if i < b.count, b[i] == 0x0D, i + 1 < b.count, b[i + 1] == 0x0A { i += 2; continue }
            if i == b.count || b[i] == 0x0A || b[i] == 0x0D {
                if i > lineStart { for item in listItems(b[lineStart..<i]) { out += splitLine(item) } }
                lineStart = i + 1
            }
            i += 1
        }
        return out.map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
    }

    private static func listItems(_ line: ArraySlice<UInt8>) -> [[UInt8]] {
        var items: [[ArraySlice<UInt8>]] = [[]]
        let words = line.split(separator: 0x20)
        for (k, w) in words.enumerated() {
            // "cap retries at 2.", "Redis wins 3 to 1. Redis for ...": a number with a full stop after a word that
            // needs one is the sentence's own, no item (a ")" marker after one still opens an item mid-line).
            if isListMarker(w), k == 0 || !ActionRules.dangling.contains(String(decoding: words[k - 1], as: UTF8.self).lowercased()) || k + 1 < words.count && w.last == 0x29 {
                if !items[items.count - 1].isEmpty { items.append([]) }
                continue
            }
            items[items.count - 1].append(w)
        }
        return items.filter { !$0.isEmpty }.map { Array($0.joined(separator: [0x20])) }
    }

    /// "-", "*", "1)", "1.", "(12)": the ASCII list markers ("•" and "–" are not ASCII).
    private static func isListMarker(_ w: ArraySlice<UInt8>) -> Bool {
        if w.count == 1, w.first == 0x2D || w.first == 0x2A { return true }
        var s = w
        if s.first == 0x28 { s = s.dropFirst() }
        guard let last = s.last, last == 0x29 || last == 0x2E else { return false }
        let body = s.dropLast()
        return !body.isEmpty && body.count <= 2 && body.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    private static func splitLine(_ chars: [UInt8]) -> [String] {
        func isEnd(_ c: UInt8) -> Bool { c == 0x2E || c == 0x21 || c == 0x3F }
        var out: [String] = []
        var current: [UInt8] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            current.append(c)
            let next: UInt8? = i + 1 < chars.count ? chars[i + 1] : nil
            if c == 0x3B || (isEnd(c) && (next == nil || next == 0x20)) {
                var j = i + 1
                while j < chars.count, isEnd(chars[j]) { current.append(chars[j]); j += 1 }
                if c == 0x2E, let word = current.split(separator: 0x20).last,
                   abbreviations.contains(String(decoding: word.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)) {
                    i = j
                    continue
                }
                out.append(String(decoding: current, as: UTF8.self))
                current = []
                i = j
                continue
            }
            i += 1
        }
        if !current.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { out.append(String(decoding: current, as: UTF8.self)) }
        return out
    }
}
