/// The words of a text for full-text search, cut the same way by the server's index, the
/// client's cache and any other index (the PostgreSQL store), so a search finds the same
/// messages everywhere. No I/O: the indexes call `indexText`, the queries `terms`.
///
/// Scripts written with spaces between words (Latin, Cyrillic, Arabic ...) give words as
/// SQLite's unicode61 tokenizer cuts them: letters, digits and private-use characters make a
/// word, combining marks stay with it, anything else separates. Scripts written without spaces
/// (Chinese, Japanese, Korean, Thai, Lao, Khmer, Myanmar) have no word boundary to find without
/// a dictionary, so a run of their characters gives overlapping pairs ("日本語のテスト": 日本 本語
/// 語の のテ テス スト) plus its last character alone: any substring of two or more characters is
/// then a phrase of consecutive pairs, and any one character starts some token (a prefix query).
public enum SearchWords {
    /// A piece of a query: a word (`isRun` false), or the pairs of a run without spaces.
    public struct Term: Equatable, Sendable {
        public var tokens: [String]
        public var isRun: Bool
    }

    /// What an index stores for `text`: its tokens separated by spaces (the index's own
    /// tokenizer then folds case and diacritics of each).
    public static func indexText(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + text.utf8.count / 2)
        for piece in pieces(text) {
            for token in piece.isRun ? runTokens(piece.text, forIndex: true) : [String(piece.text)] {
                if !out.isEmpty { out += " " }
                out += token
            }
        }
        return out
    }

    /// The terms of a query, in order: each word, and each run as its consecutive pairs (a
    /// single character alone).
    public static func terms(_ query: String) -> [Term] {
        pieces(query).map { p in p.isRun ? Term(tokens: runTokens(p.text, forIndex: false), isRun: true) : Term(tokens: [String(p.text)], isRun: false) }
    }

    /// Whether `c` belongs to a script written without spaces between words.
    public static func isUnspaced(_ c: Character) -> Bool {
        guard let s = c.unicodeScalars.first else { return false }
        return isUnspaced(s)
    }

    static func isUnspaced(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0E00...0x0EFF,          // Thai, Lao
             0x1000...0x109F,          // Myanmar
             0x1780...0x17FF,          // Khmer
             0x1100...0x11FF,          // Hangul Jamo
             0x3005, 0x3006, 0x3007,   // 々 〆 〇
             0x3040...0x30FF,          // Hiragana, Katakana (ー included)
             0x3100...0x312F, 0x3130...0x318F, 0x31A0...0x31BF, 0x31F0...0x31FF,
             0x3400...0x4DBF,          // CJK Extension A
             0x4E00...0x9FFF,          // CJK Unified Ideographs
             0xA960...0xA97F, 0xAC00...0xD7FF,  // Hangul
             0xF900...0xFAFF,          // CJK Compatibility Ideographs
             0xFF66...0xFF9F,          // half-width Katakana
             0x20000...0x3134F:        // CJK Extensions B-G
            return true
        default:
            return false
        }
    }

    // MARK: Cutting

    private struct Piece { var text: Substring; var isRun: Bool }

    /// The text cut into words and runs without spaces, separators dropped. The cut is made
    /// scalar by scalar, not by Character: a grapheme cluster can hold a separator (a prepended
    /// letter such as U+0D4E clusters with a following `"`, a ZWJ clusters with the letter before
    /// it), and a token must never hold one, or a quote could end up inside a MATCH string.
    private static func pieces(_ text: String) -> [Piece] {
        var result: [Piece] = []
        var start: String.Index? = nil
        var run = false
        var hasWordScalar = false
        func flush(_ end: String.Index) {
            if let s = start, hasWordScalar || run { result.append(Piece(text: text[s..<end], isRun: run)) }
            start = nil
            hasWordScalar = false
        }
        let scalars = text.unicodeScalars
        var i = scalars.startIndex
        while i < scalars.endIndex {
            let scalar = scalars[i]
            let kind: Kind = isUnspaced(scalar) ? .run : Kind(wordScalar: scalar)
            switch kind {
            case .run:
                if start != nil && !run { flush(i) }
                if start == nil { start = i; run = true }
            case .word:
                if start != nil && run { flush(i) }
                if start == nil { start = i; run = false }
                hasWordScalar = true
            case .mark:
                // A mark stays with the word or run it follows ("e" + U+0301, 東 + U+FE0F); with
                // nothing before it, it is no part of a word (the index folds marks away anyway).
                break
            case .separator:
                if start != nil { flush(i) }
            }
            i = scalars.index(after: i)
        }
        if start != nil { flush(text.endIndex) }
        return result
    }

    private enum Kind {
        case run, word, mark, separator

        /// unicode61's classes: letters, numbers and private use make words; marks join them.
        init(wordScalar s: Unicode.Scalar) {
            switch s.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber, .privateUse:
                self = .word
            case .nonspacingMark, .spacingMark, .enclosingMark:
                self = .mark
            default:
                self = .separator
            }
        }
    }

    /// A run's overlapping pairs of characters; for the index also its last character alone,
    /// so a one-character query finds the end of a run too.
    private static func runTokens(_ run: Substring, forIndex: Bool) -> [String] {
        let chars = Array(run)
        guard chars.count > 1 else { return chars.map { String($0) } }
        var tokens = (0..<chars.count - 1).map { String(chars[$0]) + String(chars[$0 + 1]) }
        if forIndex { tokens.append(String(chars[chars.count - 1])) }
        return tokens
    }
}
