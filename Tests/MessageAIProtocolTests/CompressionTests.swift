import XCTest
@testable import MessageAIProtocol
import MessageAILoad

final class CompressionTests: XCTestCase {
    func testRoundTrip() throws {
        var rng = SplitMix64(seed: 1)
        for size in [0, 1, 255, 4096, 100_000] {
            let text = (0..<size).map { _ in UInt8(ascii: "a") + UInt8(rng.next() % 6) }
            XCTAssertEqual(try Compression.inflate(Compression.deflate(text)), text)
        }
    }

    func testCompressedFrameDecodesLikeThePlainOne() throws {
        let batch = SyncBatch(conversations: [Vectors.dm], messages: Array(repeating: Vectors.hi, count: 50), receipts: [])
        let plain = batch.frame(requestID: 1)
        let packed = batch.frame(requestID: 1, compress: true)
        XCTAssertTrue(packed.flags.contains(.compressed))
        XCTAssertLessThan(packed.payload.count * 3, plain.payload.count)
        XCTAssertEqual(try packed.decode(SyncBatch.self), batch)
    }

    /// The writer picks the level (the server compresses at 1); every level decodes to the same
    /// message, and the default stays 6, the level the spec's compressed vectors were made at.
    func testEveryLevelDecodesToTheSameMessage() throws {
        let batch = SyncBatch(conversations: [Vectors.dm], messages: Array(repeating: Vectors.hi, count: 50), receipts: [])
        XCTAssertEqual(batch.frame(requestID: 1, compress: true), batch.frame(requestID: 1, compress: true, level: 6))
        for level in Compression.levels {
            let packed = batch.frame(requestID: 1, compress: true, level: level)
            XCTAssertTrue(packed.flags.contains(.compressed))
            XCTAssertEqual(try packed.decode(SyncBatch.self), batch, "level \(level)")
        }
    }

    func testSmallPayloadsAreNotCompressed() {
        XCTAssertFalse(Ping().frame(requestID: 1, compress: true).flags.contains(.compressed))
    }

    /// 64 MiB of zeros deflates to about 64 KiB; inflating it must stop at the limit.
    func testDecompressionBombIsRefused() {
        let bomb = Compression.deflate([UInt8](repeating: 0, count: 64 << 20))
        XCTAssertLessThan(bomb.count, 100_000)
        XCTAssertThrowsError(try Compression.inflate(bomb, limit: 16 << 20)) {
            XCTAssertEqual(($0 as? ProtocolError)?.errorCode, .decompressionFailed)
        }
        let frame = Frame(type: .syncBatch, flags: .compressed, requestID: 1, payload: bomb)
        XCTAssertThrowsError(try frame.decode(SyncBatch.self, maxInflated: 1 << 20))
    }

    func testGarbageTruncatedAndTrailingBytesAreErrors() {
        let good = Compression.deflate(Array("hello hello hello".utf8))
        XCTAssertThrowsError(try Compression.inflate([1, 2, 3, 4, 5]))
        XCTAssertThrowsError(try Compression.inflate(Array(good.dropLast(3))))
        XCTAssertThrowsError(try Compression.inflate(good + [0]))
        XCTAssertThrowsError(try Compression.inflate([]))
    }
}
