/// What of a typed line goes into the persisted input history. Commands that carry a password
/// keep only their words before it, so the history file never holds a secret (the REPL asks
/// for the password when it is left out, so the shortened line still works when recalled).
enum HistoryFilter {
    /// For each command, how many words (the command included) come before the first secret.
    private static let wordsBeforeSecret: [String: Int] = [
        "/login": 2,     // /login USER PASSWORD
        "/register": 3,  // /register EMAIL USER PASSWORD [NAME...]
        "/passwd": 1,    // /passwd OLD NEW
    ]

    static func entry(for line: String) -> String? {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = words.first else { return nil }
        guard let keep = wordsBeforeSecret[first.lowercased()] else { return line }
        return words.prefix(keep).joined(separator: " ")
    }
}
