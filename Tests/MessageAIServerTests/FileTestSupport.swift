import Crypto
import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Three users (ann, ben, cat) with the `files` capability on a server that stores files,
/// small limits so the tests can reach them.
class FileTestCase: XCTestCase {
    var server: TestServer!
    var ann: TestClient!, ben: TestClient!, cat: TestClient!

    override func setUpWithError() throws {
        server = try TestServer(files: true) { config in
            config.rateLimit = 100_000
            config.maxFileSize = 4 << 20
            config.fileQuota = 6 << 20
            config.maxUploadsInFlight = 2
            config.fileChunkSize = 64 * 1024
            config.maxImagePixels = 10_000_000
        }
        let users = try TestUsers.register(["ann", "ben", "cat"], port: server.port, capabilities: [.zlib, .files])
        (ann, ben, cat) = (users[0], users[1], users[2])
    }
    override func tearDown() { server?.stop() }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

    static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        // Eight bytes per step: byte by byte, a debug build took long enough for several MiB
        // that the server's idle timeout closed the test's already-open connections.
        var state = seed
        var words = [UInt64](repeating: 0, count: (count + 7) / 8)
        for i in words.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            words[i] = state ^ (state >> 29)
        }
        return words.withUnsafeBytes { Array($0.prefix(count)) }
    }
}

extension TestClient {
    /// Uploads `bytes` from where the server stands; stops after `stopAfter` chunks (nil: all).
    @discardableResult
    func upload(_ bytes: [UInt8], name: String, type: String = "application/octet-stream", stopAfter: Int? = nil) throws -> FileUpload {
        var state: FileUpload = try request(FileAnnounce(name: name, size: UInt64(bytes.count), mediaType: type,
                                                         sha256: FileTestCase.sha256(bytes)))
        var sent = 0
        while !state.complete {
            if let stopAfter, sent == stopAfter { return state }
            let start = Int(state.offset)
            let end = min(bytes.count, start + Int(state.chunkSize))
            state = try request(FileChunk(fileID: state.fileID, offset: state.offset, data: Array(bytes[start..<end])))
            sent += 1
        }
        return state
    }

    /// Downloads a whole file (or its thumbnail) by FILE_GET at growing offsets.
    func download(_ fileID: [UInt8], thumbnail: Bool = false) throws -> (bytes: [UInt8], sha256: [UInt8]) {
        var bytes: [UInt8] = []
        while true {
            let piece: FileData = try request(FileGet(fileID: fileID, offset: UInt64(bytes.count), thumbnail: thumbnail))
            bytes += piece.data
            if piece.data.isEmpty || bytes.count >= Int(piece.size) { return (bytes, piece.sha256) }
        }
    }
}

/// PNG files made here, so the tests need no image tool: an RGB gradient, optionally with an
/// eXIf chunk (the EXIF a phone would write, here with GPS coordinates), or only a header that
/// claims a huge size (a decompression bomb's first bytes are enough to refuse it).
enum TestPNG {
    static func make(width: Int, height: Int, exif: [UInt8]? = nil) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0) // filter: none
            for x in 0..<width { raw += [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), 128] }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
        if let exif { png += chunk("eXIf", exif) }
        png += chunk("IDAT", Compression.deflate(raw))
        png += chunk("IEND", [])
        return png
    }

    /// A header for `width` x `height` and one small IDAT: enough to be recognised and measured.
    static func bombHeader(width: Int, height: Int) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", be32(width) + be32(height) + [8, 0, 0, 0, 0])
        png += chunk("IDAT", Compression.deflate([UInt8](repeating: 0, count: 65_536)))
        return png
    }

    /// Big-endian TIFF EXIF with a GPS IFD (latitude 48° 51' 29", "N") and orientation `orientation`.
    static func gpsExif(orientation: UInt16 = 1) -> [UInt8] {
        var t: [UInt8] = Array("MM".utf8) + [0, 42] + be32(8)
        // IFD0: 2 entries (Orientation, GPSInfo pointer), next IFD 0.
        t += [0, 2]
        t += [0x01, 0x12, 0, 3] + be32(1) + [UInt8(orientation >> 8), UInt8(orientation & 0xff), 0, 0]
        let gpsOffset = 8 + 2 + 2 * 12 + 4
        t += [0x88, 0x25, 0, 4] + be32(1) + be32(gpsOffset)
        t += be32(0)
        // GPS IFD: GPSLatitudeRef "N", GPSLatitude 3 rationals.
        t += [0, 2]
        t += [0, 1, 0, 2] + be32(2) + Array("N".utf8) + [0, 0, 0]
        let ratOffset = gpsOffset + 2 + 2 * 12 + 4
        t += [0, 2, 0, 5] + be32(3) + be32(ratOffset)
        t += be32(0)
        for v in [48, 51, 29] { t += be32(v) + be32(1) }
        return t
    }

    private static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(crc32(body)))
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

extension Array where Element == UInt8 {
    func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, count >= needle.count else { return false }
        return (0...(count - needle.count)).contains { i in Array(self[i..<i + needle.count]) == needle }
    }
}
