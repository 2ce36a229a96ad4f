import Foundation

/// A word of a sentence: the text without surrounding punctuation, its lower-case form, and the
/// punctuation written right after it (a comma or colon ends a phrase; "?" marks a question).
struct Token: Equatable {
    var raw: String
    var lower: String
    var after: String
    var before: String

    /// Letters only in upper case, at least two of them ("SHIP", "TLS").
    var isAllCaps: Bool {
        // ASCII: the letters are A-Z and a-z, so the same test reads the bytes.
        if raw.isASCIIOnly {
            let upper = raw.utf8.filter { (0x41...0x5A).contains($0) }.count, lower = raw.utf8.filter { (0x61...0x7A).contains($0) }.count
            return upper + lower >= 2 && lower == 0 && upper > 0
        }
        let letters = raw.unicodeScalars.filter { CharacterSet.letters.contains($0) }
        return letters.count >= 2 && raw == raw.uppercased() && raw != raw.lowercased()
    }
    var isCapitalized: Bool { raw.first.map { $0.isUppercase } ?? false }
    var endsClause: Bool { after.contains { ",;:.!?)".contains($0) } }
    var isNumber: Bool {
        // `Character.isNumber` asks the first scalar only; an ASCII first byte is that scalar.
        if let b = lower.utf8.first, b < 0x80 { return b >= 0x30 && b <= 0x39 }
        return lower.first?.isNumber ?? false
    }
}

enum Tokenizer {
    static let leading = CharacterTable(["(", "\"", "'", "[", "“", "‘", "*", "_", "`"])
    static let trailing = CharacterTable([",", ".", ";", ":", "!", "?", ")", "\"", "'", "]", "”", "’", "*", "_", "`", "…"])

    /// Splits on white space; curly apostrophes become straight ones so "I’ll" reads as "I'll".
    static func tokens(_ text: String) -> [Token] { TextMemo.tokens(text, tokenize) }

    private static func tokenize(_ text: String) -> [Token] {
        let normal = text.replacingPresent("’", with: "'").replacingPresent("‘", with: "'")
        var out: [Token] = []
        // In ASCII text the white-space characters are the bytes tab to carriage return and space
        // (what `Character.isWhitespace` says of them, "\r\n" included): split on bytes.
        let chunks = normal.isASCIIOnly
            ? normal.utf8.split(whereSeparator: { $0 == 0x20 || (0x09...0x0D).contains($0) }).map { Substring($0) }
            : normal.split(whereSeparator: { $0.isWhitespace })
        for chunk in chunks {
            var s = Substring(chunk)
            var before = ""
            while let f = s.first, leading.contains(f) { before.append(f); s = s.dropFirst() }
            var after = ""
            while let l = s.last, trailing.contains(l) { after.insert(l, at: after.startIndex); s = s.dropLast() }
            if s.isEmpty {
                // Lone punctuation ("-", "—", "?") belongs to the previous word.
                if !out.isEmpty { out[out.count - 1].after += before + after + String(chunk) }
                continue
            }
            out.append(Token(raw: String(s), lower: String(s).lowercased(), after: after, before: before))
        }
        return out
    }
}

extension Words {
    /// `stem` for ASCII words, where a Character is a byte: the same cuts, counted in bytes.
    static func asciiStem(_ w: String) -> String {
        var n = w.utf8.count
        for suffix in ["ing", "ed", "es", "s"] where n > suffix.utf8.count + 2 && w.utf8.reversed().starts(with: suffix.utf8.reversed()) {
            n -= suffix.utf8.count
            break
        }
        if n > 3, w.utf8.dropFirst(n - 1).first == 0x65 { n -= 1 }
        return n == w.utf8.count ? w : String(decoding: w.utf8.prefix(n), as: UTF8.self)
    }
}

