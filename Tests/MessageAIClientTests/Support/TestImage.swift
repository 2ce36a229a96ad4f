import Foundation
import MessageAIProtocol

/// A PNG made here (an RGB gradient), so the client tests need no image tool. The server's
/// tests have their own (`TestPNG`): test targets share no files.
enum TestImage {
    static func png(width: Int, height: Int) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0) // filter: none
            for x in 0..<width { raw += [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), 90] }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
        png += chunk("IDAT", Compression.deflate(raw))
        png += chunk("IEND", [])
        return png
    }

    /// Writes a `width` × `height` PNG to `path`.
    static func write(_ path: String, width: Int = 200, height: Int = 150) throws {
        try Data(png(width: width, height: height)).write(to: URL(fileURLWithPath: path))
    }

    private static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for b in body {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return be32(data.count) + body + be32(Int(~crc))
    }
}
