import Foundation
@testable import MessageAIPostgres
import XCTest

/// The connection settings parser: what an operator types into `--database`, and what each
/// mistake tells them. No database needed.
final class DatabaseURLTests: XCTestCase {
    func testFullURL() throws {
        let url = try DatabaseURL.parse("postgres://messageai@db.example.org:6543/chat?sslmode=verify-full&sslrootcert=/etc/ca.pem")
        XCTAssertEqual(url.user, "messageai")
        XCTAssertEqual(url.host, "db.example.org")
        XCTAssertEqual(url.port, 6543)
        XCTAssertEqual(url.database, "chat")
        XCTAssertEqual(url.sslMode, .verifyFull)
        XCTAssertEqual(url.sslRootCert, "/etc/ca.pem")
        XCTAssertNil(url.socketPath)
    }

    func testDefaultsFollowLibpq() throws {
        let url = try DatabaseURL.parse("postgresql://alice@")
        XCTAssertEqual(url.host, "localhost")
        XCTAssertEqual(url.port, 5432)
        XCTAssertEqual(url.database, "alice", "the database defaults to the user's name")
        XCTAssertEqual(url.sslMode, .prefer)
    }

    func testUnixSocketByParameterOrEncodedHost() throws {
        let byParameter = try DatabaseURL.parse("postgres://app@/chat?host=/run/pg&port=5433")
        XCTAssertEqual(byParameter.socketPath, "/run/pg/.s.PGSQL.5433")
        let encoded = try DatabaseURL.parse("postgres://app@%2Frun%2Fpg:5433/chat")
        XCTAssertEqual(encoded.socketPath, "/run/pg/.s.PGSQL.5433")
        XCTAssertEqual(encoded.database, "chat")
    }

    func testIPv6AndPercentDecoding() throws {
        let url = try DatabaseURL.parse("postgres://J%C3%BCrgen%40corp@[::1]:5432/caf%C3%A9%20%E6%97%A5%E6%9C%AC")
        XCTAssertEqual(url.host, "::1")
        XCTAssertEqual(url.user, "Jürgen@corp")
        XCTAssertEqual(url.database, "café 日本")
        // The description parses back to the same settings.
        XCTAssertEqual(try DatabaseURL.parse(url.description), url)
    }

    func testEveryModeParsesAndRoundTrips() throws {
        for mode in DatabaseURL.SSLMode.allCases {
            let url = try DatabaseURL.parse("postgres://u@h/d?sslmode=\(mode.rawValue)&connect_timeout=7&passfile=/p")
            XCTAssertEqual(url.sslMode, mode)
            XCTAssertEqual(try DatabaseURL.parse(url.description), url)
        }
    }

    func testPasswordInTheURLIsRefusedWithoutRepeatingIt() {
        for text in ["postgres://alice:hunter2@db/chat", "postgres://alice@db/chat?password=hunter2"] {
            XCTAssertThrowsError(try DatabaseURL.parse(text)) { error in
                XCTAssertEqual(error as? DatabaseURLError, .passwordInURL)
                XCTAssertFalse("\(error)".contains("hunter2"))
                XCTAssertTrue("\(error)".contains("0600"), "says where the password goes instead")
            }
        }
    }

