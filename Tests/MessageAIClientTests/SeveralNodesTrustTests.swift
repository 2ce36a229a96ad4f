import Foundation
import XCTest

/// Trust on first use with several nodes (issue 26): every node of one service serves the same
/// certificate, so a certificate the user accepted for one address is trusted for the others of
/// the `--server` list, and remembered for them. Another certificate is still refused.
final class SeveralNodesTrustTests: ServerBackedTestCase {
    override class var directoryName: String { "nodes-trust" }

    private func client(_ servers: String, config: String) throws -> Child {
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = config
        return try Child(try Binaries.path("messageai"), ["--server", servers, "--data-dir", clients.dir("x"), "--json", "--no-bell"],
                         environment: env)
    }

    func testACertificateKnownForOneNodeIsTrustedForTheOthersOfTheList() throws {
        // Node 2 serves node 1's certificate (as the README asks of several nodes); node 3 its own.
        let node2 = try ServerProcess(dataDir: root + "/node2", extraArgs: ["--tls-cert", server.dataDir + "/tls-cert.pem",
                                                                            "--tls-key", server.dataDir + "/tls-key.pem"])
        defer { node2.stop() }
        let node3 = try ServerProcess(dataDir: root + "/node3")
        defer { node3.stop() }
        let config = root + "/config"
        try FileManager.default.createDirectory(atPath: config + "/messageai", withIntermediateDirectories: true)
        let known = config + "/messageai/known_servers"
        try "\(server.address) \(server.fingerprint)\n".write(toFile: known, atomically: true, encoding: .utf8)

        // Only node 2 answers first in the list: it is trusted through node 1, and saved.
        let c = try client("\(node2.address),\(server.address)", config: config)
        c.send("/server")
        c.closeInput()
        XCTAssertEqual(c.waitExit(), 0, c.stderr)
        let shown = try XCTUnwrap(jsonLines(c.stdout).first { $0["type"] as? String == "server" }, c.stdout + c.stderr)
        XCTAssertEqual(shown["connection"] as? String, "online", c.stderr)
        XCTAssertEqual(shown["fingerprint"] as? String, server.fingerprint)
        let lines = try String(contentsOfFile: known, encoding: .utf8)
        XCTAssertTrue(lines.contains("\(node2.address) \(server.fingerprint)"), lines)

        XCTAssertEqual(node2.fingerprint, server.fingerprint)

        // A node with another certificate in the same list is not trusted through its siblings:
        // a script is refused at start, as with one address.
        let other = try client(node3.address + "," + server.address, config: config)
        other.closeInput()
        XCTAssertNotEqual(other.waitExit(), 0, other.stdout)
        XCTAssertTrue(other.stderr.contains("the certificate of \(node3.address) is not trusted"), other.stderr)
        XCTAssertFalse(try String(contentsOfFile: known, encoding: .utf8).contains(node3.address))
    }
}
