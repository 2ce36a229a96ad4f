import MessageAISearch

/// Full-text search rules shared by the server's index and the client's cache, so /find gives
/// the same answers online and offline: one way of cutting text into words (`SearchWords`,
/// stored through the `search_words()` SQL function every connection has), one tokenizer for
/// both indexes, and one way of turning what the user typed into an FTS5 MATCH expression.
public enum FullTextQuery {
    /// The FTS5 `tokenize` option of every message index: words by Unicode category, case and
    /// diacritics folded ("cafe" finds "café"). It sees `SearchWords.indexText`, whose tokens
    /// are already cut (runs of CJK or Thai as pairs), so it only folds them.
    public static let tokenizer = "unicode61 remove_diacritics 2"

    /// The user's words as an FTS5 query that can only ever be literal words. The query is cut
    /// as the indexed text was (`SearchWords.terms`): each word is quoted, a run without spaces
    /// is the phrase of its consecutive pairs ("テスト": "テス スト"), and the terms are ANDed. A
    /// token holds only letters, digits and marks, never `"`, so no quoting can be undone (a `"`
    /// followed by a combining mark once escaped the doubling). The last word also matches as a
    /// prefix ("hel" finds "hello"), as does a single CJK character, so results follow what is
    /// being typed. Nil when there is no word.
    public static func match(_ text: String) -> String? {
        let terms = SearchWords.terms(text)
        guard !terms.isEmpty else { return nil }
        return terms.enumerated().map { i, term in
            let quoted = "\"" + term.tokens.joined(separator: " ") + "\""
            let prefix = term.tokens.count == 1 && (term.isRun || i == terms.count - 1)
            return quoted + (prefix ? "*" : "")
        }.joined(separator: " ")
    }
}
