import Foundation
import MessageAISearch

/// Full-text search on PostgreSQL with the rules of the SQLite index (FullTextQuery in
/// MessageAISQLite): the same words (`SearchWords`: CJK and Thai runs as overlapping pairs),
/// case and accents folded, every word must match, the last word (and a single CJK character)
/// also as a prefix, and nothing the user types is ever an operator.
///
/// The words are cut and folded here, in Swift, once, and handed to PostgreSQL as lexemes
/// verbatim: the document as a `tsvector` literal (`'word':position ...`), the query as a
/// `tsquery` literal. PostgreSQL's own parser never sees them, because it would cut them
/// again in its own way (it keeps a CJK run as one word, splits at some marks, and depends on
/// the database's locale); what its `simple` configuration does (lowercase, no stemming, no
/// stop words) is done by `fold`. `unaccent` is not used: it is not immutable, so it could not
/// feed a stored column, and folding in Swift folds index and query alike by construction.
/// Positions are kept, so a run's pairs form a phrase (`<->`), as in FTS5.
enum SearchVector {
    /// PostgreSQL refuses a lexeme of 2 KiB or more ("word is too long"); a longer word is
    /// cut at a scalar boundary, in the document and the query alike.
    static let maximumLexemeBytes = 2000
    /// tsvector positions stop at 16383 (larger ones are stored as 16383).
    static let maximumPosition = 16383

    /// The `tsvector` literal of a message's text; empty text gives an empty vector.
    static func document(_ text: String) -> String {
        var out = ""
        var position = 0
        for token in SearchWords.indexText(text).split(separator: " ") {
            position = min(position + 1, maximumPosition)
            if !out.isEmpty { out += " " }
            out += quote(fold(String(token))) + ":\(position)"
        }
        return out
    }

    /// The `tsquery` literal of what the user typed, nil when it holds no word: each word a
    /// quoted lexeme, a run the phrase of its pairs, all ANDed; the last word, and any run of a
    /// single character, also matches as a prefix.
    static func query(_ text: String) -> String? {
        let terms = SearchWords.terms(text)
        guard !terms.isEmpty else { return nil }
        return terms.enumerated().map { i, term in
            let lexemes = term.tokens.map { quote(fold($0)) }
            let prefix = term.tokens.count == 1 && (term.isRun || i == terms.count - 1)
            if lexemes.count == 1 { return lexemes[0] + (prefix ? ":*" : "") }
            return "(" + lexemes.joined(separator: " <-> ") + ")"
        }.joined(separator: " & ")
    }

    /// Case and accents folded, as SQLite's `unicode61 remove_diacritics 2` does for words of
    /// spaced scripts ("Café" -> "cafe"). A token of a script without spaces is kept as it is:
    /// folding would merge kana that differ only by a voicing mark (が/か), which unicode61 keeps apart.
    static func fold(_ token: String) -> String {
        var folded = token
        if let first = token.first, !SearchWords.isUnspaced(first) {
            folded = token.lowercased().folding(options: .diacriticInsensitive, locale: nil)
        }
        guard folded.utf8.count > maximumLexemeBytes else { return folded }
        var cut = ""
        for scalar in folded.unicodeScalars {
            guard cut.utf8.count + String(scalar).utf8.count <= maximumLexemeBytes else { break }
            cut.unicodeScalars.append(scalar)
        }
        return cut
    }

    /// A lexeme in quotes, for both literal syntaxes: `'` doubled, `\` escaped. (A token holds
    /// only letters, digits and marks, so neither occurs; quoting anyway costs nothing.)
    private static func quote(_ lexeme: String) -> String {
        var out = "'"
        for c in lexeme {
            switch c {
            case "'": out += "''"
            case "\\": out += "\\\\"
            default: out.append(c)
            }
        }
        return out + "'"
    }
}
