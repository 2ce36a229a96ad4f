import XCTest
@testable import MessageAIClient

/// The preview path (libvips decodes, libchafa draws; neither is built with ASan) fed what a
/// hostile sender could attach: truncated PNG, JPEG and WebP, huge and zero declared sizes,
/// and seeded byte flips of a real image. Each must draw something or nothing, never crash,
/// and a huge declared size must not make the client decode it whole. Scripts/asan.sh runs
/// this under ASan and under valgrind (issue 24).
final class ImagePreviewHostileTests: XCTestCase {
    private var directory: String!

    override func setUp() { directory = temporaryDirectory("preview-hostile") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    /// Renders `bytes` both ways the client does (as a thumbnail and as a file), in every mode.
    @discardableResult
    private func renderAll(_ bytes: [UInt8], _ name: String) throws -> [String?] {
        let path = directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var out: [String?] = []
        for mode in [ImagePreview.Mode.symbols, .kitty, .sixel] {
            out.append(ImagePreview.render(jpeg: bytes, maxColumns: 20, maxRows: 8, mode: mode))
            out.append(ImagePreview.render(file: path, maxColumns: 20, maxRows: 8, mode: mode))
        }
        return out
    }

    private func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
    private func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 24)] }

    func testTruncatedImagesDrawNothingOrAPartAndNeverCrash() throws {
        let png = TestImage.png(width: 64, height: 48)
        XCTAssertNotNil(try renderAll(png, "whole.png")[0], "the whole image draws")
        for cut in [1, 8, 16, 33, 40, png.count / 2, png.count - 12, png.count - 1] {
            try renderAll(Array(png.prefix(cut)), "cut-\(cut).png")
        }
        let jpeg = jpegHeader(width: 64, height: 48) + [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0x34]
        for cut in [2, 4, 10, jpeg.count - 3, jpeg.count] { try renderAll(Array(jpeg.prefix(cut)), "cut-\(cut).jpg") }
        let webp = webpLossless(width: 64, height: 48) + [0x00, 0x11, 0x22]
        for cut in [4, 12, 20, 25, webp.count] { try renderAll(Array(webp.prefix(cut)), "cut-\(cut).webp") }
    }

    func testHugeAndZeroDeclaredSizes() throws {
        let started = Date()
        for (w, h) in [(0, 0), (0, 48), (64, 0), (65_535, 65_535), (1, 0x7FFF_FFFF), (0x7FFF_FFFF, 0x7FFF_FFFF)] {
            var png = TestImage.png(width: 4, height: 4)
            // IHDR's width and height (bytes 16-23), CRC left wrong as a forger would.
            png.replaceSubrange(16..<24, with: be32(UInt32(w)) + be32(UInt32(h)))
            XCTAssertEqual(try renderAll(png, "size-\(w)x\(h).png").compactMap { $0 }.count, 0, "\(w)x\(h) PNG")
        }
        for (w, h) in [(0, 0), (65_535, 65_535), (1, 65_535)] {
            XCTAssertEqual(try renderAll(jpegHeader(width: w, height: h) + [0xFF, 0xD9], "size-\(w)x\(h).jpg").compactMap { $0 }.count, 0)
        }
        for (w, h) in [(1, 1), (16_384, 16_384)] {
            XCTAssertEqual(try renderAll(webpLossless(width: w, height: h), "size-\(w)x\(h).webp").compactMap { $0 }.count, 0)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "a declared size is never decoded whole")
    }

    func testSeededByteFlipsOfARealImage() throws {
        var rng = SplitMix(seed: UInt64(ProcessInfo.processInfo.environment["MESSAGEAI_IMAGE_FUZZ_SEED"] ?? "") ?? 24)
        let count = Int(ProcessInfo.processInfo.environment["MESSAGEAI_IMAGE_FUZZ_COUNT"] ?? "") ?? 60
        let png = TestImage.png(width: 32, height: 24)
        for i in 0..<count {
            var bytes = png
            for _ in 0..<(1 + Int(rng.next() % 8)) {
                bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next())
            }
            // Flips in the data leave zlib or the CRC to notice; one render per mutation is enough.
            _ = ImagePreview.render(jpeg: bytes, maxColumns: 20, maxRows: 8, mode: .symbols)
            if i % 10 == 0 { try renderAll(bytes, "flip-\(i).png") }
        }
    }

    /// SOI, SOF0 declaring `width` × `height` with three components, no tables.
    private func jpegHeader(width: Int, height: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8 & 0xff), UInt8(height & 0xff),
         UInt8(width >> 8 & 0xff), UInt8(width & 0xff), 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
    }

    /// A RIFF/WebP file whose VP8L header declares `width` × `height` and holds no pixels.
    private func webpLossless(width: Int, height: Int) -> [UInt8] {
        let bits = UInt32(width - 1) | UInt32(height - 1) << 14
        let vp8l: [UInt8] = [0x2F] + le32(bits)
        return Array("RIFF".utf8) + le32(UInt32(4 + 8 + vp8l.count)) + Array("WEBPVP8L".utf8) + le32(UInt32(vp8l.count)) + vp8l
    }
}

/// A small seeded generator (the tests must be repeatable from the seed they print).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
