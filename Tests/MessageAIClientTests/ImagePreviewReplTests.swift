import Crypto
import XCTest

/// Image previews in the REPL (issue 11): real server, real clients in real pseudo-terminals,
/// one per kind of terminal (set through TERM and friends, as the terminal would), and what
/// each one was sent checked byte for byte: kitty graphics, sixels, iTerm2 images, block art,
/// or nothing.
final class ImagePreviewReplTests: ServerBackedTestCase {
    override class var directoryName: String { "preview" }

    /// Variables that name a terminal, removed so the test's own terminal does not leak in.
    static let neutral: [String: String?] = ["KITTY_WINDOW_ID": nil, "TERM_PROGRAM": nil, "LC_TERMINAL": nil, "TMUX": nil,
                                             "STY": nil, "VTE_VERSION": nil, "OPENER": nil, "COLORTERM": nil]

    static let kitty = "\u{1B}_Ga=T"
    static let sixel = "\u{1B}P[0-9;]*q"
    static let iterm = "\u{1B}]1337;File="

    /// A REPL for `user` in the terminal `env` describes, in conversation `conversation`.
    private func repl(_ user: String, _ env: [String: String?], extra: [String] = [], conversation: String) throws -> (Process, PseudoTerminal) {
        let pty = try PseudoTerminal()
        let p = try startRepl(user, pty, environment: Self.neutral.merging(env) { $1 },
                              extra: ["--config", root + "/\(user).config"] + extra)
        eventually(15, "\(user)'s prompt; got: \(pty.output.debugDescription)") { pty.output.contains("]> ") || pty.output.contains("\"type\"") }
        pty.type("/open \(conversation)\r")
        eventually(15, "\(user) in [\(conversation)]; got: \(pty.output.debugDescription)") { pty.output.contains("now in [\(conversation)]") || pty.output.contains("\"conversation\":\"\(conversation)\"") }
        return (p, pty)
    }

    /// What the terminal received after the first `marker` (nil until it appears).
    private func after(_ marker: String, _ pty: PseudoTerminal) -> Substring? {
        let out = pty.output
        return out.range(of: marker).map { out[$0.upperBound...] }
    }

    private static func hasBlocks(_ text: Substring) -> Bool {
        text.unicodeScalars.contains { (0x2580...0x259F).contains($0.value) }
    }

    private func sendImage(_ from: String, _ conversation: String, name: String) throws -> String {
        let path = root + "/" + name
        try TestImage.write(path)
        let r = try clients.run(from, ["/open \(conversation)", "/send-file \"\(path)\" look at this"])
        XCTAssertEqual(r.status, 0, r.err)
        return path
    }

