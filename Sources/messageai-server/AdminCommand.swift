import ArgumentParser
import Foundation
import MessageAIServer

/// `messageai-server admin ...`: commands for the running server, over its admin socket in the
/// data directory (only the server's own user may use it). The server parses the words, so the
/// list below and the server's answer to a wrong command come from one table.
struct AdminCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Administer the running server: users, sessions, who is online, stats.",
        discussion: ServerProcess.adminUsage + """


            Run it as the server's own user, on the server's machine (the socket is DATA_DIR/admin.sock, mode 0600). \
            Exit status: 0 done, 64 bad command, 67 no such user or session, 69 no server running, 77 not permitted.
            """)

    @Option(help: "The running server's data directory (default: as the server's).") var dataDir: String?
    @Argument(parsing: .remaining, help: "The command, e.g. users list.") var words: [String] = []

    func run() throws {
        var words = words
        var dataDir = dataDir
        // `--data-dir` is accepted after the command too: `admin users list --data-dir D`.
        if let i = words.firstIndex(of: "--data-dir"), i + 1 < words.count {
            dataDir = words[i + 1]
            words.removeSubrange(i...(i + 1))
        }
        throw ExitCode(AdminClient.run(dataDirectory: dataDir ?? ServerProcess.defaultDataDirectory, words: words))
    }
}

/// `messageai-server backup DEST`: asks the running server, over the admin socket, for a
/// consistent copy of its database, files and TLS files in DEST (a new directory).
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the running server's database, files and TLS files into DEST while it serves.",
        discussion: """
            DEST must not exist yet (or be empty), and the server's user must be able to create it. Files are written \
            mode 0600 and directories 0700. File reclaim pauses until the copy is done. Restore with \
            'messageai-server restore DEST --data-dir DIR' while no server uses DIR.
            """)
    @Option(help: "The running server's data directory (default: as the server's).") var dataDir: String?
    @Argument(help: "The new backup directory.") var destination: String

    func run() throws {
        let absolute = URL(fileURLWithPath: destination).standardizedFileURL.path
        throw ExitCode(AdminClient.run(dataDirectory: dataDir ?? ServerProcess.defaultDataDirectory, words: ["backup", absolute]))
    }
}

/// `messageai-server restore SRC --data-dir DIR`: puts a backup into a data directory no server uses.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup made by 'messageai-server backup' into a data directory no server is using.")
    @Option(help: "The data directory to restore into (default: as the server's).") var dataDir: String?
    @Flag(help: "Replace the data already in --data-dir (never while a server uses it).") var overwrite = false
    @Argument(help: "The backup directory.") var source: String

    func run() throws {
        throw ExitCode(ServerProcess.restore(from: source, dataDirectory: dataDir ?? ServerProcess.defaultDataDirectory, overwrite: overwrite))
    }
}

/// Runs `admin`, `backup` and `restore` when they are the first word, parsing their few options
/// by hand: ArgumentParser hands an option after a subcommand's name to the parent command when
/// both declare it, and the server's own `--data-dir` would take the admin's. The subcommands
/// stay declared for `--help`. Returns nil for any other command line.
func runToolCommand(_ arguments: [String]) -> Int32? {
    guard let name = arguments.first, ["admin", "backup", "restore"].contains(name) else { return nil }
    var rest = Array(arguments.dropFirst())
    var dataDir: String?
    var overwrite = false
    var i = 0
    while i < rest.count {
        let word = rest[i]
        if word == "--data-dir", i + 1 < rest.count {
            dataDir = rest[i + 1]; rest.removeSubrange(i...(i + 1)); continue
        } else if word.hasPrefix("--data-dir=") {
            dataDir = String(word.dropFirst("--data-dir=".count)); rest.remove(at: i); continue
        } else if word == "--overwrite" && name == "restore" {
            overwrite = true; rest.remove(at: i); continue
        } else if word == "-h" || word == "--help" {
            let help: String
            switch name {
            case "admin": help = AdminCommand.helpMessage()
            case "backup": help = BackupCommand.helpMessage()
            default: help = RestoreCommand.helpMessage()
            }
            print(help)
            return 0
        }
        i += 1
    }
    let directory = dataDir ?? ServerProcess.defaultDataDirectory
    switch name {
    case "admin":
        return AdminClient.run(dataDirectory: directory, words: rest)
    case "backup":
        guard rest.count == 1 else { StandardError.write("usage: messageai-server backup DEST [--data-dir DIR]\n"); return 64 }
        return AdminClient.run(dataDirectory: directory, words: ["backup", URL(fileURLWithPath: rest[0]).standardizedFileURL.path])
    default:
        guard rest.count == 1 else { StandardError.write("usage: messageai-server restore SRC --data-dir DIR [--overwrite]\n"); return 64 }
        return ServerProcess.restore(from: rest[0], dataDirectory: directory, overwrite: overwrite)
    }
}
