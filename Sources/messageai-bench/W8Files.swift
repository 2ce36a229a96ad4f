import Glibc
import MessageAIProtocol

/// W8 (issue 11): files over loopback, all in one run against one server.
/// - raw TCP: the same bytes through one loopback socket (the ceiling for everything below);
/// - upload through FILE_ANNOUNCE/FILE_CHUNK, stop-and-wait (window 1, as 0.3.0 uploaded) and
///   pipelined (window 4, as the client uploads now: the next chunk is written only once the
///   previous one has left the output buffer); the time includes the server's SHA-256 check;
/// - download through FILE_GET, one chunk per round trip (as the client downloads) and 4 at once;
/// - W1's latency alone, then with an upload running on the sender's connection
///   (W8Files+Latency.swift).
/// Each upload has its own content (the first bytes differ), so none is deduplicated.
struct W8Files {
    let config: Configuration
    let target: Target

    func run() throws -> [WorkloadResult] {
        let size = config.w8MiB << 20
        let deadline = Deadline(seconds: config.timeLimit)
        var payload = [UInt8](repeating: 0, count: size)
        var rng = SplitMix(seed: 11)
        payload.withUnsafeMutableBytes { p in
            let words = p.bindMemory(to: UInt64.self)
            for i in words.indices { words[i] = rng.next() }
        }
        let (users, conns) = try Setup.register(target, names: ["w8_a", "w8_b"], deadline: deadline)
        for c in conns { c.close("set-up done") }
        let a = try W8Files.filesSession(target, users[0], deadline: deadline)
        var rows: [WorkloadResult] = []
        rows.append(try rawTCP(payload))
        var uploaded: [UInt8] = []
        for (i, window) in [1, 4].enumerated() {
            payload[0] = UInt8(i + 1)
            var r = WorkloadResult(workload: "W8-up\(window)", title: "upload \(config.w8MiB) MiB, \(window) chunk\(window == 1 ? "" : "s") in flight")
            let m = Measurement(serverPID: target.pid)
            let transfer = W8Transfer(connection: a, window: window)
            uploaded = try transfer.upload(payload, deadline: Deadline(seconds: config.timeLimit))
            m.finish(into: &r)
            r.unit = "MiB"; r.count = config.w8MiB; r.complete = true
            r.extra = [("mib_per_s", fmt(r.throughput, 1))]
            rows.append(r)
        }
        for window in [1, 4] {
            var r = WorkloadResult(workload: "W8-down\(window)", title: "download \(config.w8MiB) MiB, \(window) request\(window == 1 ? "" : "s") in flight")
            let m = Measurement(serverPID: target.pid)
            let got = try W8Transfer(connection: a, window: window).download(uploaded, size: size, deadline: Deadline(seconds: config.timeLimit))
            m.finish(into: &r)
            r.unit = "MiB"; r.count = config.w8MiB
            r.complete = got == payload
            r.error = r.complete ? nil : "the download differs from the upload"
            r.extra = [("mib_per_s", fmt(r.throughput, 1))]
            rows.append(r)
        }
        a.close("done")
        rows += try W8Latency(config: config, target: target, users: users, payload: payload).run()
        let raw = rows[0].throughput
        for i in rows.indices where rows[i].unit == "MiB" && i > 0 && raw > 0 {
            rows[i].extra.append(("vs_raw_tcp", fmt(rows[i].throughput / raw, 3)))
        }
        return rows
    }

    /// One socket over loopback, a reader thread draining it: MiB/s of the bare transport.
    private func rawTCP(_ bytes: [UInt8]) throws -> WorkloadResult {
        var r = WorkloadResult(workload: "W8-raw", title: "raw TCP \(config.w8MiB) MiB (ceiling)")
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, len) } }
        listen(listener, 1)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &len) } }
        let sender = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let m = Measurement(serverPID: nil)
        guard withUnsafePointer(to: &addr, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(sender, $0, len) } }) == 0 else {
            throw BenchError("raw TCP connect failed")
        }
        let receiver = accept(listener, nil, nil)
        var thread = pthread_t()
        let box = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        box.pointee = receiver
        pthread_create(&thread, nil, { arg in
            let fd = arg!.assumingMemoryBound(to: Int32.self).pointee
            let buf = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
            while recv(fd, buf, 1 << 20, 0) > 0 {}
            buf.deallocate()
            return nil
        }, box)
        var sent = 0
        bytes.withUnsafeBytes { p in
            while sent < p.count {
                let n = send(sender, p.baseAddress! + sent, p.count - sent, Int32(MSG_NOSIGNAL))
                if n <= 0 { break }
                sent += n
            }
        }
        shutdown(sender, Int32(SHUT_WR))
        pthread_join(thread, nil)
        m.finish(into: &r)
        box.deallocate()
        for fd in [sender, receiver, listener] { Glibc.close(fd) }
        r.unit = "MiB"; r.count = config.w8MiB; r.complete = sent == bytes.count
        r.extra = [("mib_per_s", fmt(r.throughput, 1))]
        return r
    }

    /// A connection with the `files` capability, logged in as `user`.
    static func filesSession(_ target: Target, _ user: BenchUser, deadline: Deadline) throws -> Connection {
        let c = try Connection(host: target.host, port: target.port)
        try c.waitConnected(deadline: deadline)
        let w = try c.request(Hello(capabilities: [.files], client: "messageai-bench/0.1"), expect: Welcome.self, deadline: deadline)
        guard w.capabilities.contains(.files) else { throw BenchError("the server does not store files") }
        _ = try c.request(Resume(token: user.token), expect: SessionGranted.self, deadline: deadline)
        return c
    }
}