    func testAnArrivingImageIsDrawnTheWayEachTerminalCanOrNotAtAll() throws {
        try clients.register("alice", "bob", "carol", "dave", "erin", "frank", "gina")
        XCTAssertEqual(try clients.run("alice", ["/group create team bob carol dave erin frank gina"]).status, 0)
        let terminals: [(String, [String: String?], [String])] = [
            ("bob", ["TERM": "xterm-kitty"], []),
            ("carol", ["TERM": "foot"], []),
            ("dave", ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], []),
            // No locale at all, as in a fresh container.
            ("erin", ["TERM": "xterm-256color", "LANG": nil, "LC_ALL": nil, "LC_CTYPE": nil], []),
            ("frank", ["TERM": "xterm-kitty"], []),
            ("gina", ["TERM": "xterm-kitty"], ["--json"]),
        ]
        var repls: [String: (Process, PseudoTerminal)] = [:]
        defer { for (p, _) in repls.values where p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        for (user, env, extra) in terminals { repls[user] = try repl(user, env, extra: extra, conversation: "team") }
        let frank = repls["frank"]!.1
        frank.type("/set preview off\r")
        eventually(10, "the setting; got: \(frank.output.debugDescription)") { frank.output.contains("preview = off (saved") }

        // Bob is typing when the image arrives.
        let bob = repls["bob"]!.1
        bob.type("half typed words")
        eventually(5, "the echo of the typed text") { bob.output.contains("half typed words") }

        _ = try sendImage("alice", "team", name: "first.png")
        let line = "first.png"
        for (user, check) in [("bob", { (s: Substring) in s.contains(Self.kitty) }),
                              ("carol", { (s: Substring) in s.range(of: Self.sixel, options: .regularExpression) != nil }),
                              ("dave", { (s: Substring) in s.contains(Self.iterm) }),
                              ("erin", { (s: Substring) in Self.hasBlocks(s) })] {
            let pty = repls[user]!.1
            eventually(20, "\(user)'s preview under the message; got: \(pty.output.debugDescription)") {
                after(line, pty).map(check) ?? false
            }
        }
        // The drawing went above the prompt: the half-typed line is back after it, and Enter
        // sends all of it.
        eventually(10, "the line redrawn after the image; got: \(bob.output.debugDescription)") {
            bob.output.components(separatedBy: Self.kitty).last?.contains("half typed words") ?? false
        }
        bob.type("\r")
        eventually(15, "bob's message; got: \(bob.output.debugDescription)") { after(line, bob)?.contains("bob: half typed words") ?? false }
        // Each terminal got its own kind only.
        let bobSaw = try XCTUnwrap(after(line, repls["bob"]!.1))
        XCTAssertFalse(Self.hasBlocks(bobSaw), "kitty gets the image, not block art as well")
        let erinSaw = try XCTUnwrap(after(line, repls["erin"]!.1))
        XCTAssertFalse(erinSaw.contains(Self.kitty) || erinSaw.contains("\u{1B}P"), "a plain xterm gets no graphics sequences")
        XCTAssertEqual(erinSaw.firstIndex(of: "↳").map { erinSaw[$0...].contains("/open") }, true)

        // Off: the message and its /save line, no image.
        eventually(20, "frank's message line") { after(line, frank)?.contains("/save") ?? false }
        // --json in a terminal: the attachment event with its thumbnail, no drawing.
        let gina = repls["gina"]!.1
        eventually(20, "gina's attachment event; got: \(gina.output.debugDescription)") {
            gina.output.contains("\"type\":\"attachment\"")
        }
        // Each JSON line is printed above the prompt, after the prompt's redraw codes.
        let objects = gina.output.components(separatedBy: "\r\n").compactMap { line -> [String: Any]? in
            guard let start = line.firstIndex(of: "{"), let end = line.lastIndex(of: "}") else { return nil }
            return jsonLines(String(line[start...end])).first
        }
        let event = try XCTUnwrap(objects.first { $0["type"] as? String == "attachment" }, gina.output.debugDescription)
        XCTAssertEqual(event["name"] as? String, "first.png")
        XCTAssertGreaterThan(event["thumbnail_bytes"] as? Int ?? 0, 0, "the live message carried the thumbnail")

        // The no-locale terminal still takes non-ASCII text after the drawing.
        let erin = repls["erin"]!.1
        erin.type("café 東京 👍🏽\r")
        eventually(15, "erin's message echoed; got: \(erin.output.debugDescription)") { after(line, erin)?.contains("erin: café 東京 👍🏽") ?? false }

        // blocks: block art even where kitty graphics would work.
        frank.type("/set preview blocks\r")
        eventually(10, "the setting; got: \(frank.output.debugDescription)") { frank.output.contains("preview = blocks (saved") }
        _ = try sendImage("alice", "team", name: "second.png")
        eventually(20, "frank's block art; got: \(frank.output.debugDescription)") { after("second.png", frank).map(Self.hasBlocks) ?? false }
        XCTAssertFalse(frank.output.contains(Self.kitty), "off, then blocks: never a kitty image")
        XCTAssertFalse(gina.output.contains(Self.kitty) || gina.output.contains(Self.iterm), "--json never draws")
        XCTAssertFalse(Self.hasBlocks(after("first.png", gina) ?? ""), "--json never draws")

        for (p, pty) in repls.values {
            pty.type("/quit\r")
            eventually(15, "the REPL to exit") { !p.isRunning }
        }
    }

