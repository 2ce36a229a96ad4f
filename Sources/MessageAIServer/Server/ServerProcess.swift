import Dispatch
import Foundation
import Logging
import MessageAIPostgres
#if canImport(Glibc)
import Glibc
#endif

/// Runs the server as a process: data directory, database, signals, the "listening on" line.
/// Lives in the library (not main.swift) so its closures are plain queue code, not main-actor.
public enum ServerProcess {
    public struct Options: Sendable {
        public var configuration: ServerConfiguration
        /// Holds the database; created with mode 0700.
        public var dataDirectory: String
        /// `.full` fsyncs every commit (`--fsync always`); `.normal` survives kill -9 but not power loss.
        public var synchronous: CommitDurability
        /// TLS (the default: a self-signed certificate in the data directory) or plaintext.
        public var tls: TLSMode = .selfSigned(extraNames: [])
        /// `--metrics-listen HOST:PORT`: Prometheus text at /metrics, and /healthz; nil: off.
        public var metricsListen: String?
        /// `--database postgres://...` (or `MESSAGEAI_DATABASE_URL`) with its password resolved;
        /// nil: the SQLite database in the data directory (ServerProcess+Postgres.swift).
        public var database: ConnectionSettings?
        /// Called on SIGHUP before the certificate is reloaded: the executable re-reads `--config`.
        public var onHangup: (@Sendable (ChatServer) -> Void)?
        public init(configuration: ServerConfiguration, dataDirectory: String, synchronous: CommitDurability) {
            self.configuration = configuration; self.dataDirectory = dataDirectory; self.synchronous = synchronous
        }
    }

    /// The default data directory: $XDG_DATA_HOME/messageai-server or ~/.local/share/messageai-server.
    public static var defaultDataDirectory: String {
        let env = ProcessInfo.processInfo.environment
        if let xdg = env["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/messageai-server" }
        return (env["HOME"] ?? NSHomeDirectory()) + "/.local/share/messageai-server"
    }

    public static let databaseFileName = "messageai.sqlite"