    func testMistakesNameWhatIsWrong() {
        let cases: [(String, String)] = [
            ("mysql://u@h/d", "postgres://"),
            ("postgres://u@h:99999/d", "port"),
            ("postgres://u@h:abc/d", "port"),
            ("postgres://u@h/d?sslmode=allow", "allow"),
            ("postgres://u@h/d?sslmode=strict", "strict"),
            ("postgres://u@h/d?sslmode", "no value"),
            ("postgres://u@h/d?colour=blue", "unknown parameter 'colour'"),
            ("postgres://u@h1,h2/d", "several hosts"),
            ("postgres://u@h/d%zz", "percent-encoding"),
            ("postgres://u@h/d%FF", "not UTF-8"),
            ("postgres://u@h/d%00", "NUL"),
            ("postgres://@h/d", "no user"),
            ("postgres://u@[::1/d", "["),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try DatabaseURL.parse(text), text) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(text): \(error)")
            }
        }
    }

    func testTLSPolicyPerMode() throws {
        func policy(_ query: String) throws -> TLSPolicy { TLSPolicy(try DatabaseURL.parse("postgres://u@h/d?\(query)")) }
        XCTAssertEqual(try policy("sslmode=disable"), .disable)
        XCTAssertEqual(try policy("sslmode=prefer"), .prefer)
        XCTAssertEqual(try policy("sslmode=require"), .require(verification: .none, rootCertificate: nil))
        XCTAssertEqual(try policy("sslmode=require&sslrootcert=/ca"), .require(verification: .certificateChain, rootCertificate: "/ca"),
                       "libpq: require with a root certificate verifies the chain")
        XCTAssertEqual(try policy("sslmode=verify-ca"), .require(verification: .certificateChain, rootCertificate: nil))
        XCTAssertEqual(try policy("sslmode=verify-full&sslrootcert=/ca"),
                       .require(verification: .chainAndHostname, rootCertificate: "/ca"))
        XCTAssertEqual(try policy("sslmode=verify-full").tlsConfiguration().certificateVerification, .fullVerification)
        XCTAssertEqual(try policy("sslmode=verify-ca").tlsConfiguration().certificateVerification, .noHostnameVerification)
        XCTAssertEqual(try policy("sslmode=prefer").tlsConfiguration().certificateVerification, .none)
    }

    // MARK: pgpass

    func testPGPassWildcardsEscapesAndFirstMatch() {
        let file = PGPassFile(parsing: """
            # comment line
            db.example.org:5432:chat:alice:first
            db.example.org:*:chat:alice:second
            *:*:*:bob:b\\:o\\\\b:pass
            h\\:x:5432:*:carol:colon-host
            \\*:5432:*:dave:literal-star
            too:few:fields
            /run/pg:5433:chat:erin:socket\r
            localhost:5432:*:frank:default-socket
            """)
        func password(_ host: String, _ port: Int, _ db: String, _ user: String) -> String? {
            file.entry(host: host, port: port, database: db, user: user)?.password
        }
        XCTAssertEqual(password("db.example.org", 5432, "chat", "alice"), "first", "the first matching line wins")
        XCTAssertEqual(password("db.example.org", 6000, "chat", "alice"), "second")
        XCTAssertEqual(password("anywhere", 1, "any", "bob"), "b:o\\b:pass", "escapes; colons in the password need none")
        XCTAssertEqual(password("h:x", 5432, "chat", "carol"), "colon-host")
        XCTAssertNil(password("other", 5432, "chat", "dave"), "\\* is a literal star, not a wildcard")
        XCTAssertEqual(password("*", 5432, "chat", "dave"), "literal-star")
        XCTAssertEqual(password("/run/pg", 5433, "chat", "erin"), "socket", "a CR of a CRLF file is not part of the password")
        XCTAssertNil(password("db.example.org", 5432, "chat", "nobody"))
        XCTAssertEqual(file.entry(host: "anywhere", port: 1, database: "x", user: "bob")?.line, 4)

        let defaultSocket = DatabaseURL(user: "frank", socketDirectory: "/var/run/postgresql", database: "chat")
        XCTAssertEqual(PGPassFile.hostKey(for: defaultSocket), "localhost", "libpq: localhost matches the default socket")
        let otherSocket = DatabaseURL(user: "erin", socketDirectory: "/run/pg", database: "chat")
        XCTAssertEqual(PGPassFile.hostKey(for: otherSocket), "/run/pg")
    }

    // MARK: Where the password comes from

    func testPasswordSourcesInOrderAndModeChecked() throws {
        let dir = NSTemporaryDirectory() + "pgpass-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let url = "postgres://alice@db:5432/chat"
        let secret = "\(dir)/secret"
        try write("s3cret é\n", to: secret, mode: 0o600)
        let passfile = "\(dir)/pgpass"
        try write("db:5432:chat:alice:from-pgpass\n", to: passfile, mode: 0o600)

        let fromFile = try ConnectionSettings.resolve(url: url, passwordFile: secret, environment: ["PGPASSWORD": "env"], home: dir)
        XCTAssertEqual(fromFile.password, "s3cret é", "the file wins, its final newline dropped")
        XCTAssertEqual(fromFile.passwordSource, "file \(secret)")
        XCTAssertFalse(fromFile.description.contains("s3cret"))

        let fromEnvironment = try ConnectionSettings.resolve(url: url, passwordFile: nil,
                                                             environment: ["PGPASSWORD": "env", "PGPASSFILE": passfile], home: dir)
        XCTAssertEqual(fromEnvironment.password, "env")

        let fromPassfile = try ConnectionSettings.resolve(url: nil, passwordFile: nil,
                                                          environment: ["MESSAGEAI_DATABASE_URL": url, "PGPASSFILE": passfile], home: nil)
        XCTAssertEqual(fromPassfile.password, "from-pgpass")
        XCTAssertEqual(fromPassfile.passwordSource, "\(passfile) line 1")

        try write("db:5432:chat:alice:from-home\n", to: "\(dir)/.pgpass", mode: 0o600)
        XCTAssertEqual(try ConnectionSettings.resolve(url: url, passwordFile: nil, environment: [:], home: dir).password, "from-home")
        XCTAssertNil(try ConnectionSettings.resolve(url: url, passwordFile: nil, environment: [:], home: "/nonexistent").password)

        for mode in [0o640, 0o604, 0o660] as [mode_t] {
            chmod(secret, mode)
            XCTAssertThrowsError(try ConnectionSettings.resolve(url: url, passwordFile: secret, environment: [:], home: nil)) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains(String(mode, radix: 8)) && text.contains("chmod 600"), text)
                XCTAssertFalse(text.contains("s3cret"))
            }
        }
        chmod(passfile, 0o644)
        XCTAssertThrowsError(try ConnectionSettings.resolve(url: url, passwordFile: nil, environment: ["PGPASSFILE": passfile], home: nil))
        XCTAssertThrowsError(try ConnectionSettings.resolve(url: url, passwordFile: "\(dir)/missing", environment: [:], home: nil)) {
            XCTAssertTrue("\($0)".contains("\(dir)/missing"))
        }
        XCTAssertThrowsError(try ConnectionSettings.resolve(url: nil, passwordFile: nil, environment: [:], home: nil)) {
            XCTAssertEqual($0 as? DatabaseURLError, .missing)
        }
    }

    func testStoreConfigurationHidesThePassword() throws {
        var settings = try ConnectionSettings.resolve(url: "postgres://alice@/chat?host=/run/pg&sslmode=require", passwordFile: nil,
                                                      environment: ["PGPASSWORD": "hunter2"], home: nil)
        let configuration = try settings.storeConfiguration()
        XCTAssertEqual(configuration.unixSocketPath, "/run/pg/.s.PGSQL.5432")
        XCTAssertEqual(configuration.password, "hunter2")
        XCTAssertFalse("\(configuration)".contains("hunter2"))
        settings.password = nil
        XCTAssertNil(try settings.storeConfiguration().password)
    }
}

func write(_ text: String, to path: String, mode: mode_t) throws {
    FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    XCTAssertEqual(chmod(path, mode), 0)
}