    func testOpenHandsTheFileToTheOpenerAndShowsTheImageWhileOpenNameStillOpensAConversation() throws {
        try clients.register("alice", "bob")
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "hi"]).status, 0)
        // A fake xdg-open first on PATH: records its arguments and what the file holds.
        let bin = root + "/bin"
        let record = root + "/opened.txt"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try "#!/bin/sh\nprintf '%s\\n' \"$#\" \"$@\" > \(record).tmp\nsha256sum \"$1\" >> \(record).tmp\nmv \(record).tmp \(record)\n"
            .write(toFile: bin + "/xdg-open", atomically: true, encoding: .utf8)
        chmod(bin + "/xdg-open", 0o755)
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let (bob, pty) = try repl("bob", ["TERM": "xterm-kitty", "PATH": bin + ":" + path], conversation: "alice")
        defer { if bob.isRunning { kill(bob.processIdentifier, SIGKILL) } }

        _ = try sendImage("alice", "bob", name: "holiday photo.png")
        var id = ""
        eventually(20, "the attachment line; got: \(pty.output.debugDescription)") {
            guard let r = pty.output.range(of: #"/save [0-9a-f]{8}"#, options: .regularExpression) else { return false }
            id = String(pty.output[r].dropFirst(6))
            return true
        }
        let before = pty.output.components(separatedBy: Self.kitty).count
        pty.type("/open \(id)\r")
        eventually(20, "the opener ran; got: \(pty.output.debugDescription)") { FileManager.default.fileExists(atPath: record) }
        let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "1", "one argument: the file, no shell words")
        let opened = try XCTUnwrap(lines.dropFirst().first)
        XCTAssertTrue(opened.hasSuffix("/holiday photo.png"), "the file keeps its name: \(opened)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: opened))

        // The bytes the opener got are the server's, as /save (which verifies the hash) writes them.
        let saved = root + "/saved.png"
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "/save \(id) \(saved)"]).status, 0)
        let want = SHA256.hash(data: try Data(contentsOf: URL(fileURLWithPath: saved))).map { String(format: "%02x", $0) }.joined()
        XCTAssertEqual(lines.last?.split(separator: " ").first.map(String.init), want)

        eventually(15, "the opened line and the full image after it; got: \(pty.output.debugDescription)") {
            pty.output.contains("opened holiday photo.png") && pty.output.components(separatedBy: Self.kitty).count > before
        }
        // The full image is bigger than the thumbnail: more columns (c=) in its kitty header.
        let columns = pty.output.components(separatedBy: Self.kitty).dropFirst().compactMap { part -> Int? in
            guard let r = part.range(of: #",c=\d+"#, options: .regularExpression) else { return nil }
            return Int(part[r].dropFirst(3))
        }
        XCTAssertGreaterThan(columns.last ?? 0, columns.first ?? 0, "kitty images' widths: \(columns)")

        // /open NAME still opens a conversation.
        pty.type("/open alice\r")
        eventually(15, "the conversation; got: \(pty.output.debugDescription)") {
            pty.output.components(separatedBy: "now in [alice]").count >= 3
        }
        pty.type("/quit\r")
        eventually(15, "the REPL to exit") { !bob.isRunning }

        // No opener on this machine: a clear error that says where the file is.
        let env = ProcessInfo.processInfo.environment.merging(["PATH": root + "/empty", "OPENER": ""]) { $1 }
        let alice = try Child(try Binaries.path("messageai"),
                              ["--server", server.address, "--data-dir", clients.dir("alice"), "--no-bell"] + server.clientTLSArgs,
                              environment: env)
        alice.send("/dm bob")
        alice.send("/open file \(id)")
        alice.closeInput()
        XCTAssertNotEqual(alice.waitExit(), 0)
        XCTAssertTrue(alice.stderr.contains("no program to open files") && alice.stderr.contains("holiday photo.png"), alice.stderr)
    }

    func testHistoryFetchesTheThumbnailsASyncLeftOutAndShowsThemOfflineLater() throws {
        try clients.register("alice", "bob")
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "before the picture"]).status, 0)
        XCTAssertEqual(try clients.run("bob", ["/dm alice"]).status, 0)
        // Bob is offline: his client gets the message by sync, without its thumbnail.
        _ = try sendImage("alice", "bob", name: "sunset.png")

        var (bob, pty) = try repl("bob", ["TERM": "xterm-kitty"], conversation: "alice")
        pty.type("/history\r")
        eventually(20, "the thumbnail under the history's line; got: \(pty.output.debugDescription)") {
            guard let header = pty.output.range(of: "--- 20", options: .backwards) else { return false }
            let page = pty.output[header.upperBound...]
            return page.range(of: "sunset.png").map { page[$0.upperBound...].contains(Self.kitty) } ?? false
        }
        pty.type("/quit\r")
        eventually(15, "the REPL to exit") { !bob.isRunning }

        // Offline: the thumbnail comes from the local store.
        server.stop()
        (bob, pty) = try repl("bob", ["TERM": "xterm-kitty"], conversation: "alice")
        defer { if bob.isRunning { kill(bob.processIdentifier, SIGKILL) } }
        let mark = pty.output.endIndex
        pty.type("/history\r")
        eventually(20, "the stored thumbnail, offline; got: \(pty.output.debugDescription)") {
            let out = pty.output
            guard let header = out.range(of: "--- 20", options: .backwards), header.lowerBound >= mark else { return false }
            return out[header.upperBound...].contains(Self.kitty)
        }
        pty.type("/quit\r")
        eventually(15, "the REPL to exit") { !bob.isRunning }
    }
}
