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
/// "//text" sends "/text" as a message.
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
        var words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        var name = words.removeFirst().lowercased()
        if subcommands.contains(name), let sub = words.first {
            name += " " + sub.lowercased()
            words.removeFirst()
        }
        return .command(name: name, args: words)
    }
}
