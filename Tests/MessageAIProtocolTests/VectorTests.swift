import Foundation
import XCTest
@testable import MessageAIProtocol
import MessageAILoad

/// Every spec example decodes to its documented values and re-encodes to the same bytes.
/// `MESSAGEAI_WRITE_VECTORS=1 swift test --filter VectorTests` rewrites the .hex files from the
/// table (then paste them into the spec; testSpecShowsEveryVector says where they differ).
final class VectorTests: XCTestCase {
    private func bytes(of v: Vector) -> [UInt8] {
        v.message.frame(requestID: v.requestID, compress: v.compressed).encoded()
    }

    private func fileBytes(_ name: String) throws -> [UInt8] {
        let url = RepoPaths.vectors.appendingPathComponent("\(name).hex")
        if ProcessInfo.processInfo.environment["MESSAGEAI_WRITE_VECTORS"] == "1",
           let v = Vectors.all.first(where: { $0.name == name }) {
            try (Hex.encode(bytes(of: v)) + "\n").write(to: url, atomically: true, encoding: .utf8)
        }
        let text = try String(contentsOf: url, encoding: .utf8)
        return try XCTUnwrap(Hex.decode(text), "\(name).hex is not hex")
    }

    func testEveryFrameTypeHasAVector() {
        let covered = Set(Vectors.all.map { type(of: $0.message).frameType })
        for entry in MessageRegistry.entries {
            XCTAssertTrue(covered.contains(entry.type.frameType), "no vector for \(entry.name)")
        }
    }

    func testVectorsDecodeToDocumentedValues() throws {
        for v in Vectors.all {
            var decoder = FrameDecoder()
            decoder.feed(try fileBytes(v.name))
            let frame = try XCTUnwrap(try decoder.next(), v.name)
            XCTAssertNil(try decoder.next(), "\(v.name): bytes left over")
            XCTAssertEqual(frame.type, type(of: v.message).frameType, v.name)
            XCTAssertEqual(frame.requestID, v.requestID, v.name)
            XCTAssertEqual(frame.flags.contains(.compressed), v.compressed, v.name)
            let decoded = try XCTUnwrap(try MessageRegistry.decode(frame), v.name)
            XCTAssertTrue(sameMessage(decoded, v.message), "\(v.name): decoded \(decoded), documented \(v.message)")
        }
    }

    func testVectorsReencodeByteForByte() throws {
        for v in Vectors.all {
            let file = try fileBytes(v.name)
            var decoder = FrameDecoder()
            decoder.feed(file)
            let frame = try XCTUnwrap(try decoder.next())
            XCTAssertEqual(frame.encoded(), file, "\(v.name): frame re-encoding")
            let message = try XCTUnwrap(try MessageRegistry.decode(frame))
            XCTAssertEqual(message.frame(requestID: frame.requestID, compress: v.compressed).encoded(), file,
                           "\(v.name): message re-encoding")
        }
    }

    func testVectorsFedOneByteAtATime() throws {
        for v in Vectors.all {
            var decoder = FrameDecoder()
            var frames: [Frame] = []
            for b in try fileBytes(v.name) {
                decoder.feed(CollectionOfOne(b))
                if let f = try decoder.next() { frames.append(f) }
            }
            XCTAssertEqual(frames.count, 1, v.name)
            XCTAssertEqual(frames.first?.encoded(), try fileBytes(v.name), v.name)
        }
    }

    func testAllVectorsBackToBackInRandomChunks() throws {
        var stream: [UInt8] = []
        for v in Vectors.all { stream += try fileBytes(v.name) }
        var rng = SplitMix64(seed: 7)
        for _ in 0..<50 {
            var decoder = FrameDecoder()
            var frames: [Frame] = []
            var i = 0
            while i < stream.count {
                let n = min(stream.count - i, Int(rng.next() % 97) + 1)
                decoder.feed(stream[i..<i + n])
                i += n
                while let f = try decoder.next() { frames.append(f) }
            }
            XCTAssertEqual(frames.count, Vectors.all.count)
            XCTAssertEqual(frames.flatMap { $0.encoded() }, stream)
        }
    }

    /// The spec shows each vector as `<!-- vector: NAME -->` followed by a ```hex block.
    func testSpecShowsEveryVector() throws {
        let spec = try String(contentsOf: RepoPaths.spec, encoding: .utf8)
        var shown: [String: [UInt8]] = [:]
        let parts = spec.components(separatedBy: "<!-- vector: ").dropFirst()
        for part in parts {
            let name = String(part.prefix { $0 != " " })
            guard let open = part.range(of: "```hex\n"), let close = part.range(of: "```", range: open.upperBound..<part.endIndex) else {
                XCTFail("vector \(name) in the spec has no hex block"); continue
            }
            shown[name] = Hex.decode(String(part[open.upperBound..<close.lowerBound]))
        }
        for v in Vectors.all {
            XCTAssertEqual(shown[v.name], try fileBytes(v.name), "spec's hex for \(v.name) differs from Protocol/vectors/\(v.name).hex")
        }
        XCTAssertEqual(Set(shown.keys), Set(Vectors.all.map(\.name)), "spec names vectors the table does not have")
    }
}

