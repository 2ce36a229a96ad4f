import CZlib

/// zlib (RFC 1950) for frame payloads. Inflation stops as soon as the output passes a limit,
/// so a small frame cannot expand into gigabytes (a decompression bomb).
public enum Compression {
    /// The largest payload a receiver inflates unless configured otherwise: 16 MiB.
    public static let defaultMaxInflated = 16 << 20
    /// Below this many bytes, compressing costs more than it saves.
    public static let worthwhileSize = 256
    /// zlib's own default; the spec's compressed vectors are made at this level. Any level
    /// inflates to the same fields, so a writer picks what suits it (the server uses 1).
    public static let defaultLevel: Int32 = 6
    public static let levels: ClosedRange<Int32> = 1...9

    public static func deflate(_ input: [UInt8], level: Int32 = defaultLevel) -> [UInt8] {
        var stream = z_stream()
        guard czlib_deflate_init(&stream, level) == Z_OK else { fatalError("deflateInit failed: out of memory") }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
        let produced: Int = input.withUnsafeBufferPointer { inp in
            out.withUnsafeMutableBufferPointer { outp in
                stream.next_in = UnsafeMutablePointer(mutating: inp.baseAddress)
                stream.avail_in = uInt(inp.count)
                stream.next_out = outp.baseAddress
                stream.avail_out = uInt(outp.count)
                // deflateBound guarantees one Z_FINISH call fits.
                let rc = CZlib.deflate(&stream, Z_FINISH)
                precondition(rc == Z_STREAM_END, "deflate with a deflateBound buffer returned \(rc)")
                return outp.count - Int(stream.avail_out)
            }
        }
        out.removeSubrange(produced...)
        return out
    }

    public static func inflate(_ input: [UInt8], limit: Int = defaultMaxInflated) throws(ProtocolError) -> [UInt8] {
        var stream = z_stream()
        guard czlib_inflate_init(&stream) == Z_OK else { throw .decompressionFailed("inflateInit failed") }
        defer { inflateEnd(&stream) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let result: Result<Void, ProtocolError> = input.withUnsafeBufferPointer { inp in
            stream.next_in = UnsafeMutablePointer(mutating: inp.baseAddress)
            stream.avail_in = uInt(inp.count)
            while true {
                let (rc, produced) = chunk.withUnsafeMutableBufferPointer { c -> (Int32, Int) in
                    stream.next_out = c.baseAddress
                    stream.avail_out = uInt(c.count)
                    let rc = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (rc, c.count - Int(stream.avail_out))
                }
                if out.count + produced > limit {
                    return .failure(.decompressionFailed("inflates past the limit of \(limit) bytes"))
                }
                out.append(contentsOf: chunk[0..<produced])
                switch rc {
                case Z_STREAM_END:
                    if stream.avail_in != 0 { return .failure(.decompressionFailed("bytes after the end of the zlib stream")) }
                    return .success(())
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return .failure(.decompressionFailed("truncated zlib stream"))
                default:
                    let msg = stream.msg.map { String(cString: $0) } ?? "zlib error \(rc)"
                    return .failure(.decompressionFailed(msg))
                }
            }
        }
        try result.get()
        return out
    }
}