    /// Every connection is a descriptor: lift the soft limit (often 1024) to the hard one.
    static func raiseDescriptorLimit(logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            logger.debug("descriptor limit raised to \(limit.rlim_cur)")
        }
    }

    /// Large input buffers (a partial 1 MiB frame per connection) go back to the system when
    /// they are freed. glibc serves an allocation above its mmap threshold (128 KiB) with its own
    /// mapping, but raises the threshold to the size of any such block freed (up to 32 MiB), after
    /// which the next large buffers come from the heap's arenas and stay there: 200 connections
    /// each holding a partial 1 MiB frame left ~160 MB behind once they closed, and more after a
    /// second round (BENCHMARKS.md, "Partial frames"). A fixed threshold turns that off; blocks
    /// above 256 KiB cost an mmap and a munmap each (file chunks, large frames: rare).
    static func returnLargeBuffersToTheSystem() {
        #if canImport(Glibc)
        // <malloc.h> is not in Swift's Glibc module: look mallopt up (M_MMAP_THRESHOLD is -3).
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
            _ = unsafeBitCast(symbol, to: Mallopt.self)(-3, 256 * 1024)
        }
        #endif
    }

    /// Never returns: exits 0 after SIGTERM/SIGINT, 1 when it cannot start.
    public static func run(_ options: Options, logger: Logger) -> Never {
        signal(SIGPIPE, SIG_IGN)
        returnLargeBuffersToTheSystem()
        raiseDescriptorLimit(logger: logger)
        // Files the server creates (database, WAL) are readable by its owner only.
        umask(0o077)
        let opened: OpenedStore
        do {
            try FileManager.default.createDirectory(atPath: options.dataDirectory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            guard try lockDataDirectory(options.dataDirectory) != nil else {
                StandardError.write("messageai-server: another server is using \(options.dataDirectory)\n")
                exit(1)
            }
            opened = try waitFor { try await openStore(options, logger: logger) }
        } catch let failure as DatabaseStartFailure {
            StandardError.write("messageai-server: \(failure)\n")  // one line naming the cause
            exit(1)
        } catch {
            StandardError.write("messageai-server: cannot open the database in \(options.dataDirectory): \(error)\n")
            exit(1)
        }
        var configuration = options.configuration
        if configuration.filesDirectory == nil { configuration.filesDirectory = options.dataDirectory + "/files" }
        configuration.dataDirectory = options.dataDirectory
        do {
            configuration.tls = try tlsFiles(options, logger: logger)
        } catch {
            StandardError.write("messageai-server: TLS: \(error)\n")
            exit(1)
        }
        if let latency = ProcessInfo.processInfo.environment["MESSAGEAI_STORE_LATENCY_MS"].flatMap(UInt64.init) {
            configuration.storeLatencyMillis = latency  // tests and measurements (`LatencyStore`)
        }
        if let hold = ProcessInfo.processInfo.environment["MESSAGEAI_EXTRACTION_HOLD_MS"].flatMap(UInt64.init) {
            configuration.assistant.jobHoldMillis = hold  // tests: a batch killed mid-way (ExtractionJobProcessTests)
        }
        let (metrics, registry) = makeMetrics(options)
        let store = opened.store
        let server = ChatServer(configuration: configuration, store: store, logger: logger, metrics: metrics)
        let port: Int
        do {
            port = try server.start()
        } catch {
            StandardError.write("messageai-server: \(error)\n")
            exit(1)
        }
        if let fingerprint = server.tlsFingerprint {
            logger.notice("TLS certificate SHA-256 fingerprint: \(fingerprint)")
        } else {
            logger.warning("serving PLAINTEXT (--plaintext): passwords and messages cross the network unencrypted")
        }
        let admin = AdminSocket(directory: options.dataDirectory, logger: logger) { words, uid, send in
            server.runAdmin(words, uid: uid, send: send)
        }
        do { try admin.start() } catch { logger.warning("no admin commands: \(error)") }
        let endpoint = startMetrics(options, registry: registry, metrics: metrics, server: server, logger: logger)
        let signalQueue = DispatchQueue(label: "messageai.signals")
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGTERM, SIGINT] {
            signal(sig, SIG_IGN) // let the dispatch source see it instead of the default action
            let source = DispatchSource.makeSignalSource(signal: sig, queue: signalQueue)
            source.setEventHandler {
                logger.info("signal \(sig): shutting down")
                // Every acknowledged message is committed by then (`ChatServer.shutdown`).
                server.shutdown {
                    server.onHub {
                        opened.closing()
                        await store.close()
                        admin.stop()
                        logger.info("stopped")
                        exit(0)
                    }
                }
            }
            source.resume()
            sources.append(source)
        }
        let hangup = reloadOnHangup(server, queue: signalQueue, logger: logger, also: options.onHangup)
        // Printed once SIGTERM stops the server cleanly: a supervisor (or a test) that signals it
        // as soon as it listens got the default action, death by signal 15, before.
        // An IPv6 address in brackets, as --server takes it: `listening on [::1]:7878`.
        let host = options.configuration.host
        StandardError.write("listening on \(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host):\(port)\n")
        withExtendedLifetime((sources, hangup, endpoint, admin)) { dispatchMain() }
    }

    /// An open store, and what to do just before it closes (a backend's own farewell).
    struct OpenedStore: Sendable {
        var store: any Store
        var closing: @Sendable () -> Void = {}
    }

    /// The one place that knows which database the server runs on: everything after it sees
    /// `any Store`. A second backend (PostgreSQL, `--database postgres://...`) opens here.
    static func openStore(_ options: Options, logger: Logger) async throws -> OpenedStore {
        if let database = options.database { return try await openPostgres(database, synchronous: options.synchronous, logger: logger) }
        // WAL checkpoints on a second connection, off the hub (BENCHMARKS.md, issue 13): that
        // needs the shared locking mode, so the store is no longer opened `exclusive`.
        let sqlite = try SQLiteStore(path: options.dataDirectory + "/" + databaseFileName, synchronous: options.synchronous,
                                     checkpoints: WALCheckpointer.Limits())
        return OpenedStore(store: sqlite, closing: {
            if let counts = sqlite.checkpointer?.checkpointCounts {
                logger.info("WAL checkpoints: \(counts.background) in the background, \(counts.onWriter) on the hub")
            }
        })
    }

    /// Runs `work` to its end from the synchronous start-up code (before the hub runs).
    private static func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let result = StartupResult<T>()
        Task.detached {
            do { result.value = .success(try await work()) } catch { result.value = .failure(error) }
            done.signal()
        }
        done.wait()
        return try result.value!.get()
    }
}

/// The start-up task's answer (the semaphore orders the accesses).
private final class StartupResult<T: Sendable>: @unchecked Sendable {
    var value: Result<T, Error>?
}
