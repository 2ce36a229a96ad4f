import Foundation
import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// `sslmode` against a real cluster with TLS on (a self-signed certificate for 127.0.0.1 and
/// localhost, made here with openssl), and against one without TLS: what each mode connects
/// with, and what it refuses, with the cause.
final class TLSTests: XCTestCase {
    nonisolated(unsafe) private var withTLS: TLSCluster?

    override func setUpWithError() throws {
        withTLS = try TLSCluster()
    }

    override func tearDown() {
        withTLS?.stop()
    }

    private func open(_ url: String, cluster: TestCluster) async throws(PostgresStoreError) -> PostgresStore {
        let settings = try! ConnectionSettings.resolve(url: url, passwordFile: nil, environment: [:], home: nil)
        var configuration = try! settings.storeConfiguration()
        configuration.operationTimeout = .seconds(5)
        return try await PostgresStore.open(configuration, now: now())
    }

    func testModesAgainstAServerWithTLS() async throws {
        let tls = try XCTUnwrap(withTLS)
        let base = "postgres://postgres@127.0.0.1:\(tls.cluster.port)/postgres"
        for (query, encrypted) in [("sslmode=disable", false), ("sslmode=prefer", true), ("sslmode=require", true),
                                   ("sslmode=verify-ca&sslrootcert=\(tls.certificate)", true),
                                   ("sslmode=verify-full&sslrootcert=\(tls.certificate)", true)] {
            let store = try await open("\(base)?\(query)", cluster: tls.cluster)
            let usesTLS = try await store.connectionUsesTLS()
            XCTAssertEqual(usesTLS, encrypted, query)
            await store.close()
        }
        // The certificate names 127.0.0.1 and localhost, not this name: verify-full refuses it,
        // verify-ca (chain only) accepts it.
        let otherName = "postgres://postgres@127.0.0.2:\(tls.cluster.port)/postgres"
        let chainOnly = try await open("\(otherName)?sslmode=verify-ca&sslrootcert=\(tls.certificate)", cluster: tls.cluster)
        let chainOnlyUsesTLS = try await chainOnly.connectionUsesTLS()
        XCTAssertTrue(chainOnlyUsesTLS)
        await chainOnly.close()
        do {
            _ = try await open("\(otherName)?sslmode=verify-full&sslrootcert=\(tls.certificate)", cluster: tls.cluster)
            XCTFail("verify-full accepted a certificate for another name")
        } catch {
            XCTAssertTrue("\(error)".lowercased().contains("certificate") || "\(error)".lowercased().contains("handshake")
                          || "\(error)".lowercased().contains("ssl"), "\(error)")
        }
        // Without the self-signed root the chain cannot be verified.
        do {
            _ = try await open("\(base)?sslmode=verify-full", cluster: tls.cluster)
            XCTFail("verify-full accepted a certificate no trusted CA signed")
        } catch {
            XCTAssertTrue("\(error)".lowercased().contains("certificate") || "\(error)".lowercased().contains("handshake")
                          || "\(error)".lowercased().contains("ssl"), "\(error)")
        }
    }

}

/// `prefer` and `require` against a cluster without TLS (started in setUp: on the main thread).
final class TLSAbsentTests: XCTestCase {
    nonisolated(unsafe) private var cluster: TestCluster?

    override func setUpWithError() throws {
        cluster = try TestCluster.start()
    }

    override func tearDown() {
        cluster?.stop()
    }

    private func open(_ url: String) async throws(PostgresStoreError) -> PostgresStore {
        let settings = try! ConnectionSettings.resolve(url: url, passwordFile: nil, environment: [:], home: nil)
        var configuration = try! settings.storeConfiguration()
        configuration.operationTimeout = .seconds(5)
        return try await PostgresStore.open(configuration, now: now())
    }

    func testRequireAgainstAServerWithoutTLSIsRefused() async throws {
        let plain = try XCTUnwrap(cluster)
        let base = "postgres://postgres@127.0.0.1:\(plain.port)/postgres"
        let preferred = try await open("\(base)?sslmode=prefer")
        let usesTLS = try await preferred.connectionUsesTLS()
        XCTAssertFalse(usesTLS, "prefer falls back to plain text when the server has no TLS")
        await preferred.close()
        do {
            _ = try await open("\(base)?sslmode=require")
            XCTFail("require connected without TLS")
        } catch {
            XCTAssertTrue("\(error)".contains("TLS is required"), "\(error)")
        }
    }
}

/// A cluster with `ssl=on` and a fresh self-signed certificate (CN localhost, SAN DNS:localhost
/// and IP:127.0.0.1), the key readable only by the server's user.
final class TLSCluster: @unchecked Sendable {
    let cluster: TestCluster
    let certificate: String
    private let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "pgtls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        certificate = "\(directory)/server.crt"
        let key = "\(directory)/server.key"
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                             "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw ClusterError("openssl req failed", log: "") }
        chmod(key, 0o600)
        if getuid() == 0, let pw = getpwnam("postgres") {
            chown(key, pw.pointee.pw_uid, pw.pointee.pw_gid)
        }
        cluster = try TestCluster.start(settings: ["listen_addresses=127.0.0.1,127.0.0.2", "ssl=on", "ssl_cert_file=\(certificate)", "ssl_key_file=\(key)"])
    }

    func stop() {
        cluster.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
