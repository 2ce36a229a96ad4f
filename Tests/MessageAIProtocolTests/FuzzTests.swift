import Foundation
import XCTest
@testable import MessageAIProtocol
import MessageAILoad

/// A million random and mutated inputs through the decoder and every payload type: no crash,
/// no hang, memory bounded. Seeded, so a failure replays.
final class FuzzTests: XCTestCase {
    func testAMillionRandomAndMutatedInputs() throws {
        let seeds: [[UInt8]] = Vectors.all.map { $0.message.frame(requestID: $0.requestID, compress: $0.compressed).encoded() }
        var rng = SplitMix64(seed: 0x5EED)
        let iterations = 1_000_000
        let maxLength = 4096
        let rssBefore = residentKiB()
        var frames = 0, messages = 0, errors = 0
        let started = Date()
        for i in 0..<iterations {
            var input: [UInt8]
            if i % 4 == 0 {
                input = (0..<Int(rng.next() % 64)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            } else {
                input = seeds[Int(rng.next() % UInt64(seeds.count))]
                mutate(&input, &rng)
            }
            var d = FrameDecoder(maxLength: maxLength)
            var offset = 0
            while offset < input.count {
                let n = min(input.count - offset, Int(rng.next() % 32) + 1)
                d.feed(input[offset..<offset + n])
                offset += n
                XCTAssertLessThanOrEqual(d.bufferedByteCount, maxLength + 4 + 32)
                do {
                    while let f = try d.next() {
                        frames += 1
                        if (try? MessageRegistry.decode(f, maxInflated: 1 << 20)) != nil { messages += 1 }
                    }
                } catch {
                    errors += 1
                    break
                }
            }
        }
        let growth = residentKiB() - rssBefore
        print("fuzz: \(iterations) inputs in \(String(format: "%.1f", Date().timeIntervalSince(started))) s; frames \(frames), decoded messages \(messages), framing errors \(errors), RSS growth \(growth) KiB")
        XCTAssertGreaterThan(messages, 1000, "mutations should still produce valid messages")
        XCTAssertGreaterThan(errors, 1000, "mutations should produce framing errors")
        // Under AddressSanitizer (Scripts/asan.sh sets ASAN_OPTIONS) freed memory sits in the
        // sanitizer's quarantine (256 MB by default) and every block carries red zones, so RSS
        // says nothing about the decoder: the plain run holds the bound.
        if ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil {
            XCTAssertLessThan(growth, 64 * 1024, "memory must stay bounded")
        }
    }

    private func mutate(_ b: inout [UInt8], _ rng: inout SplitMix64) {
        for _ in 0..<Int(rng.next() % 4) + 1 {
            guard !b.isEmpty else { return }
            let at = Int(rng.next() % UInt64(b.count))
            switch rng.next() % 5 {
            case 0: b[at] = UInt8(truncatingIfNeeded: rng.next())
            case 1: b[at] ^= 1 << UInt8(rng.next() % 8)
            case 2: b.removeSubrange(at...)
            case 3: b.insert(UInt8(truncatingIfNeeded: rng.next()), at: at)
            default: if at + 4 < b.count { b[at..<at + 4] = [0x7F, 0xFF, 0xFF, 0xFF] }
            }
        }
    }

    private func residentKiB() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = s.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ")[1]) ?? 0
    }
}
