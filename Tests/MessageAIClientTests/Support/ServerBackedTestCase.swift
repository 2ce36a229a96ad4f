import XCTest

/// A real `messageai-server` process on a temp data dir for every test, and a runner for real
/// `messageai` processes against it. Subclasses name their directory and may add server flags.
class ServerBackedTestCase: XCTestCase {
    var root: String!
    var server: ServerProcess!
    var clients: ClientRunner!

    /// Prefix of the test's temp directory (shows which suite left it behind).
    class var directoryName: String { "client" }
    class var serverArguments: [String] { [] }
    class var serverHost: String { "127.0.0.1" }

    override func setUpWithError() throws {
        root = temporaryDirectory(Self.directoryName)
        server = try ServerProcess(dataDir: root + "/server", extraArgs: Self.serverArguments, host: Self.serverHost)
        clients = ClientRunner(server: server, root: root)
    }

    override func tearDownWithError() throws {
        // A test may have frozen the server (SIGSTOP); it must be able to stop.
        if let c = server?.child { kill(c.pid, SIGCONT) }
        server?.stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The interactive client of `user` in the pseudo-terminal `pty` (TERM=xterm), against this
    /// case's server. `environment` overrides variables (nil removes one); `extra` adds flags.
    func startRepl(_ user: String, _ pty: PseudoTerminal, environment: [String: String?] = [:], extra: [String] = []) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Binaries.path("messageai"))
        p.arguments = ["--server", server.address, "--data-dir", clients.dir(user), "--no-bell"] + server.clientTLSArgs + extra
        var env = ProcessInfo.processInfo.environment
        env["TERM"] = "xterm"
        for (key, value) in environment { env[key] = value }
        p.environment = env
        p.standardInput = pty.slave
        p.standardOutput = pty.slave
        p.standardError = pty.slave
        try p.run()
        return p
    }
}