/// Words as ASSISTANT.md's matching sees them: runs of letters and digits, lower case, without
/// function words, lightly stemmed. Used to compare phrases (references, answered questions).
enum Words {
    static let function: Set<String> = [
        "a", "an", "the", "and", "or", "but", "if", "then", "so", "of", "to", "in", "on", "at", "by", "for",
        "with", "from", "as", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did",
        "have", "has", "had", "i", "you", "he", "she", "it", "we", "they", "me", "him", "her", "us", "them",
        "my", "your", "his", "its", "our", "their", "this", "that", "these", "those", "there", "here", "what",
        "which", "who", "whom", "when", "where", "why", "how", "not", "no", "yes", "can", "could", "will",
        "would", "should", "shall", "may", "might", "must", "just", "also", "too", "very", "all", "any",
        "some", "up", "out", "about", "into", "over", "than", "ll", "s", "t", "re", "ve", "d", "m", "please",
        "ok", "okay", "let", "lets", "get", "got", "now", "one", "still", "again", "yet", "more", "much",
    ]

    static func all(_ text: String) -> [String] { TextMemo.words(text, runs) }

    private static func runs(_ text: String) -> [String] {
        let lower = text.lowercased().replacingPresent("'s ", with: " ")
        return lower.isASCIIOnly ? asciiRuns(lower) : characterRuns(lower)
    }

    /// The reference reading of `all`, Character by Character; `asciiRuns` must agree with it.
    static func characterRuns(_ lower: String) -> [String] {
        var words: [String] = []
        var current = ""
        for ch in lower + " " {
            if ch.isLetter || ch.isNumber { current.append(ch) } else if !current.isEmpty { words.append(current); current = "" }
        }
        return words
    }

    /// `all` for lower-cased ASCII text: there a letter or digit is one byte, a-z or 0-9, so the
    /// runs are found on the bytes instead of asking each Character for its Unicode properties.
    static func asciiRuns(_ lower: String) -> [String] {
        var words: [String] = []
        var text = lower
        text.withUTF8 { b in
            var start = -1
            for i in 0...b.count {
                let inWord = i < b.count && ((b[i] >= 0x61 && b[i] <= 0x7A) || (b[i] >= 0x30 && b[i] <= 0x39))
                if inWord {
                    if start < 0 { start = i }
                } else if start >= 0 {
                    words.append(String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self))
                    start = -1
                }
            }
        }
        return words
    }

    static func content(_ text: String) -> [String] { TextMemo.content(text) { all($0).filter { !function.contains($0) }.map(stem) } }

    static func stem(_ w: String) -> String { w.isASCIIOnly ? asciiStem(w) : characterStem(w) }

    /// The reference reading of `stem`, Character by Character; `asciiStem` must agree with it.
    static func characterStem(_ w: String) -> String {
        var s = w
        for suffix in ["ing", "ed", "es", "s"] where s.count > suffix.count + 2 && s.hasSuffix(suffix) {
            s.removeLast(suffix.count)
            break
        }
        if s.count > 3, let l = s.last, l == "e" { s.removeLast() }
        return s
    }
}

extension String {
    /// Byte-wise substring test. Foundation's `contains` is Unicode-aware and several times slower;
    /// the phrase lists are matched against lower-cased text, where comparing UTF-8 bytes is exact.
    func hasBytes(_ needle: String) -> Bool {
        var hay = self
        var pin = needle
        return hay.withUTF8 { h in
            pin.withUTF8 { n in
                guard !n.isEmpty else { return true }
                guard n.count <= h.count, let hb = h.baseAddress, let nb = n.baseAddress else { return false }
                // memchr to each place the needle's first non-space byte could be, memcmp for the
                // whole needle there: the same byte-for-byte test as trying every position, several
                // times faster (glibc's memmem is not visible to Swift here). Not anchored on a
                // space: the phrases mostly start with one, and so does every other word of a text.
                let k = n.firstIndex(where: { $0 != 0x20 }) ?? 0
                let last = h.count - n.count
                var i = 0
                while i <= last, let p = memchr(hb + i + k, Int32(nb[k]), last - i + 1) {
                    let at = UnsafePointer<UInt8>(p.assumingMemoryBound(to: UInt8.self)) - hb - k
                    if memcmp(hb + at, nb, n.count) == 0 { return true }
                    i = at + 1
                }
                return false
            }
        }
    }
}
