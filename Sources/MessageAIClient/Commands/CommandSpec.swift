import Foundation

/// A row of the command table: everything the dispatcher checks before calling the handler.
public struct CommandSpec {
    public let name: String
    public let usage: String
    public let help: String
    /// Needs a logged-in account (checked once in the dispatcher).
    public let needsLogin: Bool
    /// Needs the server: the dispatcher waits briefly for a connection in progress.
    public let needsServer: Bool
    /// Reads the local cache: waits for a sync in progress first.
    public let needsSync: Bool
    public let minArgs: Int
    public let maxArgs: Int
    let run: (Invocation) -> Void

    init(_ name: String, _ usage: String, _ help: String, login: Bool = true, server: Bool = false, sync: Bool = false,
         args: ClosedRange<Int> = 0...0, run: @escaping (Invocation) -> Void) {
        self.name = name; self.usage = usage; self.help = help
        needsLogin = login; needsServer = server; needsSync = sync
        minArgs = args.lowerBound; maxArgs = args.upperBound
        self.run = run
    }
}

/// Splits a command line into words; a line is a command when it starts with "/".
/// "//text" sends "/text" as a message. A word in double quotes may hold spaces
/// (`/group create "Launch team" bob carol`); an apostrophe is just a letter.
public enum InputLine {
    public enum Parsed: Equatable {
        case empty
        case message(String)
        case command(name: String, args: [String])
    }

    public static func parse(_ line: String, subcommands: Set<String> = CommandTable.groupNames) -> Parsed {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return .empty }
        if trimmed.hasPrefix("//") { return .message(String(line.drop(while: { $0 == " " }).dropFirst())) }
        guard trimmed.hasPrefix("/") else { return .message(line) }
        var words = InputLine.words(trimmed)
        var name = words.removeFirst().lowercased()
        if subcommands.contains(name), let sub = words.first {
            name += " " + sub.lowercased()
            words.removeFirst()
        }
        return .command(name: name, args: words)
    }

    /// Words split at spaces and tabs; `"two words"` is one word (without its quotes). An
    /// unclosed quote runs to the end of the line.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inQuotes = false
        var quoted = false
        for ch in line {
            if ch == "\"" && (inQuotes || current.isEmpty) {
                inQuotes.toggle()
                quoted = true
            } else if !inQuotes && (ch == " " || ch == "\t") {
                if !current.isEmpty || quoted { words.append(current) }
                current = ""
                quoted = false
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty || quoted { words.append(current) }
        return words
    }
}
