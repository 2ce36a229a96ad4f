import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// One receive buffer shared by every connection of a hub queue (they never read at once).
final class ReadBuffer {
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    deinit { bytes.deallocate() }
}

enum Clock {
    /// Monotonic milliseconds, for timeouts.
    static func uptimeMillis() -> UInt64 { DispatchTime.now().uptimeNanoseconds / 1_000_000 }
    /// Wall-clock milliseconds since the Unix epoch, for stored times.
    static func nowMillis() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return UInt64(ts.tv_sec) * 1000 + UInt64(ts.tv_nsec) / 1_000_000
    }
}
