/// Full-text search rules shared by the server's index and the client's cache, so /find gives
/// the same answers online and offline: one tokenizer for both indexes, and one way of turning
/// what the user typed into an FTS5 MATCH expression.
public enum FullTextQuery {
    /// The FTS5 `tokenize` option of every message index: words by Unicode category, case and
    /// diacritics folded ("cafe" finds "café").
    public static let tokenizer = "unicode61 remove_diacritics 2"

    /// The user's words as an FTS5 query that can only ever be literal words. The query is cut
    /// into tokens as the index's unicode61 tokenizer cuts text (letters, digits and private-use
    /// characters make words, combining marks stay with their word; everything else, quotes and
    /// operators included, separates), each token is quoted, and the tokens are ANDed. A token
    /// holds no `"`, so no quoting can be undone (a `"` followed by a combining mark once escaped
    /// the doubling, which works on Characters). The last token also matches as a prefix ("hel"
    /// finds "hello"), so results follow what is being typed. Nil when there is no word.
    public static func match(_ text: String) -> String? {
        var tokens: [String] = []
        var current = String.UnicodeScalarView()
        var hasWordScalar = false
        func flush() {
            if hasWordScalar { tokens.append(String(current)) }
            current = String.UnicodeScalarView()
            hasWordScalar = false
        }
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber, .privateUse:
                current.append(scalar)
                hasWordScalar = true
            case .nonspacingMark, .spacingMark, .enclosingMark:
                current.append(scalar)
            default:
                flush()
            }
        }
        flush()
        guard !tokens.isEmpty else { return nil }
        return tokens.map { "\"" + $0 + "\"" }.joined(separator: " ") + "*"
    }
}
