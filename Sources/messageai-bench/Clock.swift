import Glibc

/// Monotonic time in nanoseconds: latencies are differences of two readings on this host.
@inline(__always)
func nowNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

func seconds(_ nanos: UInt64) -> Double { Double(nanos) / 1e9 }

/// A point in time after which a bounded loop gives up.
struct Deadline {
    let at: UInt64
    init(seconds: Double) { at = nowNanos() &+ UInt64(max(0, seconds) * 1e9) }
    var expired: Bool { nowNanos() >= at }
    /// Milliseconds left, for poll(); at least 0, at most `cap`.
    func remainingMillis(cap: Int32 = 1000) -> Int32 {
        let now = nowNanos()
        guard at > now else { return 0 }
        return Int32(min(UInt64(cap), (at - now) / 1_000_000 + 1))
    }
}

/// What /proc says about the server process, and what getrusage says about this generator.
/// CPU is user + system time; for the server it covers all of its threads.
struct ProcessStats {
    var serverCPUSeconds: Double?
    var serverRSSKiB: Int?
    var generatorCPUSeconds: Double
    var databaseCPUSeconds: Double?

    static func sample(serverPID: pid_t?) -> ProcessStats {
        ProcessStats(serverCPUSeconds: serverPID.flatMap(cpuSeconds(pid:)),
                     serverRSSKiB: serverPID.flatMap(rssKiB(pid:)),
                     generatorCPUSeconds: selfCPUSeconds(),
                     databaseCPUSeconds: BenchStore.postgres?.cpuSeconds())
    }

    static func selfCPUSeconds() -> Double {
        var ru = rusage()
        getrusage(RUSAGE_SELF.rawValue, &ru)
        return Double(ru.ru_utime.tv_sec) + Double(ru.ru_utime.tv_usec) / 1e6
            + Double(ru.ru_stime.tv_sec) + Double(ru.ru_stime.tv_usec) / 1e6
    }

    /// utime + stime, fields 14 and 15 of /proc/PID/stat (counted after the ")" that ends
    /// the command name, which may itself hold spaces).
    static func cpuSeconds(pid: pid_t) -> Double? {
        guard let text = readSmallFile("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let ut = Double(fields[11]), let st = Double(fields[12]) else { return nil }
        return (ut + st) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func rssKiB(pid: pid_t) -> Int? {
        guard let text = readSmallFile("/proc/\(pid)/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(String(line.dropFirst(6).filter(\.isNumber)))
        }
        return nil
    }
}

/// Reads a file of at most 64 KiB (a /proc entry) in one go.
func readSmallFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buf = [UInt8](repeating: 0, count: 65536)
    var total = 0
    while total < buf.count {
        let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress! + total, $0.count - total) }
        if n <= 0 { break }
        total += n
    }
    return String(decoding: buf[0..<total], as: UTF8.self)
}

/// Raises this process's open-file limit to the hard limit (W3 holds 10,000 sockets); a server
/// started afterwards inherits it.
func raiseFileLimit() -> Int {
    var lim = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &lim)
    lim.rlim_cur = lim.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lim)
    return Int(lim.rlim_cur)
}
